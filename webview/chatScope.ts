// What the webview keeps per chat: the unsent draft (persisted across reloads) and the notices
// shown for it. Opening another chat, a fork or New Chat swaps both, so a draft or a "chat was
// restored" notice never follows the person into a chat it does not belong to.
import { el } from './dom';
import { loadPersisted, savePersisted } from './host';

/** Drafts kept for this many chats at most, the least recently touched forgotten first. */
const MAX_DRAFTS = 50;
/** Notice lists kept for this many chats (in memory only: notices are news, not state). */
const MAX_NOTICE_LISTS = 20;

/** The composer as far as drafts go. */
export interface DraftBox {
	readonly value: string;
	/** Replaces the text without sending anything, as a chat switch does. */
	replace(text: string): void;
}

export class ChatScope {
	/** Where the shown chat's notices go; it holds one list per chat, the current one attached. */
	readonly notices = el('div', { class: 'notices', 'aria-live': 'assertive' });
	private readonly drafts: Map<string, string>;
	private readonly lists = new Map<string, HTMLElement>();
	private shown: string | undefined;
	/** A draft from before drafts were kept per chat (or typed before the first snapshot): it goes to the first chat shown. */
	private unclaimed: string;

	constructor() {
		const persisted = loadPersisted();
		this.drafts = new Map(Object.entries(persisted.drafts));
		this.shown = persisted.shown;
		this.unclaimed = persisted.shown === undefined ? persisted.draft : '';
		this.notices.append(this.listOf(this.shown ?? ''));
	}

	/** The draft to start with, before the host said which chat is shown: the last one shown's. */
	get initialDraft(): string {
		return this.shown === undefined ? this.unclaimed : (this.drafts.get(this.shown) ?? '');
	}

	/** The current chat's notice list. */
	get noticeList(): HTMLElement {
		return this.listOf(this.shown ?? '');
	}

	/** A snapshot of chat `sessionId` arrived: if it is another chat, its draft and notices replace the shown ones. */
	show(sessionId: string, box: DraftBox): void {
		if (sessionId === this.shown) {
			return;
		}
		if (this.shown !== undefined) {
			this.keep(this.shown, box.value);
		} else if (box.value.trim() !== '') {
			this.unclaimed = box.value;
		}
		const previous = this.shown;
		this.shown = sessionId;
		const draft = this.drafts.get(sessionId) ?? this.unclaimed;
		this.unclaimed = '';
		if (previous !== undefined || draft !== box.value) {
			box.replace(draft);
		}
		this.keep(sessionId, draft);
		this.notices.replaceChildren(this.listOf(sessionId));
	}

	/** The person edited the shown chat's draft. */
	draftChanged(text: string): void {
		if (this.shown === undefined) {
			this.unclaimed = text;
			this.save();
			return;
		}
		this.keep(this.shown, text);
	}

	/** Whether `sessionId` is the chat on screen (a message for another one goes to its draft). */
	isShown(sessionId: string | undefined): boolean {
		return sessionId === undefined || this.shown === undefined || sessionId === this.shown;
	}

	/** Gives text back to a chat that is not on screen: it goes first in its draft, which stays after it. */
	giveBackTo(sessionId: string, text: string): void {
		const draft = this.drafts.get(sessionId) ?? '';
		this.keep(sessionId, draft.trim() === '' ? text : `${text}\n\n${draft}`);
	}

	/** The notice list of a chat that is not on screen, to say there why something came back. */
	noticeListOf(sessionId: string): HTMLElement {
		return this.listOf(sessionId);
	}

	private keep(sessionId: string, text: string): void {
		this.drafts.delete(sessionId);
		if (text !== '') {
			this.drafts.set(sessionId, text);
		}
		while (this.drafts.size > MAX_DRAFTS) {
			const oldest = this.drafts.keys().next().value;
			if (oldest === undefined) {
				break;
			}
			this.drafts.delete(oldest);
		}
		this.save();
	}

	private save(): void {
		savePersisted({ drafts: Object.fromEntries(this.drafts), ...(this.shown === undefined ? { draft: this.unclaimed } : { shown: this.shown }) });
	}

	private listOf(sessionId: string): HTMLElement {
		let list = this.lists.get(sessionId);
		if (!list) {
			list = el('div', { class: 'notice-list', 'data-session': sessionId });
			this.lists.set(sessionId, list);
			while (this.lists.size > MAX_NOTICE_LISTS) {
				const oldest = [...this.lists.keys()].find((id) => id !== this.shown && id !== sessionId);
				if (oldest === undefined) {
					break;
				}
				this.lists.delete(oldest);
			}
		}
		return list;
	}
}
