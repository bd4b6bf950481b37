// The background processes panel as the view connection sends it: the current chat's running
// processes in the snapshot and in `processes.changed` (at once on a start, an end or Stop; new
// output at most once per 500 ms, with the latest line), and Stop / Show terminal for the current
// chat's processes only. Real BackgroundProcesses (in a real ChatProcesses, opened by a real Agent)
// over a scripted launcher; a fake clock drives the throttle.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Agent } from '../../agent/agent';
import { Emitter } from '../../base/event';
import { type HostMessage, PROTOCOL_VERSION } from '../../protocol/messages';
import type { ProcessesView } from '../../protocol/processes';
import type { LaunchedProcess, LaunchExit, ProcessLauncher } from '../../terminal/launcher';
import { ChatProcessList, type ProcessHost } from '../../terminal/processHost';
import { scriptedModels, testPorts } from '../../testing/agentPorts';
import { FakeClock } from '../../testing/fakeClock';
import { FakeTimers } from '../../testing/fakeTimers';
import { RecordingLogger } from '../../testing/recordingLogger';
import { ScriptedProvider } from '../../testing/scriptedProvider';
import { testConnection } from '../../testing/viewConnection';
import { ChatProcesses } from './chatProcesses';
import { PROCESSES_STATE } from './feature';
import { OUTPUT_UPDATE_MS, ProcessesPresenter } from './processesPresenter';
import '../../testing/chatFeatures';

const START = Date.UTC(2026, 11, 7, 14, 2, 11);

/** A process the test drives: what it prints, when it ends; in a terminal of its own unless `terminalName` is undefined. */
class Scripted implements LaunchedProcess {
	readonly data = new Emitter<string>();
	readonly exit = new Emitter<LaunchExit>();
	readonly onData = this.data.event;
	readonly onExit = this.exit.event;
	interrupted = 0;
	shown = 0;
	readonly show: (() => void) | undefined;
	constructor(readonly terminalName: string | undefined) {
		// The child-process fallback has no terminal: then no `show` either.
		this.show = terminalName === undefined ? undefined : () => {
			this.shown++;
		};
	}
	interrupt(): void {
		// Like a dev server that takes a moment to shut down: the end comes when the test says.
		this.interrupted++;
	}
	kill(): void {
		this.exit.fire({ code: undefined, signal: 'SIGKILL' });
	}
}

function setup({ withHost = true } = {}) {
	const timers = new FakeTimers(new FakeClock(START));
	const launched: Scripted[] = [];
	/** Whether the next process gets a terminal (false: the child-process fallback). */
	let terminal = true;
	const launcher: ProcessLauncher = {
		start: (_command, options) => {
			const process = new Scripted(terminal ? options.name : undefined);
			launched.push(process);
			return Promise.resolve(process);
		},
	};
	const host: ProcessHost = {
		launcher,
		outputPath: (stem) => `/storage/processes/${stem}.log`,
		file: () => undefined,
		foreground: () => ({ run: () => Promise.reject(new Error('no foreground Run in this spec')), dispose: () => undefined }),
		chats: new ChatProcessList(),
	};
	const log = new RecordingLogger();
	let agent: Agent | undefined;
	const t = testConnection({
		features: (sessions) => {
			const models = scriptedModels(new ScriptedProvider());
			const settings = { current: { maxOutputTokens: 1000, maxSteps: 5, permissionMode: 'ask' as const }, onDidChange: new Emitter<unknown>().event };
			const created = new Agent({ features: [PROCESSES_STATE], sessions, models, settings, system: () => 'system', featureServices: withHost ? { processes: host } : {} }, testPorts(models, { runtime: { clock: timers.clock } }));
			agent = created;
			return [new ProcessesPresenter(sessions, (session) => created.features.stateOf(PROCESSES_STATE, session), log, timers)];
		},
	});
	const processesOf = (session = t.sessions.current) => {
		const state = agent?.features.stateOf(PROCESSES_STATE, session);
		return state instanceof ChatProcesses ? state.processes : assert.fail('this chat has no processes');
	};
	const start = async (command: string, { inTerminal = true } = {}) => {
		terminal = inTerminal;
		const process = await processesOf().start(command, '/ws', { kind: 'exit' });
		return { process, driven: launched.at(-1) ?? assert.fail('nothing launched') };
	};
	t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
	/** The panel as each `processes.changed` since `from` said it. */
	const changes = (from = 0): ProcessesView[] => t.posted.slice(from).flatMap((message: HostMessage) => (message.type === 'processes.changed' ? [message.processes] : []));
	const snapshot = (): ProcessesView | undefined => t.posted.flatMap((message) => (message.type === 'snapshot' ? [message.state.processes] : [])).at(-1);
	return { ...t, timers, log, start, changes, snapshot, processesOf };
}

const lines = (view: ProcessesView | undefined) => view?.rows.map((row) => `${row.id} ${row.command} | ${row.startedAt} | ${row.lastLine} | ${row.hasTerminal ? 'terminal' : 'child'}${row.stopping ? ' | stopping' : ''}`);

describe('the background processes panel (host side)', () => {
	it('lists the running processes with their command, since when and last line; a start and an end are sent at once, the ended one leaves', async () => {
		const t = setup();
		assert.deepEqual(t.snapshot(), { rows: [] }, 'nothing runs yet');
		const dev = await t.start('npm run dev');
		t.timers.advance(4_000);
		const tsc = await t.start('npx tsc --watch', { inTerminal: false });
		assert.deepEqual(lines(t.changes().at(-1)), ['p1 npm run dev | 14:02:11 UTC |  | terminal', 'p2 npx tsc --watch | 14:02:15 UTC |  | child']);
		dev.driven.data.fire('> vite\r\n\r\n  ➜  Local:   http://localhost:5173/\r\n');
		tsc.driven.data.fire('Found 0 errors. Watching for file changes.\r\n[14:02:20] File change detected. Starting incremental compil');
		t.timers.advance(OUTPUT_UPDATE_MS);
		assert.deepEqual(lines(t.changes().at(-1)), [
			'p1 npm run dev | 14:02:11 UTC |   ➜  Local:   http://localhost:5173/ | terminal',
			'p2 npx tsc --watch | 14:02:15 UTC | [14:02:20] File change detected. Starting incremental compil | child',
		], 'the last completed line, or the line being written now');
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'resync' });
		assert.deepEqual(t.snapshot(), t.changes().at(-1), 'a reconnect\'s snapshot says the same');
		const before = t.posted.length;
		tsc.driven.exit.fire({ code: 2 });
		assert.deepEqual(t.changes(before).map(lines), [['p1 npm run dev | 14:02:11 UTC |   ➜  Local:   http://localhost:5173/ | terminal']], 'an end is sent at once, without the ended one');
		dev.driven.exit.fire({ code: 0 });
		assert.deepEqual(t.changes().at(-1), { rows: [] }, 'nothing runs: the panel goes');
	});

	it('sends new output at most once per 500 ms, trailing, so the panel\'s last line is the latest', async () => {
		const t = setup();
		const { driven } = await t.start('npm run dev');
		const from = t.posted.length;
		for (let line = 1; line <= 5; line++) {
			driven.data.fire(`line ${line}\n`);
			t.timers.advance(90);
		}
		assert.deepEqual(t.changes(from), [], 'nothing yet: the first update waits out the 500 ms');
		t.timers.advance(OUTPUT_UPDATE_MS - 450);
		assert.deepEqual(t.changes(from).map((view) => view.rows[0]?.lastLine), ['line 5'], 'one update with the latest line');
		driven.data.fire('line 6\n');
		driven.data.fire('line 7\n');
		t.timers.advance(OUTPUT_UPDATE_MS - 1);
		assert.equal(t.changes(from).length, 1, 'at most one update per 500 ms');
		t.timers.advance(1);
		assert.deepEqual(t.changes(from).map((view) => view.rows[0]?.lastLine), ['line 5', 'line 7']);
		driven.data.fire('last words\n');
		driven.exit.fire({ code: 1 });
		assert.deepEqual(t.changes(from).slice(2), [{ rows: [] }], 'the end is sent at once');
		t.timers.advance(OUTPUT_UPDATE_MS * 2);
		assert.equal(t.changes(from).length, 3, 'and the pending output update is dropped with it');
		assert.equal(t.timers.pending, 0);
	});

	it('Stop interrupts the process, the row says stopping until it ended; Show terminal reveals its terminal', async () => {
		const t = setup();
		const dev = await t.start('npm run dev');
		const child = await t.start('node worker.js', { inTerminal: false });
		const from = t.posted.length;
		t.connection.receive({ type: 'processes.show', id: 'p1' });
		assert.equal(dev.driven.shown, 1, 'its terminal is shown');
		t.connection.receive({ type: 'processes.show', id: 'p2' });
		assert.match(t.log.at('info').join('\n'), /p2 runs without a terminal/);
		assert.deepEqual(t.changes(from), [], 'showing changes nothing in the panel');

		t.connection.receive({ type: 'processes.stop', id: 'p1' });
		assert.equal(dev.driven.interrupted, 1, 'Stop interrupts it (Ctrl-C)');
		assert.deepEqual(lines(t.changes(from).at(-1)), ['p1 npm run dev | 14:02:11 UTC |  | terminal | stopping', 'p2 node worker.js | 14:02:11 UTC |  | child']);
		t.connection.receive({ type: 'processes.stop', id: 'p1' });
		assert.equal(dev.driven.interrupted, 1, 'a second Stop while it stops does nothing more');
		assert.equal(t.changes(from).length, 1);
		dev.driven.exit.fire({ code: 130, signal: 'SIGINT' });
		assert.deepEqual(lines(t.changes(from).at(-1)), ['p2 node worker.js | 14:02:11 UTC |  | child'], 'once it ended it leaves the panel');
		assert.equal(t.processesOf().get('p1')?.end?.cause, 'stopped');
		child.driven.kill();
	});

	it('reaches only the current chat\'s processes: an unknown or ended id, or another chat\'s, is ignored and logged', async () => {
		const t = setup();
		const first = t.sessions.current;
		const ended = await t.start('npm run build');
		const dev = await t.start('npm run dev');
		t.connection.receive({ type: 'processes.stop', id: 'p9' });
		t.connection.receive({ type: 'processes.show', id: 'p9' });
		ended.driven.exit.fire({ code: 0 });
		t.connection.receive({ type: 'processes.stop', id: 'p1' });
		t.connection.receive({ type: 'processes.show', id: 'p1' });
		assert.deepEqual([ended.driven.interrupted, ended.driven.shown], [0, 0], 'an ended process is neither stopped nor shown');
		assert.equal(t.log.at('info').filter((line) => /processes\.(stop|show) for p[19]: the current chat has no such running process; ignored/.test(line)).length, 4);

		t.sessions.newSession();
		assert.deepEqual(t.snapshot(), { rows: [] }, 'the new chat\'s snapshot has its own (none)');
		const from = t.posted.length;
		t.connection.receive({ type: 'processes.stop', id: 'p2' });
		t.connection.receive({ type: 'processes.show', id: 'p2' });
		assert.deepEqual([dev.driven.interrupted, dev.driven.shown], [0, 0], 'p2 of the other chat is not touched');
		dev.driven.data.fire('ready\n');
		t.timers.advance(OUTPUT_UPDATE_MS);
		await t.processesOf(first).start('npm test', '/ws', { kind: 'exit' });
		assert.deepEqual(t.changes(from), [], 'a chat that is not current says nothing');
		assert.equal(t.timers.pending, 0);
		dev.driven.kill();
	});

	it('a window without a process host has an empty panel and ignores its messages', () => {
		const t = setup({ withHost: false });
		assert.deepEqual(t.snapshot(), { rows: [] });
		t.connection.receive({ type: 'processes.stop', id: 'p1' });
		assert.deepEqual(t.changes(), []);
		assert.match(t.log.at('info').join('\n'), /processes\.stop for p1: the current chat has no such running process; ignored/);
	});
});
