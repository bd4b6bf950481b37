// Transcript records → the rows the chat view shows. Pure and incremental: one projector per
// session sees every record once, in order (a tool result needs the input of its call).
import type { TranscriptItem } from '../protocol/messages';
import type { ToolDetail } from '../tools/tool';
import type { AgentRecord } from '../agent/turn';

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
				return { kind: 'assistant', id: record.id, at: record.at, text: record.text, stop: record.stop, ...(record.model ? { model: record.model } : {}) };
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
		}
	}
}
