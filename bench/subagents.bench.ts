// sub-agent overhead: what Aside adds before a child's first request leaves (its number from the
// chat's records, its roster cloned, its agent-start and user records written to a real JSONL
// transcript, its history replayed, WAIT), as the turn case measures for the root; and the root's
// own WAIT while four children are live, against none. Tasks are not in this case (their rows are
// the tasks slice's).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatSession } from '../src/agent/session';
import type { AgentPorts } from '../src/agent/ports';
import { rootAgents } from '../src/agent/subagents/childAgents';
import type { AgentProfiles } from '../src/agent/subagents/profile';
import { registryToolBox } from '../src/agent/toolBox';
import type { TurnScope } from '../src/agent/turn';
import { systemClock } from '../src/base/clock';
import { Emitter } from '../src/base/event';
import type { Logger } from '../src/base/log';
import { BUILTIN_PROFILES } from '../src/agent/subagents/builtinProfiles';
import { builtinReminders } from '../src/reminders/builtin/defaults';
import { NOTHING_OBSERVED } from '../src/reminders/builtin/editsVerify';
import { DEFAULT_REMINDER_CONFIG } from '../src/reminders/config';
import type { WaitFacts } from '../src/reminders/definition';
import { directDispatch } from '../src/testing/agentPorts';
import { SequentialIds } from '../src/testing/fakeClock';
import { ScriptedProvider } from '../src/testing/scriptedProvider';
import { assistantCalls, toolResult, userText } from '../src/testing/history';
import { BUILTIN_TOOLS } from '../src/tools/registry';
import { TRANSCRIPT_VERSION, type TranscriptEntry } from '../src/transcript/records';
import { TranscriptStore } from '../src/transcript/store';
import { type BenchRow, consume, heapUsedAfterGc, measure, report, round } from './harness';

const SIZES = [0, 1_000, 10_000];
const ITERATIONS = 200;
const WARMUP = 100;
const WAIT_LOOP = { warmup: 2_000, iterations: 20_000 };

const silent: Logger = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

const profiles: AgentProfiles = {
	current: () => [{ name: 'explore', description: 'Reads and searches.', tools: { kind: 'read-only' }, reminders: [], canSpawn: false, prompt: 'You explore the code and report what you found.', source: { kind: 'builtin' } }],
	problems: () => [],
	onDidChange: new Emitter<void>().event,
};

/** The root's records of a coding session: a message, three Reads with results of a few KB, an answer. */
function history(count: number): TranscriptEntry[] {
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
		records.push({ kind: 'turn-end', turnId, at: turn, outcome: 'done' });
	}
	return records.slice(0, count);
}

function sessionOf(dir: string, id: string, records: TranscriptEntry[]): { session: ChatSession; store: TranscriptStore; ids: SequentialIds } {
	const store = TranscriptStore.create(dir, { kind: 'session', v: TRANSCRIPT_VERSION, id, createdAt: 0 });
	const ids = new SequentialIds(id);
	const session = new ChatSession(id, store, { clock: systemClock, ids, log: silent, reminderConfig: DEFAULT_REMINDER_CONFIG, reminderDefaults: () => builtinReminders(systemClock, () => [], NOTHING_OBSERVED, { current: () => BUILTIN_PROFILES }) }, records);
	return { session, store, ids };
}

async function childRequest(size: number, dir: string): Promise<BenchRow> {
	const { session, store, ids } = sessionOf(dir, `child-${size}`, history(size));
	const provider = new ScriptedProvider();
	let dispatched = 0n;
	provider.onRequest = () => {
		dispatched = process.hrtime.bigint();
		provider.requests.length = 0;
	};
	const model = { provider, model: 'bench' };
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
	const agents = rootAgents({ session, profiles, settings: () => ({ maxSteps: 30, maxConcurrent: 3, maxTurnsWarningAt: 0.8 }) }, ports, 'bench-turn');
	const samples: number[] = [];
	const heapBefore = heapUsedAfterGc();
	for (let index = 0; index < WARMUP + ITERATIONS; index++) {
		const call = { id: `agent-${index}`, name: 'Agent', input: { agent: 'explore', prompt: 'Find where the parser handles empty input and report the lines.', description: 'Find the parser' } };
		const start = process.hrtime.bigint();
		const result = await agents.run(call, { scope, turnId: 'bench-turn', model }, new AbortController().signal);
		consume(result.content.length);
		if (index >= WARMUP) {
			samples.push(Number(dispatched - start) / 1000);
		}
	}
	const heapDelta = heapUsedAfterGc() - heapBefore;
	store.close();
	samples.sort((a, b) => a - b);
	const at = (p: number): number => samples[Math.max(0, Math.ceil(p * samples.length) - 1)] ?? Number.NaN;
	return {
		name: `Agent call → child's first request, ${size.toLocaleString('en-US')} records in the chat`,
		iterations: ITERATIONS,
		median_us: round(at(0.5)),
		p99_us: round(at(0.99)),
		max_us: round(samples.at(-1) ?? Number.NaN),
		heap_delta_kb: round(heapDelta / 1024, 1),
	};
}

function rootWait(children: number, dir: string): BenchRow {
	const { session, store } = sessionOf(dir, `wait-${children}`, history(1_000));
	const engine = session.reminders;
	const owner = engine.beginUserTurn('bench-root');
	for (let index = 1; index <= children; index++) {
		const child = engine.spawnAgent(`root/explore#${index}`);
		child.beginSample();
		engine.queueTurnEvent(child.owner, { type: 'editedFiles', key: 'files.edited', body: `child ${index} saw a change` });
	}
	const messages = [userText('Fix the parser.'), assistantCalls('c1'), toolResult('c1')];
	const facts: WaitFacts = { step: 4, stepLimit: 50, mode: 'ask', context: { usedTokens: 82_000, limitTokens: 200_000 } };
	let n = 0;
	const stats = measure(() => engine.wait({ requestId: `r${++n}`, owner, phase: 'mid-turn', messages }, undefined, facts).request.messages.length, WAIT_LOOP);
	store.close();
	return { name: `root mid-turn WAIT, ${children} live children`, iterations: WAIT_LOOP.iterations, ...stats };
}

async function main(): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'aside-bench-subagents-'));
	try {
		const rows: BenchRow[] = [];
		for (const size of SIZES) {
			rows.push(await childRequest(size, dir));
		}
		rows.push(rootWait(0, dir), rootWait(4, dir));
		report({
			case: 'subagents',
			title: 'sub-agent overhead',
			target: "the root's WAIT with live children within the root's own WAIT target (median < 200 µs)",
			rows,
			notes: [
				"The first rows: from ChildAgents.run() to the provider being called for the child's first request — the owner path numbered from the chat's agent-start records (a pass over all records), the roster cloned with agent.max-turns, the agent-start and the child's user record written to a real JSONL transcript, the child's own (short) history replayed, WAIT — as the turn case measures the root. The provider is in-process and answers at once, so each child also records its answer and end: the chat grows by 5 records per call.",
				`${WARMUP} warm-up calls, then ${ITERATIONS} measured.`,
				"The last rows: the root's mid-turn WAIT (built-in reminders, a 3-message request) with no children and with four live ones, each with a turn event queued: the root's WAIT reads only its own roster and queue, so children cost it nothing.",
			],
		});
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

void main();
