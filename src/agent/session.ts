// The host-owned chat session: the transcript the view renders. The host owns all state; the
// webview only ever sees snapshots and deltas of it.
import type { Clock, IdSource } from '../base/clock';
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { SessionView, TranscriptItem, UserTurnItem } from '../protocol/messages';

const UNTITLED = 'New chat';
const TITLE_MAX_CHARS = 60;

/** A title from the first line of the first message, cut at a word boundary when it is long. */
export function titleFromText(text: string): string {
	const firstLine = text.trim().split(/\r?\n/, 1)[0]?.trim() ?? '';
	if (firstLine === '') {
		return UNTITLED;
	}
	const chars = Array.from(firstLine); // code points: never cut an emoji in half
	if (chars.length <= TITLE_MAX_CHARS) {
		return firstLine;
	}
	const cut = chars.slice(0, TITLE_MAX_CHARS).join('');
	const space = cut.lastIndexOf(' ');
	return `${(space > TITLE_MAX_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export class ChatSession extends Disposable {
	private readonly _items: TranscriptItem[] = [];
	private _title = UNTITLED;
	private titled = false;

	private readonly _onDidAppend = this._register(new Emitter<readonly TranscriptItem[]>());
	/** Rows appended to this session's transcript, in order. */
	readonly onDidAppend: Event<readonly TranscriptItem[]> = this._onDidAppend.event;

	private readonly _onDidChangeTitle = this._register(new Emitter<string>());
	readonly onDidChangeTitle: Event<string> = this._onDidChangeTitle.event;

	constructor(
		readonly id: string,
		private readonly clock: Clock,
		private readonly ids: IdSource,
	) {
		super();
	}

	get title(): string {
		return this._title;
	}

	get items(): readonly TranscriptItem[] {
		return this._items;
	}

	appendUserTurn(text: string): UserTurnItem {
		const item: UserTurnItem = { kind: 'user', id: this.ids.next(), text, at: this.clock.now() };
		this._items.push(item);
		this._onDidAppend.fire([item]);
		if (!this.titled) {
			this.titled = true;
			this._title = titleFromText(text);
			this._onDidChangeTitle.fire(this._title);
		}
		return item;
	}

	toView(): SessionView {
		return { id: this.id, title: this._title, items: [...this._items] };
	}
}

/** The sessions of one window; exactly one is current. */
export class ChatSessions extends Disposable {
	private _current: ChatSession;

	private readonly _onDidChangeCurrent = this._register(new Emitter<ChatSession>());
	readonly onDidChangeCurrent: Event<ChatSession> = this._onDidChangeCurrent.event;

	constructor(
		private readonly clock: Clock,
		private readonly ids: IdSource,
	) {
		super();
		this._current = this.create();
	}

	get current(): ChatSession {
		return this._current;
	}

	/** Starts a new, empty session and makes it current. An empty current session is reused. */
	newSession(): ChatSession {
		if (this._current.items.length === 0) {
			return this._current;
		}
		// Transcripts are in memory until the transcript store lands; the old one is released.
		this._current.dispose();
		this._current = this.create();
		this._onDidChangeCurrent.fire(this._current);
		return this._current;
	}

	private create(): ChatSession {
		return new ChatSession(this.ids.next(), this.clock, this.ids);
	}

	override dispose(): void {
		this._current.dispose();
		super.dispose();
	}
}
