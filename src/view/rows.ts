// Transcript records → the rows the chat view shows, decided here and only here: which records
// become items (ItemProjector), which items are shown (isShown) and where each row goes
// (RowOrder). Pure and incremental: one of each per session sees every record once, in order
// (a tool result needs the input of its call). The webview renders every row it is sent.
// A child agent's rows carry its owner path (`agent`) and follow its header row (childRows.ts).
import { findProposal } from '../agent/proposal';
import { conversationOf } from '../agent/session';
import { type AssistantItem, conversationOfItem, type TranscriptItem } from '../protocol/messages';
import type { ToolDetail } from '../tools/tool';
import { type AgentRecord, traitsOf } from '../transcript/records';
import { AgentHeaders } from './childRows';
import { RetryOffers } from './retryRows';
import { RestoreRows } from './restoreRows';
import { RolledBackRows } from './rolledBack';
import { UserRows } from './userRows';

/** Past these, the view gets a cut copy (the transcript and the model keep everything). */
const MAX_INPUT_CHARS = 20_000;
const MAX_RESULT_CHARS = 50_000;
/** What the restored row quotes of the message restored to. */
const MAX_RESTORED_MESSAGE_CHARS = 200;

function cut(text: string, max: number): string {
	if (text.length <= max) {
		return text;
	}
	return `${text.slice(0, max)}\n… ${(text.length - max).toLocaleString('en-US')} more characters (the model received all of them)`;
}

function prettyInput(input: unknown): string {
	if (input === undefined) {
		return 'undefined';
	}
	try {
		return JSON.stringify(input, null, 2);
	} catch {
		// Tool input comes from JSON, so this is a cycle or a BigInt from a misbehaving provider.
		return '(input that cannot be shown as JSON)';
	}
}

function diffOf(detail: unknown): string | undefined {
	const candidate = detail as ToolDetail | undefined;
	return candidate?.kind === 'diff' && typeof candidate.diff === 'string' ? candidate.diff : undefined;
}

/** What one record makes: its item, if it has something to say, and the rows shown already it changed (child headers, a user row's chips and hook context). */
export interface Projected {
	readonly item: TranscriptItem | undefined;
	readonly updated: readonly TranscriptItem[];
}

const cutResult = (text: string): string => cut(text, MAX_RESULT_CHARS);

export class ItemProjector {
	private readonly inputs = new Map<string, unknown>();
	private readonly headers = new AgentHeaders();
	private readonly users = new UserRows();
	private readonly retries = new RetryOffers();
	private readonly rolledBack = new RolledBackRows();
	private readonly restores = new RestoreRows();
	/** The start of each root message, for the restored row's words. */
	private readonly messages = new Map<string, string>();

	project(record: AgentRecord): Projected {
		const headers = this.headers.take(record, cutResult);
		if (record.kind === 'tool-result' && headers.length > 0) {
			// The parent's result of an Agent call: its row is the child's header, just updated.
			return this.rolledBack.take(record, { item: undefined, updated: headers });
		}
		const user = this.users.take(record);
		const withdrawn = this.retries.take(record);
		const restore = record.kind === 'restore' ? this.restores.take(record, this.messages.get(record.to) ?? '') : undefined;
		const updated = [...headers, ...(user ? [user] : []), ...(withdrawn ? [withdrawn] : []), ...(restore?.updated ?? [])];
		const item = restore?.item ?? this.item(record);
		const agent = conversationOf(record);
		return this.rolledBack.take(record, { item: item && agent !== undefined && item.kind !== 'plan-decision' && item.kind !== 'agent' && item.kind !== 'fork' ? { ...item, agent } : item, updated });
	}

	private item(record: AgentRecord): TranscriptItem | undefined {
		// A control or card shows it, or nothing does (its traits, src/transcript/recordKinds.ts).
		if (traitsOf(record.kind).row === 'none') {
			return undefined;
		}
		switch (record.kind) {
			case 'user':
				if (record.agent === undefined) {
					this.messages.set(record.id, record.text.slice(0, MAX_RESTORED_MESSAGE_CHARS));
				}
				return this.users.start(record);
			case 'assistant':
				for (const call of record.toolCalls) {
					this.inputs.set(callKey(record.agent, call.id), call.input);
				}
				if (record.text === '' && record.toolCalls.length > 0 && record.stop === 'tool-use') {
					// Only tool calls: their rows say it all.
					return undefined;
				}
				return { kind: 'assistant', id: record.id, at: record.at, text: record.text, stop: record.stop, ...(record.model ? { model: record.model } : {}), ...(record.agent === undefined ? proposalOf(record.id, record.text) : {}) };
			case 'tool-result': {
				const diff = diffOf(record.detail);
				return {
					kind: 'tool',
					id: record.id,
					at: record.at,
					callId: record.callId,
					name: record.name,
					input: cut(prettyInput(this.inputs.get(callKey(record.agent, record.callId))), MAX_INPUT_CHARS),
					result: cut(record.content ?? '', MAX_RESULT_CHARS),
					isError: record.isError,
					...(record.durationMs === undefined ? {} : { durationMs: record.durationMs }),
					...(record.verdict ? { verdict: record.verdict } : {}),
					...(diff === undefined ? {} : { diff }),
					notices: (record.notices ?? []).map(({ key, body }) => ({ key, body })),
				};
			}
			case 'injected-reminders':
				return {
					kind: 'reminders',
					id: `reminders-${record.requestId}`,
					at: record.at,
					phase: record.phase,
					entries: record.entries.map(({ type, key, label, body, reason }) => ({ type, key, label, body, reason })),
				};
			case 'turn-end':
				return this.retries.end(record, { kind: 'turn-end', id: `end-${record.turnId}`, at: record.at, outcome: record.outcome, ...(record.error ? { error: record.error } : {}) });
			case 'plan-decision':
				return {
					kind: 'plan-decision',
					id: record.id,
					at: record.at,
					decision: record.decision,
					...(record.mode ? { mode: record.mode } : {}),
					...(record.file === undefined ? {} : { file: record.file }),
					...(record.note === undefined ? {} : { note: record.note }),
				};
			case 'agent-start':
				return this.headers.start(record);
			case 'fork':
				return { kind: 'fork', id: record.id, at: record.at, source: { id: record.source.id, title: record.source.title }, ...(record.worktree ? { worktree: { ...record.worktree } } : {}) };
			case 'compaction':
				return {
					kind: 'compaction',
					id: record.id,
					at: record.at,
					cause: record.cause,
					tokensBefore: record.tokensBefore,
					tokensAfter: record.tokensAfter,
					summary: record.summary,
					...(record.instructions === undefined ? {} : { instructions: record.instructions }),
					...(record.agent === undefined ? {} : { agent: record.agent }),
				};
			default:
				// A kind with no row of its own here (a chat feature's record shows in its control).
				return undefined;
		}
	}
}

/** A call id is the model's, unique within one conversation only: the root's and each child's are apart. */
function callKey(agent: string | undefined, callId: string): string {
	return `${agent ?? ''}\u0000${callId}`;
}

/** An answer that proposes a plan gets its parts as structure (the proposal's id is the answer's). */
function proposalOf(id: string, text: string): Pick<AssistantItem, 'proposal'> {
	const parts = findProposal(text);
	return parts ? { proposal: { id, ...parts } } : {};
}

/** The items of these records, in record order, child headers as they are now (what the test hooks report). */
export function itemsOf(records: readonly AgentRecord[]): TranscriptItem[] {
	const projector = new ItemProjector();
	const items: TranscriptItem[] = [];
	const updatableAt = new Map<string, number>();
	for (const record of records) {
		const { item, updated } = projector.project(record);
		for (const changed of updated) {
			const at = updatableAt.get(changed.id);
			if (at !== undefined) {
				items[at] = changed;
			}
		}
		if (item) {
			if (item.kind === 'agent' || item.kind === 'user' || item.kind === 'turn-end' || item.kind === 'restore') {
				updatableAt.set(item.id, items.length);
			}
			items.push(item);
		}
	}
	return items;
}

// The endings an answer without text is shown for; with any other, it has nothing to show.
const MARKED_STOPS: Record<AssistantItem['stop'], boolean> = { interrupted: true, failed: true, 'max-tokens': true, refusal: true, end: false, 'tool-use': false, other: false };

/** Whether an item is shown: a response without text and nothing to flag, and a turn that simply finished, are not. */
export function isShown(item: TranscriptItem): boolean {
	switch (item.kind) {
		case 'assistant':
			return item.text !== '' || MARKED_STOPS[item.stop];
		case 'turn-end':
			return item.outcome !== 'done';
		default:
			return true;
	}
}

/** Where a row goes: after the last row, or just before the row with the id `before`. */
export interface RowPlacement {
	readonly row: TranscriptItem;
	readonly before?: string;
}

/** The rows of one conversation, the root's or a child's, in display order. */
interface Block {
	readonly entries: Entry[];
	/** Where its header is in its parent's block; absent for the root's. */
	readonly header?: { readonly parent: Block; readonly index: number };
	/** Its last row is a user message that nothing has followed yet. */
	userIsLast: boolean;
}

interface Entry {
	row: TranscriptItem;
	/** A child's header row: the child's own rows. */
	readonly child?: Block;
}

/**
 * The shown rows in display order. Read top to bottom, what was injected before the model saw a
 * message comes first: the host records the user's message, then (once the request is accepted)
 * the turn-start reminders, and those go above the message. Mid-turn ones stay where delivered.
 * A child's rows follow its header row, together, however its records interleave with others':
 * each conversation is a block, and a row goes at the end of its own block. A header never moves
 * in its parent's block (only a last user row does), so where a block ends is found in O(depth).
 */
export class RowOrder {
	private readonly root: Block = { entries: [], userIsLast: false };
	private readonly blocks = new Map<string, Block>();
	private readonly entries = new Map<string, Entry>();
	private flat: TranscriptItem[] | undefined = [];

	/** Every row in display order (made again after a change, on demand). */
	get rows(): readonly TranscriptItem[] {
		this.flat ??= this.flatten();
		return this.flat;
	}

	/** Takes the next item in record order: where its row goes, or undefined when it is not shown. */
	place(item: TranscriptItem): RowPlacement | undefined {
		// A child's row whose header never came (a damaged transcript) is shown at the root's level.
		const path = conversationOfItem(item);
		const block = (path === undefined ? undefined : this.blocks.get(path)) ?? this.root;
		if (!isShown(item)) {
			block.userIsLast = false;
			return undefined;
		}
		this.flat = undefined;
		const last = block.entries.at(-1);
		if (item.kind === 'reminders' && item.phase === 'turn-start' && block.userIsLast && last) {
			const entry: Entry = { row: item };
			block.entries.splice(block.entries.length - 1, 0, entry);
			this.entries.set(item.id, entry);
			return { row: item, before: last.row.id };
		}
		const entry: Entry = item.kind === 'agent' ? { row: item, child: { entries: [], header: { parent: block, index: block.entries.length }, userIsLast: false } } : { row: item };
		if (entry.child && item.kind === 'agent') {
			this.blocks.set(item.path, entry.child);
		}
		block.entries.push(entry);
		this.entries.set(item.id, entry);
		block.userIsLast = item.kind === 'user';
		const before = this.after(block);
		return before === undefined ? { row: item } : { row: item, before };
	}

	/** Replaces a row shown already (a child's header as it runs, a user row's chips); false when there is none of its id. */
	replace(item: TranscriptItem): boolean {
		const entry = this.entries.get(item.id);
		if (!entry) {
			return false;
		}
		entry.row = item;
		this.flat = undefined;
		return true;
	}

	/** The first row after this block's last: what a row added to its end goes before (undefined: the end). */
	private after(block: Block): string | undefined {
		for (let current = block; current.header; current = current.header.parent) {
			const next = current.header.parent.entries[current.header.index + 1];
			if (next) {
				return next.row.id;
			}
		}
		return undefined;
	}

	private flatten(): TranscriptItem[] {
		const rows: TranscriptItem[] = [];
		const visit = (block: Block): void => {
			for (const entry of block.entries) {
				rows.push(entry.row);
				if (entry.child) {
					visit(entry.child);
				}
			}
		};
		visit(this.root);
		return rows;
	}
}

/** The rows these items show, in display order (what a snapshot carries). */
export function displayRows(items: readonly TranscriptItem[]): TranscriptItem[] {
	const order = new RowOrder();
	for (const item of items) {
		order.place(item);
	}
	return [...order.rows];
}
