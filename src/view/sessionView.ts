// What the chat shows of a session, kept beside it and fed from its records: the items (one per
// record that has something to say), the rows in display order, and the context use. The
// session itself (src/agent/session.ts) knows nothing of rows.
import type { ChatSession, SessionAccess } from '../agent/session';
import type { ChatSessions } from '../agent/sessions';
import { currentEvent, type HasCurrent, whileCurrent } from '../base/current';
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { AgentRecord } from '../transcript/records';
import type { ContextUseView, SessionAccessView, SessionView, TranscriptItem } from '../protocol/messages';
import { ContextUseTracker } from './contextUse';
import { ItemProjector } from './rows';
import { RowOrder } from './rowOrder';

/** The sentence above a chat that is not an ordinary one here. */
export function accessView(access: SessionAccess): SessionAccessView {
	switch (access.kind) {
		case 'read-only':
			return {
				kind: 'read-only',
				text: 'This chat is open in another VS Code window, so it is read-only here. Sending a message continues it in a copy, unless that window has closed it by then.',
			};
		case 'copy':
			return {
				kind: 'copy',
				text: `This chat is a copy of “${access.of}”, which is open in another VS Code window: what you send from now on is saved in this copy, and the original goes on in that window.`,
			};
	}
}

/** New rows: after the last row shown, or just before the row with the id `before`. */
export interface RowsPlaced {
	readonly rows: readonly TranscriptItem[];
	readonly before?: string;
}

export class SessionProjection extends Disposable {
	private readonly projector = new ItemProjector();
	private readonly order = new RowOrder();
	private readonly contextUse = new ContextUseTracker();
	private readonly _items: TranscriptItem[] = [];
	/** Where each child's header (and each user row) is in `_items`, to replace it as the child runs (as its chips settle). */
	private readonly updatableAt = new Map<string, number>();

	private readonly _onDidAppend = this._register(new Emitter<readonly TranscriptItem[]>());
	/** Items of new records, in record order, whether shown or not. */
	readonly onDidAppend: Event<readonly TranscriptItem[]> = this._onDidAppend.event;

	private readonly _onDidPlace = this._register(new Emitter<RowsPlaced>());
	/** Rows to show, and where: what the view connection sends. */
	readonly onDidPlace: Event<RowsPlaced> = this._onDidPlace.event;

	private readonly _onDidUpdate = this._register(new Emitter<readonly TranscriptItem[]>());
	/** Rows shown already, changed (a child's header: its steps, status, result; a user row's chips and hook context): what `items.updated` sends. */
	readonly onDidUpdate: Event<readonly TranscriptItem[]> = this._onDidUpdate.event;

	private readonly _onDidChangeContext = this._register(new Emitter<void>());
	/** A record changed the context use: a response reported usage, reminders were delivered. */
	readonly onDidChangeContext: Event<void> = this._onDidChangeContext.event;

	constructor(readonly session: ChatSession) {
		super();
		for (const record of session.allRecords) {
			this.contextUse.take(record);
			const { item } = this.take(record);
			if (item) {
				this.order.place(item);
			}
		}
		this._register(session.onDidAppend((record) => {
			const contextChanged = this.contextUse.take(record);
			const { item, updated } = this.take(record);
			if (updated.length > 0) {
				this._onDidUpdate.fire(updated);
			}
			if (item) {
				this._onDidAppend.fire([item]);
				const placed = this.order.place(item);
				if (placed) {
					this._onDidPlace.fire({ rows: [placed.row], ...(placed.before === undefined ? {} : { before: placed.before }) });
				}
			}
			if (contextChanged) {
				this._onDidChangeContext.fire();
			}
		}));
	}

	/** Projects one record: its item kept, the child headers it changed replaced where they are. */
	private take(record: AgentRecord): { readonly item: TranscriptItem | undefined; readonly updated: readonly TranscriptItem[] } {
		const { item, updated } = this.projector.project(record);
		for (const changed of updated) {
			const at = this.updatableAt.get(changed.id);
			if (at !== undefined) {
				this._items[at] = changed;
			}
			this.order.replace(changed);
		}
		if (item) {
			if (item.kind === 'agent' || item.kind === 'user' || item.kind === 'turn-end') {
				this.updatableAt.set(item.id, this._items.length);
			}
			this._items.push(item);
		}
		return { item, updated };
	}

	/** One per record that has something to say, in record order, shown or not. */
	get items(): readonly TranscriptItem[] {
		return this._items;
	}

	/** The rows to show, in display order. */
	get rows(): readonly TranscriptItem[] {
		return this.order.rows;
	}

	/**
	 * Context use of this session, against the model's window when known. With `ready` given (the
	 * agent is ready: a model answers, no turn runs), it also says whether Compact can run now:
	 * not in a chat another window writes, and only with something to compact (the tracker's part).
	 */
	contextView(limitTokens: number | undefined, facts: { readonly ready?: boolean; readonly autoCompactAt?: number } = {}): ContextUseView {
		const { ready, autoCompactAt } = facts;
		return this.contextUse.view(limitTokens, {
			...(autoCompactAt === undefined ? {} : { autoCompactAt }),
			...(ready === undefined ? {} : { mayCompact: ready && this.session.access?.kind !== 'read-only' }),
		});
	}

	toView(): SessionView {
		const { session } = this;
		return { id: session.id, title: session.title, items: [...this.order.rows], ...(session.access ? { access: accessView(session.access) } : {}) };
	}
}

/** The projection of whichever session of the window is current, made again when another becomes current. */
export class SessionProjections extends Disposable implements HasCurrent<SessionProjection> {
	// Set at once: whileCurrent wires the current session before it returns.
	private _current!: SessionProjection;

	private readonly _onDidChangeCurrent = this._register(new Emitter<SessionProjection>());
	/** Fired after the new projection is made, so a listener can snapshot it at once. */
	readonly onDidChangeCurrent: Event<SessionProjection> = this._onDidChangeCurrent.event;

	/** Items appended to whichever session is current. */
	readonly onDidAppend: Event<readonly TranscriptItem[]> = currentEvent(this, (projection) => projection.onDidAppend);

	constructor(sessions: ChatSessions) {
		super();
		// Disposed (with the projection it made last) when the projections are.
		this._register(whileCurrent(sessions, (session) => {
			const projection = new SessionProjection(session);
			this._current = projection;
			this._onDidChangeCurrent.fire(projection);
			return projection;
		}));
	}

	get current(): SessionProjection {
		return this._current;
	}
}
