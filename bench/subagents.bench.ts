// sub-agent overhead: what Aside adds before a child's first request leaves (its number from the
// chat's records, its roster cloned, its agent-start and user records written to a real JSONL
// transcript, its history replayed, WAIT), as the turn case measures for the root; and the root's
// own WAIT while four children are live, against none. Tasks are not in this case (their rows are
// the tasks slice's).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootAgents } from '../src/agent/subagents/childAgents';
import type { AgentProfiles } from '../src/agent/subagents/profile';
import { Emitter } from '../src/base/event';
import type { WaitFacts } from '../src/reminders/definition';
import { assistantCalls, toolResult, userText } from '../src/testing/history';
import { benchChat, benchLoop, history, sampledRow } from './chat';
import { type BenchRow, consume, heapUsedAfterGc, measure, report } from './harness';

const SIZES = [0, 1_000, 10_000];
const ITERATIONS = 200;
const WARMUP = 100;
const WAIT_LOOP = { warmup: 2_000, iterations: 20_000 };

const profiles: AgentProfiles = {
	current: () => [{ name: 'explore', description: 'Reads and searches.', tools: { kind: 'read-only' }, reminders: [], canSpawn: false, prompt: 'You explore the code and report what you found.', source: { kind: 'builtin' } }],
	problems: () => [],
	onDidChange: new Emitter<void>().event,
};

async function childRequest(size: number, dir: string): Promise<BenchRow> {
	const chat = benchChat(dir, `child-${size}`, history(size));
	const { session, store } = chat;
	const { provider, ports, scope, dispatchedAt } = benchLoop(chat, dir);
	const model = { provider, model: 'bench' };
	const agents = rootAgents({ session, profiles, settings: () => ({ maxSteps: 30, maxConcurrent: 3, maxTurnsWarningAt: 0.8 }) }, ports, 'bench-turn');
	const samples: number[] = [];
	const heapBefore = heapUsedAfterGc();
	for (let index = 0; index < WARMUP + ITERATIONS; index++) {
		const call = { id: `agent-${index}`, name: 'Agent', input: { agent: 'explore', prompt: 'Find where the parser handles empty input and report the lines.', description: 'Find the parser' } };
		const start = process.hrtime.bigint();
		const result = await agents.run(call, { scope, turnId: 'bench-turn', model }, new AbortController().signal);
		consume(result.content.length);
		if (index >= WARMUP) {
			samples.push(Number(dispatchedAt() - start) / 1000);
		}
	}
	const heapDelta = heapUsedAfterGc() - heapBefore;
	store.close();
	return sampledRow(`Agent call → child's first request, ${size.toLocaleString('en-US')} records in the chat`, samples, heapDelta);
}

function rootWait(children: number, dir: string): BenchRow {
	const { session, store } = benchChat(dir, `wait-${children}`, history(1_000));
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
