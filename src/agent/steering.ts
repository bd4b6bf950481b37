// Messages the person types while the agent works: each one is a steering turn event for the
// running turn's next WAIT, and pending (shown under the composer) until the request carrying it
// was accepted — its own event's commit says so, message by message. What is still pending when
// the turn ends was typed after its last WAIT: the agent sends it as the next message, or, when
// the turn was stopped (or its chat is no longer current), gives it back to the person.
import type { Logger } from '../base/log';
import { userSteering } from '../reminders/builtin/userSteering';
import type { Owner } from '../reminders/definition';
import type { ReminderEngine } from '../reminders/engine';

/** Messages typed during a turn of chat `sessionId` that never reached the model, oldest first: the view puts them back in that chat's composer. */
export interface ReturnedMessages {
	readonly sessionId: string;
	readonly texts: readonly string[];
}

interface Message {
	readonly text: string;
}

export class Steering {
	private messages: Message[] = [];

	constructor(
		/** What is pending changed. */
		private readonly changed: () => void,
		private readonly log: Logger,
	) {}

	/** The messages waiting for the next step, oldest first. */
	get pending(): readonly string[] {
		return this.messages.map((message) => message.text);
	}

	/** Queues `text` for `owner`'s next WAIT, pending until that request was accepted. */
	steer(engine: ReminderEngine, owner: Owner, text: string): void {
		const message: Message = { text };
		const delivered = (): void => {
			const index = this.messages.indexOf(message);
			if (index !== -1) {
				this.messages.splice(index, 1);
				this.changed();
			}
		};
		if (!engine.queueTurnEvent(owner, userSteering(text, delivered))) {
			this.log.warn('Aside: a steering message arrived after its turn ended; it becomes the next message.');
		}
		this.messages.push(message);
		this.changed();
	}

	/** The turn ended: what was never delivered, oldest first; nothing is pending after this. */
	take(): string[] {
		const undelivered = this.pending.slice();
		this.messages = [];
		return undelivered;
	}
}
