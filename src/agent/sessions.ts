// The sessions of one window: exactly one is current; others are reopened from the library, and
// a chat another window writes is shown read-only and continued here in a copy.
import { errorMessage } from '../base/errors';
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import { type ResumeCause, sessionResume } from '../reminders/builtin/sessionResume';
import { lastActivityAt } from '../transcript/replay';
import { recoveryAfter } from '../reminders/builtin/sessionRecovery';
import { rewindAfterReopen } from '../reminders/builtin/sessionRewind';
import { UNTITLED } from './chatTitle';
import { ChatSession, type SessionAccess, type SessionEnvironment } from './session';
import type { OpenedSession, SessionLibrary } from './sessionStorage';
import type { ForkRecord } from '../transcript/historyMarkers';
import type { TranscriptEntry } from '../transcript/records';
import { forkPrefix, type ForkPrefix, forkTitle } from './forkHistory';
import { plural } from '../base/words';

/** The title of a copy of a chat titled `title`. */
export function copyTitle(title: string): string {
	return `${title} (copy)`;
}

/** A past (or the current) session, for the chat list. */
export interface SessionSummary {
	readonly id: string;
	readonly title: string;
	/** When it was last active, milliseconds since the epoch. */
	readonly at: number;
	readonly current: boolean;
	/** The chat it was forked from: its title as listed now, else as it was when forked. */
	readonly forkOf?: { readonly id: string; readonly title: string };
}

/** A fork just made: the new chat (current now) and what it copied. */
export interface MadeFork {
	readonly session: ChatSession;
	readonly prefix: ForkPrefix;
	readonly record: ForkRecord;
}

/** The sessions of one window; exactly one is current. */
export class ChatSessions extends Disposable {
	private _current: ChatSession;
	/** Why each reopened session was opened, for its resume reminder when it is opened again to write. */
	private readonly causes = new WeakMap<ChatSession, Exclude<ResumeCause, 'copy'>>();

	private readonly _onDidChangeCurrent = this._register(new Emitter<ChatSession>());
	readonly onDidChangeCurrent: Event<ChatSession> = this._onDidChangeCurrent.event;
	private readonly _onDidDelete = this._register(new Emitter<string>());
	/** A chat was deleted (its id): what still runs for it in this window should end. */
	readonly onDidDelete: Event<string> = this._onDidDelete.event;

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
	list(): SessionSummary[] {
		const current = this._current;
		const stored = this.library.list();
		const titles = new Map(stored.map((summary) => [summary.id, summary.id === current.id ? current.title : (summary.title ?? UNTITLED)]));
		const listed: SessionSummary[] = stored.map((summary) => ({
			id: summary.id,
			title: titles.get(summary.id) ?? UNTITLED,
			at: summary.updatedAt,
			current: summary.id === current.id,
			...(summary.forkOf ? { forkOf: { id: summary.forkOf.id, title: titles.get(summary.forkOf.id) ?? summary.forkOf.title } } : {}),
		}));
		if (!current.isEmpty && !listed.some((summary) => summary.current)) {
			listed.unshift({ id: current.id, title: current.title, at: this.env.clock.now(), current: true });
		}
		return listed;
	}

	/**
	 * Reopens a stored session and makes it current. `cause` says why, for the session.resume
	 * reminder: `restart` when a new window reopens the chat that was current (a reload, a
	 * restart), `chat-list` when the person picked it. A session another window holds opens
	 * read-only.
	 */
	open(id: string, cause: Exclude<ResumeCause, 'copy'> = 'chat-list'): ChatSession {
		if (this._current.id === id) {
			return this._current;
		}
		const opened = this.library.open(id);
		if (opened.heldElsewhere !== undefined) {
			this.env.log.info(`Aside: session ${id} is open in another window (${opened.heldElsewhere}); it is shown read-only here.`);
		}
		this.replace(this.reopened(id, opened, cause));
		return this._current;
	}

	/**
	 * Deletes a chat from the library; the current one is replaced by a new chat first (which
	 * closes it, letting go of its lock). Returns why it was not deleted, or undefined: a chat
	 * another window holds stays, and so does the current one then.
	 */
	delete(id: string): string | undefined {
		const current = this._current;
		if (current.id === id) {
			if (current.isReadOnly) {
				return 'It is open in another window; close it there first.';
			}
			if (current.isEmpty) {
				// Never stored: nothing to delete.
				return undefined;
			}
			this.replace(this.create());
		}
		const refused = this.library.remove(id);
		if (refused === undefined) {
			this.env.log.info(`Aside: deleted chat ${id}.`);
			this._onDidDelete.fire(id);
		}
		return refused;
	}

	/**
	 * The current session, ready for a new message. A read-only one (another window writes it)
	 * is opened again if that window has let go of it meanwhile, and otherwise continued in a
	 * copy: a new session that starts with the records shown, current from then on. When even
	 * the copy cannot be made, the read-only session is returned and its store says why.
	 */
	forWriting(): ChatSession {
		const current = this._current;
		if (!current.isReadOnly) {
			return current;
		}
		try {
			const cause = this.causes.get(current) ?? 'chat-list';
			const opened = this.library.openForWriting(current.id);
			this.replace(opened ? this.reopened(current.id, opened, cause) : this.copyOf(current));
		} catch (error) {
			this.env.log.error(`Aside: could not continue session ${current.id} in a copy: ${errorMessage(error)}`);
		}
		return this._current;
	}

	/** The session built from what the library opened, with its session.resume reminder queued. */
	private reopened(id: string, opened: OpenedSession, cause: Exclude<ResumeCause, 'copy'>): ChatSession {
		let session: ChatSession;
		try {
			session = new ChatSession(id, opened.store, this.env, opened.records, opened.heldElsewhere === undefined ? undefined : { kind: 'read-only' });
		} catch (error) {
			opened.store.close();
			throw error;
		}
		this.causes.set(session, cause);
		this.queueResume(session, cause);
		return session;
	}

	/** A new session that starts with the records of `source` (a chat another window writes). */
	private copyOf(source: ChatSession): ChatSession {
		const session = this.startWith([...source.allRecords, this.titled(copyTitle(source.title), source)], { kind: 'copy', of: source.title });
		this.queueResume(session, 'copy');
		this.env.log.info(`Aside: session ${source.id} is open in another window; the new message continues it in a copy, session ${session.id}.`);
		return session;
	}

	/**
	 * The records of a fork of the current chat from its root user message `from`: its
	 * `fork` record, then the records up to and including that message's turn, then its title.
	 * `running`: the root turn running now (refused). Throws ForkRefused. Writes nothing.
	 */
	forkRecords(from: string, running: string | undefined, worktree?: ForkRecord['worktree']): { readonly records: TranscriptEntry[]; readonly prefix: ForkPrefix; readonly record: ForkRecord } {
		const source = this._current;
		const prefix = forkPrefix(source.allRecords, from, running);
		const record: ForkRecord = { kind: 'fork', id: this.env.ids.next(), at: this.env.clock.now(), source: { id: source.id, title: source.title }, from, ...(worktree ? { worktree } : {}) };
		return { records: [record, ...prefix.records, this.titled(forkTitle(source.title), source)], prefix, record };
	}

	/** Forks the current chat from its root user message `from` (see forkRecords) and makes the fork current; the source stays as it was. */
	fork(from: string, running: string | undefined): MadeFork {
		const { records, prefix, record } = this.forkRecords(from, running);
		const session = this.adopt(records);
		this.env.log.info(`Aside: forked session ${record.source.id} from message ${from} into session ${session.id} (${plural(prefix.turnIds.size, 'turn')}).`);
		return { session, prefix, record };
	}

	/** A new session that starts with `records` (a fork, or one handed over from another window), made current. */
	adopt(records: readonly TranscriptEntry[]): ChatSession {
		const session = this.startWith(records, undefined);
		this.replace(session);
		return session;
	}

	private titled(title: string, source: ChatSession): TranscriptEntry {
		return { kind: 'meta', at: this.env.clock.now(), title, ...(source.mode === undefined ? {} : { mode: source.mode }) };
	}

	/** A new stored session whose transcript starts with `records`. */
	private startWith(records: readonly TranscriptEntry[], access: SessionAccess | undefined): ChatSession {
		const id = this.env.ids.next();
		const store = this.library.create(id);
		try {
			for (const record of records) {
				store.append(record);
			}
		} catch (error) {
			store.close();
			throw error;
		}
		return new ChatSession(id, store, this.env, records, access);
	}

	private queueResume(session: ChatSession, cause: ResumeCause): void {
		if (session.records.some((record) => record.kind === 'user')) {
			// Say what happened; and, when its last turn was cut off, what may be partial (the warning a Stop queued went with the window).
			session.reminders.enqueuePending(sessionResume({ cause, lastActivity: lastActivityAt(session.records) ?? this.env.clock.now() }));
			const recovery = recoveryAfter(session.records, 'reopened');
			if (recovery) {
				session.reminders.enqueuePending(recovery);
			}
			// A restore is durable; its notice was not, until a request carried it.
			const rewind = rewindAfterReopen(session.records);
			if (rewind) {
				session.reminders.enqueuePending(rewind);
			}
		}
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
