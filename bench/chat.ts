// What the turn and sub-agent benches share: a chat on a real JSONL transcript with the built-in
// reminders, a loop scope over it whose provider answers in-process (noting when each request
// was dispatched), and the timing of a sample loop as one row.
import type { AgentPorts } from '../src/agent/ports';
import { ChatSession } from '../src/agent/session';
import { BUILTIN_PROFILES } from '../src/agent/subagents/builtinProfiles';
import { registryToolBox } from '../src/agent/toolBox';
import type { TurnScope } from '../src/agent/turn';
import { systemClock } from '../src/base/clock';
import type { Logger } from '../src/base/log';
import { builtinReminders } from '../src/reminders/builtin/defaults';
import { NOTHING_OBSERVED } from '../src/reminders/builtin/editsVerify';
import { DEFAULT_REMINDER_CONFIG } from '../src/reminders/config';
import { directDispatch } from '../src/testing/agentPorts';
import { fixedEnvironment } from '../src/testing/environment';
import { SequentialIds } from '../src/testing/fakeClock';
import { ScriptedProvider } from '../src/testing/scriptedProvider';
import { BUILTIN_TOOLS } from '../src/tools/registry';
import { TRANSCRIPT_VERSION } from '../src/transcript/sessionRecords';
import type { TranscriptEntry } from '../src/transcript/records';
import { TranscriptStore } from '../src/transcript/store';
import { type BenchRow, round } from './harness';

export const silent: Logger = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

export interface BenchChat {
	readonly session: ChatSession;
	readonly store: TranscriptStore;
	readonly ids: SequentialIds;
}

/** A chat over `records` in a real transcript in `dir`, with the built-in reminders and profiles. */
export function benchChat(dir: string, id: string, records: TranscriptEntry[]): BenchChat {
	const store = TranscriptStore.create(dir, { kind: 'session', v: TRANSCRIPT_VERSION, id, createdAt: 0 });
	const ids = new SequentialIds(id);
	const reminderDefaults = () => builtinReminders(
		systemClock,
		() => ({ files: [] }),
		NOTHING_OBSERVED,
		{ current: () => BUILTIN_PROFILES },
		fixedEnvironment(),
	);
	const session = new ChatSession(id, store, { clock: systemClock, ids, log: silent, reminderConfig: DEFAULT_REMINDER_CONFIG, reminderDefaults }, records);
	return { session, store, ids };
}

export interface BenchLoop {
	readonly provider: ScriptedProvider;
	readonly ports: AgentPorts;
	readonly scope: TurnScope;
	/** When the last request reached the provider (process.hrtime.bigint()). */
	readonly dispatchedAt: () => bigint;
}

/** A root loop's ports and scope over the chat: the built-in tools in `dir`, an in-process provider, every call granted. */
export function benchLoop({ session, ids }: BenchChat, dir: string): BenchLoop {
	const provider = new ScriptedProvider();
	let dispatched = 0n;
	provider.onRequest = () => {
		dispatched = process.hrtime.bigint();
		// The fake keeps requests for tests; here that would hold every replayed history.
		provider.requests.length = 0;
	};
	const ports: AgentPorts = {
		tools: registryToolBox(() => BUILTIN_TOOLS, (signal) => ({ roots: [dir], signal }) as never),
		dispatch: directDispatch(provider, 'bench'),
		runtime: { clock: systemClock, ids, log: silent },
	};
	const scope: TurnScope = {
		engine: session.reminders,
		transcript: session,
		permissions: { ask: () => Promise.resolve({ granted: true }) },
		settings: () => ({ maxOutputTokens: 4096, maxSteps: 50, permissionMode: 'ask', contextWindow: 200_000 }),
		system: () => 'You are a benchmark.',
	};
	return { provider, ports, scope, dispatchedAt: () => dispatched };
}

/** One row from per-iteration samples in µs (sorted here), with the heap growth over the loop. */
export function sampledRow(name: string, samples: number[], heapDelta: number): BenchRow {
	samples.sort((a, b) => a - b);
	const at = (p: number): number => samples[Math.max(0, Math.ceil(p * samples.length) - 1)] ?? Number.NaN;
	return {
		name,
		iterations: samples.length,
		median_us: round(at(0.5)),
		p99_us: round(at(0.99)),
		max_us: round(samples.at(-1) ?? Number.NaN),
		heap_delta_kb: round(heapDelta / 1024, 1),
	};
}

/** A coding session's records: turns of a message, tool calls with results of a few KB, an answer. */
export function history(count: number): TranscriptEntry[] {
	const records: TranscriptEntry[] = [];
	const chunk = 'export function parse(input: string): Node { /* … */ }\n'.repeat(40);
	for (let turn = 0; records.length < count; turn++) {
		const turnId = `old-${turn}`;
		records.push({ kind: 'user', id: `u${turn}`, turnId, at: turn, text: `Please look at module ${turn} and fix the parser.` });
		for (let step = 0; step < 3 && records.length < count; step++) {
			const id = `c${turn}-${step}`;
			records.push({ kind: 'assistant', id: `a${id}`, turnId, requestId: `r${id}`, at: turn, text: 'Reading it.', toolCalls: [{ id, name: 'Read', input: { path: `src/m${turn}.ts` } }], stop: 'tool-use' });
			records.push({ kind: 'tool-result', id: `t${id}`, turnId, callId: id, name: 'Read', at: turn, content: chunk, isError: false });
		}
		records.push({ kind: 'assistant', id: `a${turn}`, turnId, requestId: `r${turn}`, at: turn, text: 'Fixed: the parser now handles empty input.', toolCalls: [], stop: 'end' });
		records.push({ kind: 'turn-end', turnId, at: turn, outcome: 'done' });
	}
	return records.slice(0, count);
}
