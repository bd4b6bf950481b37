// Transcript records → the rows the chat view shows, decided here and only here: which records
// become items (ItemProjector), which items are shown (isShown) and where each row goes
// (RowOrder). Pure and incremental: one of each per session sees every record once, in order
// (a tool result needs the input of its call). The webview renders every row it is sent.
import { findProposal } from '../agent/proposal';
import type { AssistantItem, TranscriptItem } from '../protocol/messages';
import type { ToolDetail } from '../tools/tool';
import type { AgentRecord } from '../transcript/records';

/** Past these, the view gets a cut copy (the transcript and the model keep everything). */
const MAX_INPUT_CHARS = 20_000;
const MAX_RESULT_CHARS = 50_000;

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

export class ItemProjector {
	private readonly inputs = new Map<string, unknown>();

	project(record: AgentRecord): TranscriptItem | undefined {
		switch (record.kind) {
			case 'user':
				return { kind: 'user', id: record.id, text: record.text, at: record.at };
			case 'assistant':
				for (const call of record.toolCalls) {
					this.inputs.set(call.id, call.input);
				}
				if (record.text === '' && record.toolCalls.length > 0 && record.stop === 'tool-use') {
					// Only tool calls: their rows say it all.
					return undefined;
				}
				return { kind: 'assistant', id: record.id, at: record.at, text: record.text, stop: record.stop, ...(record.model ? { model: record.model } : {}), ...proposalOf(record.id, record.text) };
			case 'tool-result': {
				const diff = diffOf(record.detail);
				return {
					kind: 'tool',
					id: record.id,
					at: record.at,
					callId: record.callId,
					name: record.name,
					input: cut(prettyInput(this.inputs.get(record.callId)), MAX_INPUT_CHARS),
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
				return { kind: 'turn-end', id: `end-${record.turnId}`, at: record.at, outcome: record.outcome, ...(record.error ? { error: record.error } : {}) };
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
			case 'tasks':
				return undefined;
		}
	}
}

/** An answer that proposes a plan gets its parts as structure (the proposal's id is the answer's). */
function proposalOf(id: string, text: string): Pick<AssistantItem, 'proposal'> {
	const parts = findProposal(text);
	return parts ? { proposal: { id, ...parts } } : {};
}

/** The items of these records, in record order (what the test hooks report). */
export function itemsOf(records: readonly AgentRecord[]): TranscriptItem[] {
	const projector = new ItemProjector();
	return records.flatMap((record) => projector.project(record) ?? []);
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

/**
 * The shown rows in display order. Read top to bottom, what was injected before the model saw a
 * message comes first: the host records the user's message, then (once the request is accepted)
 * the turn-start reminders, and those go above the message. Mid-turn ones stay where delivered.
 */
export class RowOrder {
	private readonly shown: TranscriptItem[] = [];
	/** The last row is a user message that nothing has followed yet. */
	private userIsLast = false;

	get rows(): readonly TranscriptItem[] {
		return this.shown;
	}

	/** Takes the next item in record order: where its row goes, or undefined when it is not shown. */
	place(item: TranscriptItem): RowPlacement | undefined {
		if (!isShown(item)) {
			this.userIsLast = false;
			return undefined;
		}
		const last = this.shown.at(-1);
		if (item.kind === 'reminders' && item.phase === 'turn-start' && this.userIsLast && last) {
			this.shown.splice(this.shown.length - 1, 0, item);
			return { row: item, before: last.id };
		}
		this.shown.push(item);
		this.userIsLast = item.kind === 'user';
		return { row: item };
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
