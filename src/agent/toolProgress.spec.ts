// A running call's progress: fit for the live row (clamped, never going back, a bounded line of
// plain text), throttled per call, gone when the call ends, and never in its result — against the
// reference server's trigger-long-running-operation over stdio, through a real turn.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Emitter } from '../base/event';
import { launchOf } from '../mcp/launch';
import { sdkConnector } from '../mcp/sdkConnector';
import { readUserServers } from '../mcp/serverConfig';
import { McpServers } from '../mcp/servers';
import { FakeTimers } from '../testing/fakeTimers';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { turnHarness } from '../testing/turnHarness';
import type { TurnActivity } from './agentState';
import { RootStream } from './rootStream';
import { type CallProgress, CallProgressReporter, MAX_PROGRESS_MESSAGE, nextProgress, PROGRESS_INTERVAL_MS, progressMessage } from './toolProgress';
import type { TurnUpdate } from './turnScope';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const LONG = 'mcp__everything__trigger-long-running-operation';

function reporter() {
	const timers = new FakeTimers();
	const shown: (CallProgress | null)[] = [];
	const progress = new CallProgressReporter('c1', LONG, (update) => shown.push(update), timers);
	return { timers, shown, progress };
}

describe('a call\'s progress, for its row', () => {
	it('is the fraction done, clamped to 0–1, and never goes back', () => {
		const start: CallProgress = { callId: 'c1', tool: 'T' };
		assert.deepEqual(nextProgress(start, { progress: 1, total: 4 }), { callId: 'c1', tool: 'T', fraction: 0.25 });
		assert.equal(nextProgress(start, { progress: 9, total: 4 }).fraction, 1);
		assert.equal(nextProgress(start, { progress: -3, total: 4 }).fraction, 0);
		assert.equal(nextProgress({ ...start, fraction: 0.5 }, { progress: 1, total: 4 }).fraction, 0.5, 'a server that goes back is not believed');
	});

	it('is indeterminate without a usable total', () => {
		const start: CallProgress = { callId: 'c1', tool: 'T', fraction: 0.5 };
		for (const total of [undefined, 0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
			assert.equal(nextProgress(start, { progress: 3, ...(total === undefined ? {} : { total }) }).fraction, undefined, String(total));
		}
		assert.equal(nextProgress(start, { progress: Number.NaN, total: 4 }).fraction, undefined);
	});

	it("says the server's message as one bounded line of plain text", () => {
		assert.equal(progressMessage('  Copying\n\tfiles…\r\n '), 'Copying files…');
		assert.equal(progressMessage('a\u202eb\u0007c\u200bd'), 'a b c d', 'bidi, control and zero-width characters cannot reorder or hide the text');
		assert.equal(progressMessage(' \n '), undefined);
		assert.equal(progressMessage(undefined), undefined);
		assert.equal(progressMessage('x'.repeat(5000)), `${'x'.repeat(MAX_PROGRESS_MESSAGE - 1)}…`);
		assert.equal(nextProgress({ callId: 'c1', tool: 'T' }, { progress: 1, message: 'Step <b>1</b>' }).message, 'Step <b>1</b>', 'markup stays text: the row writes it as text');
	});
});

describe('a call\'s progress reporter', () => {
	it('shows the first update at once, then the latest at most once an interval', () => {
		const { timers, shown, progress } = reporter();
		progress.report({ progress: 1, total: 100 });
		assert.deepEqual(shown.map((update) => update?.fraction), [0.01]);
		for (let step = 2; step <= 50; step++) {
			progress.report({ progress: step, total: 100, message: `step ${step}` });
		}
		assert.equal(shown.length, 1, 'nothing more within the interval');
		timers.advance(PROGRESS_INTERVAL_MS);
		assert.deepEqual(shown.at(-1), { callId: 'c1', tool: LONG, fraction: 0.5, message: 'step 50' }, 'the latest, once');
		timers.advance(PROGRESS_INTERVAL_MS * 5);
		assert.equal(shown.length, 2, 'nothing new, nothing sent');
		progress.report({ progress: 60, total: 100 });
		assert.equal(shown.length, 3, 'after a quiet interval the next update goes at once');
	});

	it('a chatty server gets at most one update a call per interval through', () => {
		const { timers, shown, progress } = reporter();
		// 1,000 notifications over one second, one a millisecond.
		for (let step = 1; step <= 1000; step++) {
			progress.report({ progress: step, total: 1000 });
			timers.advance(1);
		}
		timers.advance(PROGRESS_INTERVAL_MS);
		assert.ok(shown.length <= 1000 / PROGRESS_INTERVAL_MS + 2, `${shown.length} updates`);
		assert.equal(shown.at(-1)?.fraction, 1, 'the last one still arrives');
	});

	it('ends: what waited is dropped, the bar goes, and later updates are ignored', () => {
		const { timers, shown, progress } = reporter();
		progress.report({ progress: 1 });
		progress.report({ progress: 2 });
		progress.end();
		assert.deepEqual(shown, [{ callId: 'c1', tool: LONG }, null]);
		progress.report({ progress: 3 });
		timers.advance(PROGRESS_INTERVAL_MS * 3);
		progress.end();
		assert.equal(shown.length, 2);
		assert.equal(timers.pending, 0);
	});

	it('a call that said nothing of its progress ends without a word', () => {
		const { shown, progress } = reporter();
		progress.end();
		assert.deepEqual(shown, []);
	});
});

describe('progress of an MCP call in a turn (server-everything over stdio)', () => {
	const changed = new Emitter<void>();
	const servers = new McpServers({
		source: { read: () => readUserServers({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }), onDidChange: changed.event },
		connector: sdkConnector,
		launch: (config) => launchOf(config, { env: process.env, workspaceFolder: process.cwd(), readFile: () => Promise.reject(new Error('no env files here')) }),
		startupTimeoutMs: () => 20_000,
		requestTimeoutMs: () => 20_000,
		approve: () => Promise.resolve(true),
		output: () => ({ stderr: () => undefined, log: () => undefined }),
	});
	after(() => {
		servers.dispose();
	});

	async function runLong(input: { duration: number; steps: number }) {
		await servers.ready(new AbortController().signal);
		const tool = servers.tools().find((candidate) => candidate.name === LONG);
		assert.ok(tool, `${LONG} is offered`);
		const updates: Extract<TurnUpdate, { type: 'tool-progress' }>[] = [];
		// The root's live state, as the agent keeps it from the turn's updates.
		const running: { activity: TurnActivity } = { activity: { kind: 'preparing' } };
		const live: (readonly CallProgress[])[] = [];
		const stream = new RootStream({ resolved: () => undefined, stream: () => undefined, changed: () => live.push(stream.live.toolProgress) });
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: LONG, input }] }, { text: 'Done.' });
		const { session, turn } = turnHarness(provider, {
			mode: 'full-access',
			tools: [tool],
			onUpdate: (update) => {
				if (update.type === 'tool-progress') {
					updates.push(update);
				}
				stream.update(running, update);
			},
		});
		await turn().run('Run the long operation.', new AbortController().signal);
		return { updates, live, stream, session, provider };
	}

	it("the server's progress notifications reach the call's live state, and none its result", async () => {
		const { updates, live, stream, session, provider } = await runLong({ duration: 1, steps: 5 });
		const shown = updates.filter((update) => update.progress !== null);
		assert.ok(shown.length >= 2, `progress arrived: ${JSON.stringify(updates)}`);
		assert.ok(updates.every((update) => update.callId === 'c1'), 'for the call that runs');
		const fractions = shown.map((update) => update.progress?.fraction ?? -1);
		assert.deepEqual(fractions, [...fractions].sort((a, b) => a - b), 'never going back');
		assert.ok(fractions.every((fraction) => fraction > 0 && fraction <= 1), `determinate: the server gives a total (${fractions.join(', ')})`);
		assert.equal(updates.at(-1)?.progress, null, 'the bar goes when the call ends');
		assert.ok(live.some((calls) => calls.some((call) => call.callId === 'c1' && call.tool === LONG)), 'the agent state showed the call');
		assert.deepEqual(stream.live.toolProgress, [], 'and shows nothing once it ended');
		const result = session.records.find((record) => record.kind === 'tool-result');
		assert.ok(result?.kind === 'tool-result');
		assert.equal(result.content, 'Long running operation completed. Duration: 1 seconds, Steps: 5.');
		assert.doesNotMatch(JSON.stringify(session.records), /"fraction"|tool-progress|progressToken/, 'nothing of it is recorded');
		const sent = provider.requests[1]?.messages.at(-1);
		assert.deepEqual(sent, { role: 'tool', callId: 'c1', content: result.content, isError: false }, 'the model reads the result alone');
	});

	it('a server that reports often is throttled to the view', async () => {
		const { updates } = await runLong({ duration: 1, steps: 50 });
		const shown = updates.filter((update) => update.progress !== null);
		assert.ok(shown.length >= 2, `progress arrived: ${shown.length}`);
		assert.ok(shown.length < 50, `fewer updates (${shown.length}) than the server's 50 notifications`);
	});
});
