// `session.recovery`: work was cut off — the person stopped a turn while a tool call or an answer
// was running, or a chat was reopened whose last turn broke off (the host went away mid-turn, or
// a Stop's warning had not gone out yet) — so effects may be partial. Enqueued on the pending
// FIFO once per event, so it rides the root's next request; never when nothing was running.
import { sanitizeUntrusted } from '../envelope';
import { entryOf } from '../declaration';
import type { StagedEntry } from '../definition';
import type { AgentRecord } from '../../transcript/records';
import { builtinToolFacts } from '../../tools/toolFacts';
import { SESSION_RECOVERY } from './catalog/session';

/** A tool call that was running when the work was cut off: its name and what it was about. */
export interface CutCall {
	readonly name: string;
	/** The command, the file, the sub-agent: one line, from its input. */
	readonly target?: string;
}

export interface CutOff {
	/** `stopped`: the person stopped the turn here; `reopened`: the chat was reopened after its last turn broke off. */
	readonly cause: 'stopped' | 'reopened';
	readonly calls: readonly CutCall[];
	/** The model's answer was cut off while it streamed (its tool calls, if any, did not run). */
	readonly answerCut: boolean;
	/** What goes on running after a Stop, in the chat features' words (background processes). */
	readonly running?: readonly string[];
}

const MAX_TARGET_CHARS = 200;

/** One line naming what a call was about, from its input: a command, a path, a sub-agent. */
export function callTarget(input: unknown): string | undefined {
	if (typeof input !== 'object' || input === null) {
		return undefined;
	}
	const fields = input as Record<string, unknown>;
	for (const key of ['command', 'path', 'description', 'pattern']) {
		const value = fields[key];
		if (typeof value === 'string' && value.trim() !== '') {
			const line = value.replace(/\s+/g, ' ').trim();
			return line.length > MAX_TARGET_CHARS ? `${line.slice(0, MAX_TARGET_CHARS)}…` : line;
		}
	}
	return undefined;
}

/** The entry, or undefined when nothing was running (nothing can be partial). */
export function sessionRecovery(cut: CutOff): StagedEntry | undefined {
	if (cut.calls.length === 0 && !cut.answerCut) {
		return undefined;
	}
	const lines = [cut.cause === 'stopped' ? 'The user stopped the previous turn while work was still running.' : 'The previous turn was cut off before it finished (VS Code closed or reloaded while it ran, or it was stopped).'];
	if (cut.calls.length > 0) {
		lines.push('These tool calls were running and may have partial effects:');
		for (const call of cut.calls) {
			lines.push(`- ${call.name}${call.target === undefined ? '' : `: ${sanitizeUntrusted(call.target)}`}`);
		}
		if (cut.calls.some((call) => builtinToolFacts(call.name)?.leavesProcesses === true)) {
			lines.push('Processes a command started may still be running.');
		}
	}
	if (cut.answerCut) {
		lines.push('Your last answer was cut off while it streamed; tool calls it was making did not run.');
	}
	lines.push(...(cut.running ?? []));
	lines.push('Check the state of the files and processes involved before you continue; do not assume the cut-off work finished.');
	return {
		...entryOf(SESSION_RECOVERY),
		body: lines.join('\n'),
		reason: cut.cause === 'stopped' ? 'the user stopped the turn while work was running' : 'the chat was reopened after its last turn was cut off',
	};
}

/**
 * What the last turn left cut off, from its records: the calls the Stop caught running (their
 * results say `cutOff`), the calls with no result at all (the host went away mid-call), and
 * whether an answer was cut off while it streamed. Undefined when the chat has no turn or its last
 * turn ended on its own (done, failed, step limit).
 */
export function cutOffInRecords(records: readonly AgentRecord[], cause: CutOff['cause']): CutOff | undefined {
	let lastUser = -1;
	for (let index = records.length - 1; index >= 0; index--) {
		if (records[index]?.kind === 'user') {
			lastUser = index;
			break;
		}
	}
	if (lastUser < 0) {
		return undefined;
	}
	const turn = records.slice(lastUser);
	const { turnId } = records[lastUser] as { readonly turnId: string };
	const end = turn.find((record) => record.kind === 'turn-end' && record.turnId === turnId);
	if (end?.kind === 'turn-end' && end.outcome !== 'interrupted') {
		return undefined;
	}
	const results = new Map(turn.flatMap((record) => (record.kind === 'tool-result' ? [[record.callId, record] as const] : [])));
	const calls: CutCall[] = [];
	let answerCut = false;
	for (const record of turn) {
		if (record.kind !== 'assistant') {
			continue;
		}
		// Stopped before anything streamed, the answer had not started: nothing of it is cut.
		answerCut ||= record.stop === 'interrupted' && record.text !== '';
		for (const call of record.toolCalls) {
			const result = results.get(call.id);
			// A call whose answer was cut off never ran; one with a result ran to its end unless the Stop caught it.
			if (record.stop !== 'interrupted' && (result === undefined || result.cutOff === true)) {
				const target = callTarget(call.input);
				calls.push(target === undefined ? { name: call.name } : { name: call.name, target });
			}
		}
	}
	return { cause, calls, answerCut };
}

/** The warning for what the last turn of `records` left cut off, or undefined when nothing was running. */
export function recoveryAfter(records: readonly AgentRecord[], cause: CutOff['cause'], running: readonly string[] = []): StagedEntry | undefined {
	const cut = cutOffInRecords(records, cause);
	return cut && sessionRecovery(running.length > 0 ? { ...cut, running } : cut);
}
