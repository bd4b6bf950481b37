// The edit-diagnostics waits of a loop's step: each edit's wait starts when its result is
// recorded and runs on while the step's next calls run; the loop's next WAIT waits for all of
// them at once. So a step that edits several files waits about as long as its slowest file,
// not the sum of them, and the model still gets every file's problems in its next request.
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import type { Owner } from '../reminders/definition';
import type { ReminderEngine } from '../reminders/engine';
import type { TurnEvent } from '../reminders/turnEvents';

export class StepWaits {
	private readonly pending = new Map<string, Set<Promise<void>>>();

	constructor(
		private readonly engine: Pick<ReminderEngine, 'queueTurnEvent'>,
		private readonly log: Logger,
	) {}

	/** One edit's wait for `owner`: its event, if any, is queued for the owner when it comes. */
	add(owner: Owner, path: string, wait: Promise<TurnEvent | undefined>): void {
		let waits = this.pending.get(owner.id);
		if (!waits) {
			waits = new Set();
			this.pending.set(owner.id, waits);
		}
		const own = waits;
		const tracked = wait
			.then(
				(event) => {
					if (event) {
						this.engine.queueTurnEvent(owner, event);
					}
				},
				(error: unknown) => {
					this.log.warn(`Aside: no diagnostics after the edit of ${path}: ${errorMessage(error)}`);
				},
			)
			.finally(() => {
				own.delete(tracked);
				if (own.size === 0 && this.pending.get(owner.id) === own) {
					this.pending.delete(owner.id);
				}
			});
		own.add(tracked);
	}

	/** Resolves when every wait of `owner` has ended, those added meanwhile included. */
	async settled(owner: Owner): Promise<void> {
		for (let waits = this.pending.get(owner.id); waits && waits.size > 0; waits = this.pending.get(owner.id)) {
			await Promise.all(waits);
		}
	}
}
