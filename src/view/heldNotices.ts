// Notices the host raises on its own (a profile file that could not be used), for the chat to
// show even when it is hidden or not created yet: each is held until a connected view showed it
// once. Notices a message of the person's answers (an empty message) go straight to that view.
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { NOTICE_ACTIONS } from '../protocol/messages';

export type NoticeAction = (typeof NOTICE_ACTIONS)[number];

export interface HeldNotice {
	readonly level: 'info' | 'warning' | 'error';
	readonly text: string;
	readonly action?: NoticeAction;
	/** The chat it is about (a notice raised as a chat becomes current may reach the view before that chat). */
	readonly sessionId?: string;
}

/** The most held at once: a burst keeps its newest, so a view that opens late is not flooded. */
const MAX_HELD = 5;

export class HeldNotices extends Disposable {
	private held: HeldNotice[] = [];
	private readonly _onDidAdd = this._register(new Emitter<void>());
	readonly onDidAdd: Event<void> = this._onDidAdd.event;

	add(notice: HeldNotice): void {
		this.held.push(notice);
		if (this.held.length > MAX_HELD) {
			this.held = this.held.slice(-MAX_HELD);
		}
		this._onDidAdd.fire();
	}

	/** The notices not shown yet, oldest first; they count as shown once taken. */
	take(): readonly HeldNotice[] {
		const taken = this.held;
		this.held = [];
		return taken;
	}
}
