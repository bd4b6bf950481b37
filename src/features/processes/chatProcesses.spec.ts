// One chat's processes through a chat's real ReminderEngine and transcript, over scripted processes:
// who reaches them, the run.shell-integration notice, the `process` records, a reopened chat's
// numbering and its session.recovery for processes that went with the window, and what a Stop says.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import '../../testing/chatFeatures';
import { ChatSession, type SessionAccess } from '../../agent/session';
import { processStartOf } from '../../base/processIdentity';
import { DEFAULT_REMINDER_CONFIG, type ReminderConfig } from '../../reminders/config';
import type { Owner } from '../../reminders/definition';
import { ChatProcessList, type ProcessHost } from '../../terminal/processHost';
import { CHAT_SHELL, PROCESS_ACCESS } from '../../tools/processAccess';
import type { CommandRunner } from '../../tools/tool';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { userText } from '../../testing/history';
import { MemorySessionStore } from '../../testing/memorySessionStore';
import { endsWithin } from '../../testing/processState';
import { ScriptedLauncher } from '../../testing/scriptedLauncher';
import { testEnvironment } from '../../testing/sessions';
import type { TranscriptEntry } from '../../transcript/records';
import { ChatProcesses } from './chatProcesses';

const NO_RUNNER: CommandRunner & { dispose(): void } = {
	run: () => Promise.reject(new Error('not run here')),
	dispose: () => undefined,
};

function chat(options: { records?: readonly TranscriptEntry[]; config?: ReminderConfig; access?: SessionAccess } = {}) {
	const clock = new FakeClock(Date.UTC(2026, 11, 7, 14, 2, 11));
	const store = new MemorySessionStore();
	store.records.push(...(options.records ?? []));
	const ids = new SequentialIds('id');
	const session = new ChatSession('s1', store, { ...testEnvironment(clock, ids), reminderConfig: options.config ?? DEFAULT_REMINDER_CONFIG }, store.records, options.access);
	const launcher = new ScriptedLauncher();
	const chats = new ChatProcessList();
	const shell = { disposed: false, run: (...args: Parameters<typeof NO_RUNNER.run>) => NO_RUNNER.run(...args), dispose: () => { shell.disposed = true; } };
	const host: ProcessHost = { launcher, outputPath: (stem) => `/kept/${stem}.txt`, file: () => undefined, foreground: () => shell, chats };
	const state = new ChatProcesses({ session, clock, newId: () => ids.next() }, host);
	let n = 0;
	let owner: Owner | undefined;
	/** One request: its entries by key; committed unless `commit` is false. */
	const request = async (commit = true) => {
		owner ??= session.reminders.beginUserTurn(`t${++n}`);
		const injection = session.reminders.wait({ requestId: `r${++n}`, owner, phase: 'mid-turn', messages: [userText('go')] }, undefined);
		if (commit) {
			await injection.commit();
		}
		return new Map((injection.record?.entries ?? []).map((entry) => [entry.key, entry.body]));
	};
	const processRecords = () => store.records.filter((record) => record.kind === 'process');
	return { clock, session, store, launcher, chats, state, request, processRecords, shell };
}

describe('a chat\'s processes', () => {
	it('the root loop reaches its processes and its shell; a sub-agent\'s neither', () => {
		const { state } = chat();
		assert.ok(state.toolAccess('root').get(PROCESS_ACCESS));
		assert.ok(state.toolAccess('root').get(CHAT_SHELL));
		assert.equal(state.toolAccess('root/explore#1').get(PROCESS_ACCESS), undefined);
		assert.equal(state.toolAccess('root/explore#1').get(CHAT_SHELL), undefined);
	});

	it('says why a command ran outside the terminal once per chat and reason, and not at all when its switch is off', () => {
		const shell = chat().state.toolAccess('root').get(CHAT_SHELL);
		assert.ok(shell);
		const first = shell.fallbackNotice('multi-line');
		assert.ok(first);
		assert.equal(first.key, 'run.shell-integration');
		assert.match(first.body, /several lines/);
		assert.equal(shell.fallbackNotice('multi-line'), undefined, 'once per reason');
		assert.match(shell.fallbackNotice('no-integration')?.body ?? '', /did not start in time/);
		const off = chat({ config: { isEnabled: (type) => type !== 'runShellIntegration', intervalOf: () => undefined } });
		assert.equal(off.state.toolAccess('root').get(CHAT_SHELL)?.fallbackNotice('multi-line'), undefined);
	});

	it('records each start and end, and lists the chat with the window until it goes', async () => {
		const { state, launcher, chats, processRecords } = chat();
		await state.processes.start('npm run dev', '/work', { kind: 'exit' });
		assert.deepEqual(chats.running().map(({ chatId, process }) => [chatId, process.id]), [['s1', 'p1']]);
		launcher.last.exit.fire({ code: 3 });
		assert.deepEqual(processRecords().map((record) => [record.process, record.change, record.command ?? record.cause, record.code]), [
			['p1', 'started', 'npm run dev', undefined],
			['p1', 'ended', 'exited', 3],
		]);
		assert.deepEqual(chats.running(), []);
		state.dispose();
		await state.processes.start('x', '/work', { kind: 'exit' }).catch(() => undefined);
		assert.deepEqual(chats.running(), [], 'a disposed chat is no longer listed');
	});

	it('a deleted chat\'s processes end (interrupt first) and its shell closes; its state lets go of them', async () => {
		const { state, launcher, chats, processRecords, shell } = chat();
		await state.processes.start('npm run dev', '/work', { kind: 'exit' });
		chats.endChat('s1');
		assert.equal(launcher.last.interrupted, true);
		assert.equal(shell.disposed, true, 'its "Aside" terminal closes');
		assert.deepEqual(chats.running(), []);
		assert.equal(processRecords().length, 1, 'nothing more is written to the deleted chat');
		chats.endChat('s1');
	});

	it('after a Stop, names the processes that go on running', async () => {
		const { state } = chat();
		assert.deepEqual(state.recoveryNotes(), []);
		await state.processes.start('npm run dev', '/work', { kind: 'exit' });
		assert.deepEqual(state.recoveryNotes(), [
			'Background processes of this chat keep running after a Stop (RunOutput reads one, RunStop ends one):',
			'- p1 `npm run dev` since 14:02:11 UTC',
		]);
	});

	it('reopened: goes on numbering, and session.recovery names once the processes that ended with the window — also after a failed request', async () => {
		const first = chat();
		await first.state.processes.start('npm run dev', '/work', { kind: 'exit' });
		await first.state.processes.start('make once', '/work', { kind: 'exit' });
		first.launcher.launched[1]?.exit.fire({ code: 0 });
		// The window goes without recording p1's end (a reload kills it with the extension host).
		const records = first.store.records.slice();
		const reopened = chat({ records });
		const failed = await reopened.request(false);
		assert.match(failed.get('session.recovery') ?? '', /still running when VS Code closed or reloaded[\s\S]*- p1 `npm run dev` \(started 14:02:11 UTC\)/);
		assert.doesNotMatch(failed.get('session.recovery') ?? '', /make once/);
		const delivered = await reopened.request();
		assert.ok(delivered.has('session.recovery'), 'a failed request loses nothing');
		assert.equal((await reopened.request()).has('session.recovery'), false, 'said once');
		assert.deepEqual(reopened.processRecords().at(-1)?.cause, 'window');
		const started = await reopened.state.processes.start('npm test', '/work', { kind: 'exit' });
		assert.equal(started.id, 'p3');
		reopened.launcher.last.exit.fire({ code: 0 });
		const again = chat({ records: reopened.store.records.slice() });
		assert.equal((await again.request()).has('session.recovery'), false, 'told once, across reopens');
	});

	it('reopened: a process whose terminal outlived the window (its shell still runs) is ended now, and said so', async () => {
		const child = spawn('bash', ['-c', 'sleep 600'], { detached: true, stdio: 'ignore' });
		child.unref();
		const leader = child.pid ?? assert.fail('no pid');
		const leaderStart = processStartOf(leader);
		const records: TranscriptEntry[] = [
			{ kind: 'process', id: 'r1', at: Date.UTC(2026, 11, 7, 14, 0, 0), process: 'p1', change: 'started', command: 'npm run dev', leader, ...(leaderStart ? { leaderStart } : {}) },
			{ kind: 'process', id: 'r2', at: Date.UTC(2026, 11, 7, 14, 1, 0), process: 'p2', change: 'started', command: 'make watch', leader: 2 ** 22 + 7, leaderStart: 'gone' },
		];
		const reopened = chat({ records });
		const recovery = (await reopened.request()).get('session.recovery') ?? '';
		assert.match(recovery, /^- p1 `npm run dev` \(started 14:00:00 UTC\): it was still running, outside any window; Aside ended it now$/m, recovery);
		assert.match(recovery, /^- p2 `make watch` \(started 14:01:00 UTC\)$/m, 'one that is gone ended with the window');
		assert.equal(await endsWithin(leader, 3000), true, 'the survivor is gone');
	});

	it('records the session a process runs in, with its start, so a reopened chat can tell it', async () => {
		const shell = spawn('bash', ['-c', 'sleep 600'], { detached: true, stdio: 'ignore' });
		shell.unref();
		const { state, launcher, processRecords } = chat();
		launcher.leader = shell.pid;
		await state.processes.start('npm run dev', '/work', { kind: 'exit' });
		const [started] = processRecords();
		assert.equal(started?.leader, shell.pid);
		assert.equal(started?.leaderStart, processStartOf(shell.pid ?? 0));
		shell.kill('SIGKILL');
	});

	it('opened again in the same window, a chat takes over its processes, what the model was told of them and its shell — and never calls them gone', async () => {
		const clock = new FakeClock(Date.UTC(2026, 11, 7, 14, 2, 11));
		const ids = new SequentialIds('id');
		const store = new MemorySessionStore();
		const launcher = new ScriptedLauncher();
		const chats = new ChatProcessList();
		let shells = 0;
		const host: ProcessHost = { launcher, outputPath: (stem) => `/kept/${stem}.txt`, file: () => undefined, foreground: () => (shells++, NO_RUNNER), chats };
		const open = () => {
			const session = new ChatSession('s1', store, testEnvironment(clock, ids), store.records.slice());
			return { session, state: new ChatProcesses({ session, clock, newId: () => ids.next() }, host) };
		};
		const first = open();
		await first.state.processes.start('npm run dev', '/work', { kind: 'exit' });
		await first.state.processes.start('npm test', '/work', { kind: 'exit' });
		// The person opens another chat: this one's session is closed, its processes run on; one ends meanwhile.
		first.session.dispose();
		store.failAlways = new Error('The transcript of session s1 is closed.');
		launcher.launched[1]?.exit.fire({ code: 0 });
		store.failAlways = undefined;
		const again = open();
		assert.equal(again.state.processes, first.state.processes, 'the same processes');
		assert.equal(shells, 1, 'the same shell: its cd and export still hold');
		assert.deepEqual(chats.running().map(({ chatId, process }) => [chatId, process.id]), [['s1', 'p1']], 'listed once');
		const owner = again.session.reminders.beginUserTurn('t9');
		const injection = again.session.reminders.wait({ requestId: 'r9', owner, phase: 'turn-start', messages: [userText('go')] }, undefined);
		await injection.commit();
		const told = new Map((injection.record?.entries ?? []).map((entry) => [entry.key, entry.body]));
		assert.equal(told.has('session.recovery'), false, 'nothing went with a window');
		assert.match(told.get('run.background.exit') ?? '', /^p2 `npm test` exited: exit code 0/, 'the exit that came while away is told');
		const ends = store.records.filter((record) => record.kind === 'process' && record.change === 'ended');
		assert.deepEqual(ends.map((record) => record.kind === 'process' && [record.process, record.cause]), [['p2', 'exited']], 'recorded by the state that took over');
		assert.equal((await again.state.processes.start('make', '/work', { kind: 'exit' })).id, 'p3');
		first.state.dispose();
		assert.equal(launcher.launched[0]?.interrupted, false, 'the state that let go ends nothing');
		assert.equal(chats.running().length, 2);
		again.state.dispose();
		assert.deepEqual(chats.running(), [], 'the chat\'s last state ends them');
	});

	it('a chat another window has open (shown read-only here, or continued in a copy) says nothing of its processes: they run there', async () => {
		const first = chat();
		await first.state.processes.start('npm run dev', '/work', { kind: 'exit' });
		for (const access of [{ kind: 'read-only' }, { kind: 'copy', of: 'Dev server' }] as const) {
			const elsewhere = chat({ records: first.store.records.slice(), access });
			assert.equal((await elsewhere.request()).has('session.recovery'), false, access.kind);
		}
	});
});
