// A chat session: its transcript records (written through a store before anything else sees
// them), its title, whether it may be written here, and its reminder engine. The sessions of a
// window are in sessions.ts; what the chat shows of one (rows, context use) is projected in
// src/view/sessionView.ts.
import type { Clock, IdSource } from '../base/clock';
import { errorMessage } from '../base/errors';
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { ReminderConfig } from '../reminders/config';
import type { ReminderDefinition } from '../reminders/definition';
import { ReminderEngine } from '../reminders/engine';
import type { KeyRegistry } from '../reminders/keys';
import type { InjectionRecord } from '../reminders/record';
import { type AgentRecord, traitsOf, type TranscriptEntry } from '../transcript/records';
import type { ForkRecord } from '../transcript/historyMarkers';
import type { SessionMeta } from '../transcript/sessionRecords';
import { selectedRecords } from '../transcript/replay';
import { SESSION_FORK } from '../reminders/builtin/catalog';
import { sessionFork } from '../reminders/builtin/sessionFork';
import { copiedCount, forkOf } from './forkHistory';
import type { PermissionMode } from '../vocabulary/permissionModes';
import { titleFromText, UNTITLED } from './chatTitle';
import { pendingMeta, restorePending, type SavedPending } from './durablePending';
import { restoreRoster } from './reopenedRoster';
import type { SessionStore } from './sessionStorage';
import type { TurnTranscript } from './turnScope';

/** Why a chat is not an ordinary one here: another window writes it, or it continues such a chat. */
export type SessionAccess = { readonly kind: 'read-only' } | { readonly kind: 'copy'; /** The title of the chat it copies. */ readonly of: string };

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

/**
 * The child invocation whose conversation a record belongs to (its owner path), or undefined for
 * the root's: a child's own records carry `agent`, its injection records name it as owner. A
 * chat-wide kind (its traits' scope, src/transcript/recordKinds.ts) is the root's.
 */
export function conversationOf(record: AgentRecord): string | undefined {
	switch (record.kind) {
		case 'injected-reminders':
			return record.owner.kind === 'agent' ? record.owner.id : undefined;
		default:
			return traitsOf(record.kind).scope === 'chat' || !('agent' in record) ? undefined : record.agent;
	}
}

export class ChatSession extends Disposable implements TurnTranscript {
	/** The root's conversation (what the root's replay, plans and observers read). */
	private readonly _records: AgentRecord[] = [];
	/** Every record, children's included, in order (what the view shows and a copy takes). */
	private readonly _all: AgentRecord[] = [];
	/** Each child invocation's own conversation, by owner path. */
	private readonly children = new Map<string, AgentRecord[]>();
	private _title = UNTITLED;
	private _mode: PermissionMode | undefined;
	/** The durable pending reminders the latest meta kept, as loaded. */
	private savedPending: SavedPending | undefined;
	/** A mode chosen before the first record: written with it, so an unused chat stays unstored. */
	private modeUnrecorded = false;
	readonly reminders: ReminderEngine;

	private readonly _onDidAppend = this._register(new Emitter<AgentRecord>());
	/** A record was appended (and stored), in order: the root's and every child's. */
	readonly onDidAppend: Event<AgentRecord> = this._onDidAppend.event;

	private readonly _onDidChangeTitle = this._register(new Emitter<string>());
	readonly onDidChangeTitle: Event<string> = this._onDidChangeTitle.event;

	constructor(
		readonly id: string,
		private readonly sessionStore: SessionStore,
		private readonly env: SessionEnvironment,
		loaded: readonly TranscriptEntry[] = [],
		/** Read-only (another window writes it), or a copy of such a chat; absent for an ordinary one. */
		readonly access?: SessionAccess,
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
		// What reopened history still holds counts as delivered; nothing else does. An observation
		// counts only while the history requests are built from (after the compaction point) holds it.
		const injections = (records: readonly AgentRecord[]): InjectionRecord[] => records.filter((record): record is InjectionRecord => record.kind === 'injected-reminders');
		restoreRoster(this.reminders.roster, this._records);
		this.reminders.roster.reconcileObservations(injections(this.selectedRecords));
		this.installFork(injections(this._records));
		restorePending(this.reminders, this.savedPending, this._records);
		this._register(this.reminders.pending.onDidChangeDurable((entries) => {
			this.keep(pendingMeta(entries, env.clock.now()), 'its pending reminders');
		}));
	}

	/**
	 * A fork's `session.fork`, from its own `fork` record (its first). Its deliveries count from the
	 * fork's own requests only: a copied history may hold its source's session.fork (a fork of a
	 * fork), which says nothing of this one.
	 */
	private installFork(injections: readonly InjectionRecord[]): void {
		const fork = forkOf(this._all);
		const { roster } = this.reminders;
		if (fork === undefined || roster.has(SESSION_FORK.type)) {
			return;
		}
		roster.register(sessionFork(fork));
		// The fork's own records follow the ones it copied (its first record aside).
		const own = new Set(this._all.slice(1 + copiedCount(this._all.slice(1), fork.from)));
		for (const record of injections) {
			if (record.owner.kind === 'root' && own.has(record)) {
				for (const entry of record.entries) {
					if (entry.type === SESSION_FORK.type) {
						roster.restoreDelivery(entry.type, record.turn, entry.body);
					}
				}
			}
		}
	}

	/** Where this chat was forked from (its first record), if it is a fork. */
	get fork(): ForkRecord | undefined {
		return forkOf(this._all);
	}

	get title(): string {
		return this._title;
	}

	/** The root's conversation: no child invocation's records (see `allRecords`, `agentTranscript`). */
	get records(): readonly AgentRecord[] {
		return this._records;
	}

	/** The root conversation as its next request replays it: after the latest compaction, its kept tail and what followed; else every record. */
	get selectedRecords(): readonly AgentRecord[] {
		return selectedRecords(this._records).records;
	}

	/** Every record of the chat in order, the children's conversations included. */
	get allRecords(): readonly AgentRecord[] {
		return this._all;
	}

	/** The conversation of the child invocation `path` (empty before it started). */
	agentRecords(path: string): readonly AgentRecord[] {
		return this.children.get(path) ?? [];
	}

	/** The child invocation `path`'s transcript: its records, and appends that carry `agent: path`. */
	agentTranscript(path: string): TurnTranscript {
		const records = (): readonly AgentRecord[] => this.agentRecords(path);
		const append = (record: AgentRecord): void => {
			// An injection names its owner; a chat-wide record is nobody's conversation.
			this.append(record.kind === 'injected-reminders' || traitsOf(record.kind).scope === 'chat' ? record : ({ ...record, agent: path } as AgentRecord));
		};
		return {
			get records() {
				return records();
			},
			append,
		};
	}

	get isEmpty(): boolean {
		return this._all.length === 0;
	}

	/** Another window writes this session: here it is shown, and nothing is appended. */
	get isReadOnly(): boolean {
		return this.access?.kind === 'read-only';
	}

	/** Writes the record through the store first; only a stored record is shown and replayed. */
	append(record: AgentRecord): void {
		if (this.modeUnrecorded && this._mode !== undefined) {
			this.sessionStore.append({ kind: 'meta', at: this.env.clock.now(), mode: this._mode });
			this.modeUnrecorded = false;
		}
		this.sessionStore.append(record);
		const wasUntitled = this._title === UNTITLED && !this._records.some((r) => r.kind === 'user');
		this.take(record);
		this._onDidAppend.fire(record);
		if (wasUntitled && record.kind === 'user' && record.agent === undefined) {
			this.retitle(titleFromText(record.text));
		}
	}

	/** The chat's own permission mode (the toolbar's choice), or undefined while it follows aside.permissions.mode. */
	get mode(): PermissionMode | undefined {
		return this._mode;
	}

	/**
	 * Sets the chat's permission mode and records it, so a reopened chat keeps it (a chat with
	 * nothing in it yet records it with its first message). A read-only chat keeps it in memory
	 * (its copy takes it); a record that cannot be written is logged, and the choice holds here.
	 */
	setMode(mode: PermissionMode): void {
		if (mode === this._mode) {
			return;
		}
		this._mode = mode;
		this.modeUnrecorded = this.isEmpty;
		if (this.isReadOnly || this.modeUnrecorded) {
			return;
		}
		this.keep({ kind: 'meta', at: this.env.clock.now(), mode }, 'the permission mode');
	}

	/** Sets the title and records it, so a reopened session keeps it. */
	retitle(title: string): void {
		if (title === this._title) {
			return;
		}
		this._title = title;
		this.keep({ kind: 'meta', at: this.env.clock.now(), title }, 'the title');
		this._onDidChangeTitle.fire(title);
	}

	/** Records a meta; one that cannot be written is logged, and what it says holds here. */
	private keep(meta: SessionMeta, what: string): void {
		try {
			this.sessionStore.append(meta);
		} catch (error) {
			this.env.log.warn(`Aside: could not record ${what} of session ${this.id}: ${errorMessage(error)}`);
		}
	}

	private take(record: TranscriptEntry): void {
		if (record.kind === 'meta') {
			if (record.title !== undefined) {
				this._title = record.title;
			}
			if (record.mode !== undefined) {
				this._mode = record.mode;
			}
			if (record.pending !== undefined) {
				this.savedPending = { items: record.pending, from: this._records.length };
			}
			return;
		}
		this._all.push(record);
		const child = conversationOf(record);
		if (child === undefined) {
			this._records.push(record);
			return;
		}
		let conversation = this.children.get(child);
		if (!conversation) {
			conversation = [];
			this.children.set(child, conversation);
		}
		conversation.push(record);
	}

	/** Closed: another chat was opened in its place; nothing more can be written to it here. */
	get closed(): boolean {
		return this.store.isDisposed;
	}

	override dispose(): void {
		super.dispose();
		this.sessionStore.close();
	}
}
