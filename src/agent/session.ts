// A chat session: its transcript records (written through a store before anything else sees
// them), the rows the view renders, its title, and its reminder engine. The host owns all of
// it; the webview only ever sees snapshots and deltas.
import type { Clock, IdSource } from '../base/clock';
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { ContextUseView, SessionSummaryView, SessionView, TranscriptItem } from '../protocol/messages';
import type { ReminderConfig } from '../reminders/config';
import type { ReminderDefinition } from '../reminders/definition';
import { ReminderEngine } from '../reminders/engine';
import { restoreDeliveries } from '../reminders/history';
import type { KeyRegistry } from '../reminders/keys';
import type { InjectionRecord } from '../reminders/record';
import { sessionResume } from '../reminders/builtin/sessionResume';
import type { SessionMeta } from '../transcript/records';
import { lastActivityAt, lastTurnInterrupted } from '../transcript/replay';
import { ContextUseTracker } from './contextUse';
import { ItemProjector } from './itemView';
import type { AgentRecord, TurnTranscript } from './turn';

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

export type StoredRecord = AgentRecord | SessionMeta;

/** Where a session's records go: the JSONL transcript on disk, or memory in tests. */
export interface SessionStore {
	/** Writes one record durably before returning; throws when it cannot. */
	append(record: StoredRecord): void;
	close(): void;
}

export interface SessionEnvironment {
	readonly clock: Clock;
	readonly ids: IdSource;
	readonly log: Logger;
	readonly reminderConfig: ReminderConfig;
	/** The built-in reminders plus those other extensions contributed, as of now. */
	readonly reminderDefaults: () => readonly ReminderDefinition[];
	/** The keys sessions may send (built-in and contributed). */
	readonly reminderKeys?: KeyRegistry;
}

export class ChatSession extends Disposable implements TurnTranscript {
	private readonly _records: AgentRecord[] = [];
	private readonly _items: TranscriptItem[] = [];
	private readonly projector = new ItemProjector();
	private _title = UNTITLED;
	private contextChanges = 0;
	readonly reminders: ReminderEngine;

	private readonly _onDidAppend = this._register(new Emitter<readonly TranscriptItem[]>());
	/** Rows appended to this session's transcript, in order. */
	readonly onDidAppend: Event<readonly TranscriptItem[]> = this._onDidAppend.event;

	private readonly _onDidChangeTitle = this._register(new Emitter<string>());
	readonly onDidChangeTitle: Event<string> = this._onDidChangeTitle.event;

	private readonly contextUse = new ContextUseTracker();
	private readonly _onDidChangeContext = this._register(new Emitter<void>());
	/** A record changed the context use: a response reported usage, reminders were delivered. */
	readonly onDidChangeContext: Event<void> = this._onDidChangeContext.event;

	constructor(
		readonly id: string,
		private readonly sessionStore: SessionStore,
		private readonly env: SessionEnvironment,
		loaded: readonly StoredRecord[] = [],
	) {
		super();
		this.reminders = this._register(
			new ReminderEngine({
				recorder: { write: (record: InjectionRecord) => { this.append(record); } },
				clock: env.clock,
				log: env.log,
				config: env.reminderConfig,
				defaults: env.reminderDefaults(),
				...(env.reminderKeys ? { keys: env.reminderKeys } : {}),
			}),
		);
		for (const record of loaded) {
			this.take(record);
		}
		const firstUser = this._records.find((record) => record.kind === 'user');
		if (this._title === UNTITLED && firstUser?.kind === 'user') {
			this._title = titleFromText(firstUser.text);
		}
		// What reopened history still holds counts as delivered; nothing else does.
		restoreDeliveries(this.reminders.roster, this._records.filter((record): record is InjectionRecord => record.kind === 'injected-reminders'));
	}

	get title(): string {
		return this._title;
	}

	get records(): readonly AgentRecord[] {
		return this._records;
	}

	get items(): readonly TranscriptItem[] {
		return this._items;
	}

	get isEmpty(): boolean {
		return this._records.length === 0;
	}

	/** Writes the record through the store first; only a stored record is shown and replayed. */
	append(record: AgentRecord): void {
		this.sessionStore.append(record);
		const wasUntitled = this._title === UNTITLED && !this._records.some((r) => r.kind === 'user');
		const contextBefore = this.contextChanges;
		const item = this.take(record);
		if (item) {
			this._onDidAppend.fire([item]);
		}
		if (this.contextChanges !== contextBefore) {
			this._onDidChangeContext.fire();
		}
		if (wasUntitled && record.kind === 'user') {
			this.retitle(titleFromText(record.text));
		}
	}

	/** Sets the title and records it, so a reopened session keeps it. */
	retitle(title: string): void {
		if (title === this._title) {
			return;
		}
		this._title = title;
		try {
			this.sessionStore.append({ kind: 'meta', at: this.env.clock.now(), title });
		} catch (error) {
			this.env.log.warn(`Aside: could not record the title of session ${this.id}: ${error instanceof Error ? error.message : String(error)}`);
		}
		this._onDidChangeTitle.fire(title);
	}

	/** Context use of this session, against the model's window when known. */
	contextView(limitTokens: number | undefined): ContextUseView {
		return this.contextUse.view(limitTokens);
	}

	toView(): SessionView {
		return { id: this.id, title: this._title, items: [...this._items] };
	}

	private take(record: StoredRecord): TranscriptItem | undefined {
		if (record.kind === 'meta') {
			if (record.title !== undefined) {
				this._title = record.title;
			}
			return undefined;
		}
		this._records.push(record);
		if (this.contextUse.take(record)) {
			this.contextChanges++;
		}
		const item = this.projector.project(record);
		if (item) {
			this._items.push(item);
		}
		return item;
	}

	override dispose(): void {
		super.dispose();
		this.sessionStore.close();
	}
}

/** How sessions are made, stored and found again. */
export interface SessionLibrary {
	create(id: string): SessionStore;
	/** The records of a stored session and a store that appends to it. */
	open(id: string): { readonly store: SessionStore; readonly records: readonly StoredRecord[] };
	/** The stored sessions, most recently active first. */
	list(): readonly { readonly id: string; readonly title?: string | undefined; readonly updatedAt: number }[];
}

/** The sessions of one window; exactly one is current. */
export class ChatSessions extends Disposable {
	private _current: ChatSession;

	private readonly _onDidChangeCurrent = this._register(new Emitter<ChatSession>());
	readonly onDidChangeCurrent: Event<ChatSession> = this._onDidChangeCurrent.event;

	constructor(
		private readonly library: SessionLibrary,
		private readonly env: SessionEnvironment,
	) {
		super();
		this._current = this.create();
	}

	get current(): ChatSession {
		return this._current;
	}

	/** Starts a new, empty session and makes it current. An empty current session is reused. */
	newSession(): ChatSession {
		if (this._current.isEmpty) {
			return this._current;
		}
		this.replace(this.create());
		return this._current;
	}

	/**
	 * The sessions the person can reopen, most recent first, the current one marked. A new chat
	 * with nothing in it yet is not stored, so it is not listed.
	 */
	list(): SessionSummaryView[] {
		const current = this._current;
		const listed = this.library.list().map((summary) => ({
			id: summary.id,
			title: summary.id === current.id ? current.title : (summary.title ?? UNTITLED),
			at: summary.updatedAt,
			current: summary.id === current.id,
		}));
		if (!current.isEmpty && !listed.some((summary) => summary.current)) {
			listed.unshift({ id: current.id, title: current.title, at: this.env.clock.now(), current: true });
		}
		return listed;
	}

	/** Reopens a stored session and makes it current. */
	open(id: string): ChatSession {
		if (this._current.id === id) {
			return this._current;
		}
		const { store, records } = this.library.open(id);
		const session = new ChatSession(id, store, this.env, records);
		if (session.records.some((record) => record.kind === 'user')) {
			// A reopened session runs in a new host: say so, and whether its last turn was cut off.
			session.reminders.enqueuePending(sessionResume({ lastActivity: lastActivityAt(session.records) ?? this.env.clock.now(), interrupted: lastTurnInterrupted(session.records) }));
		}
		this.replace(session);
		return this._current;
	}

	private replace(next: ChatSession): void {
		this._current.dispose();
		this._current = next;
		this._onDidChangeCurrent.fire(next);
	}

	private create(): ChatSession {
		const id = this.env.ids.next();
		return new ChatSession(id, this.library.create(id), this.env);
	}

	override dispose(): void {
		this._current.dispose();
		super.dispose();
	}
}
