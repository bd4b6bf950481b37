// Transcript records → the rows the chat view shows, decided here and only here: which records
// become items (ItemProjector), which items are shown (isShown) and where each row goes
// (RowOrder, rowOrder.ts). Pure and incremental: one of each per session sees every record once, in order
// (a tool result needs the input of its call). The webview renders every row it is sent.
// A child agent's rows carry its owner path (`agent`) and follow its header row (childRows.ts).
import { findProposal } from '../agent/proposal';
import { conversationOf } from '../agent/session';
import type { AssistantItem, TranscriptItem } from '../protocol/messages';
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
