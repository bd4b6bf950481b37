// Notices above the composer: what the host or the view says in passing (a refusal, a message
// given back). Each belongs to the chat it was shown in (ChatScope keeps one list per chat).
import { el, icon } from './dom';
import type { ChatScope } from './chatScope';

export type NoticeLevel = 'info' | 'warning' | 'error';

/** The three most recent are kept per chat; older ones are no longer news. */
const MAX_NOTICES = 3;

export class Notices {
	constructor(
		private readonly chat: ChatScope,
		/** Where the focus goes when a notice is dismissed. */
		private readonly refocus: () => void,
	) {}

	/** Shows a notice in the shown chat, or in chat `sessionId`'s list when that one is not on screen. */
	show(level: NoticeLevel, text: string, action?: HTMLButtonElement, sessionId?: string): HTMLElement {
		const dismiss = el('button', { type: 'button', class: 'icon-button', title: 'Dismiss', 'aria-label': 'Dismiss' }, icon('close'));
		const notice = el(
			'div',
			{ class: `notice notice-${level}`, role: level === 'error' ? 'alert' : 'status' },
			icon(level === 'info' ? 'info' : level),
			el('span', { class: 'notice-text' }, text),
			action ?? null,
			dismiss,
		);
		dismiss.addEventListener('click', () => {
			notice.remove();
			this.refocus();
		});
		const list = sessionId === undefined || this.chat.isShown(sessionId) ? this.chat.noticeList : this.chat.noticeListOf(sessionId);
		list.append(notice);
		while (list.childElementCount > MAX_NOTICES) {
			list.firstElementChild?.remove();
		}
		return notice;
	}

	/** Removes the shown chat's notices that say exactly `text`. */
	remove(text: string): void {
		for (const shown of Array.from(this.chat.noticeList.querySelectorAll('.notice-text'))) {
			if (shown.textContent === text) {
				shown.parentElement?.remove();
			}
		}
	}
}
