// Run in VS Code's terminals with the scripted model (OpenAI-compatible, loopback), end to end in
// code-server with real bash: a foreground command's output and exit code, `cd` kept for the next
// Run, background processes (p1 …) and what the next requests tell the model of them —
// run.background.exit once, run.background.output for the lines matching notify.match until
// RunOutput read them, run.background.stuck for a process quiet at a prompt — RunOutput reading only
// what is new, RunStop, aside.run.terminal "off" said once per chat as run.shell-integration, and a
// command of several lines that does not hang. Each case is its own chat: a chat's "Aside" terminal
// keeps its `cd`.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { type ModelServer, type ReceivedRequest, type ScriptedStep, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, reminderBodies as blocks, chatRequests, driver, hasDriver, messagesOf, PROCESSES_RELOAD_NOTE, PROCESSES_RELOAD_TITLE, toolResult, until, useScriptedServer, workspaceFile } from './support';

const global = vscode.ConfigurationTarget.Global;

/** What a request brought since the model last spoke: the user message or the tool results, and the reminders after them. */
function fresh(request: ReceivedRequest | undefined): string {
	const messages = messagesOf(request);
	const lastAssistant = messages.map((message) => message.role).lastIndexOf('assistant');
	return messages
		.slice(lastAssistant + 1)
		.map((message) => message.content ?? '')
		.join('\n');
}

const run = (id: string, input: Record<string, unknown>): ScriptedStep => ({ toolCalls: [{ id, name: 'Run', input }] });
const runOutput = (id: string, input: Record<string, unknown>): ScriptedStep => ({ toolCalls: [{ id, name: 'RunOutput', input }] });

/** The output file a background Run's result names. */
function outputFileOf(result: string): string {
	const path = /Its whole output goes to (\/\S+?)\. /.exec(result)?.[1];
	assert.ok(path, `the result names the output file: ${result}`);
	return path;
}

const fileText = (path: string): string => (existsSync(path) ? readFileSync(path, 'utf8') : '');

describe('background processes with the scripted model', function () {
	this.timeout(180_000);
	let server: ModelServer;
	let restore: () => Promise<void>;
	const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'aside-processes-')));
	const folder = workspaceFile(`processes-scratch-${process.pid}`).fsPath;

	/** One user turn: scripts `steps`, sends `text`, waits for the turn; the requests it made. */
	async function turn(text: string, ...steps: ScriptedStep[]): Promise<ReceivedRequest[]> {
		const { api } = await activeAside();
		server.script(...steps);
		const before = chatRequests(server).length;
		const result = await api.sendMessage(text);
		assert.equal(result.outcome, 'done', result.error);
		return chatRequests(server).slice(before);
	}

	/**
	 * Sends short turns (the model only answers) until one's request brings a `key` block, and
	 * returns that request: the first after the news came.
	 */
	async function askUntil(key: string, timeoutMs: number): Promise<ReceivedRequest> {
		const deadline = Date.now() + timeoutMs;
		for (let asked = 1; ; asked++) {
			const [request] = await turn(`Any news (${key}, ${asked})?`, { text: 'Nothing to do yet.' });
			if (blocks(fresh(request), key).length > 0) {
				return request as ReceivedRequest;
			}
			if (Date.now() > deadline) {
				throw new Error(`no request brought ${key} within ${timeoutMs / 1000} s`);
			}
			await new Promise((resolve) => setTimeout(resolve, 400));
		}
	}

	async function newChat(): Promise<void> {
		await vscode.commands.executeCommand('aside.newChat');
	}

	before(async () => {
		mkdirSync(join(folder, 'sub'), { recursive: true });
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'full-access' });
		// A loaded machine may take more than the default 5 s to start a terminal's shell integration.
		await vscode.workspace.getConfiguration('aside.run').update('shellIntegrationTimeoutMs', 30_000, global);
	});

	after(async () => {
		await vscode.commands.executeCommand('aside.run.stopBackgroundProcesses');
		await vscode.workspace.getConfiguration('aside.run').update('terminal', undefined, global);
		await vscode.workspace.getConfiguration('aside.run').update('shellIntegrationTimeoutMs', undefined, global);
		await newChat();
		await restore();
		await server.close();
		rmSync(folder, { recursive: true, force: true });
		rmSync(scratch, { recursive: true, force: true });
	});

	it('a foreground command gives its output and exit code; a cd in one Run holds for the next one', async () => {
		await newChat();
		const relative = `processes-scratch-${process.pid}/sub`;
		await turn(
			'Run the script, then go to the folder and say where you are.',
			run('call_script', { command: 'bash -c \'echo script says hi; echo second line; exit 3\'' }),
			run('call_cd', { command: `cd ${relative}` }),
			run('call_pwd', { command: 'pwd' }),
			{ text: 'Done.' },
		);
		const script = toolResult(server, 'call_script');
		assert.match(script, /script says hi\nsecond line\n\nExit code 3\.$/, script);
		assert.doesNotMatch(script, /run\.shell-integration/, 'it ran in the terminal');
		assert.match(toolResult(server, 'call_cd'), /Exit code 0\.$/);
		const where = toolResult(server, 'call_pwd');
		assert.match(where, /\/sub\n\nExit code 0\.$/, where);
		assert.ok(where.split('\n')[0]?.endsWith(`/${relative}`), where);
		const aside = vscode.window.terminals.filter((terminal) => terminal.name === 'Aside');
		assert.ok(aside.length >= 1, 'the chat\'s "Aside" terminal is open');
	});

	it('a background process returns at once with p1 and its output file; its exit is told once, in the next request after it ended', async () => {
		await newChat();
		const command = 'bash -c \'for i in 1 2 3 4 5 6; do echo tick $i; sleep 1; done\'';
		const requests = await turn('Start the ticker.', run('call_ticker', { command, background: true }), { text: 'Started.' });
		const started = toolResult(server, 'call_ticker');
		const output = outputFileOf(started);
		assert.ok(!fileText(output).includes('tick 6'), 'Run returned before the process ended');
		assert.match(started, /^Started p1 in the background in the terminal "Aside: p1 bash -c .*": `bash -c/, started);
		assert.match(started, /RunOutput p1.*RunStop p1/);
		assert.equal(blocks(fresh(requests.at(-1)), 'run.background.exit').length, 0, 'nothing ended yet');
		assert.match(blocks(fresh(requests.at(-1)), 'run.background.running').join('\n'), /- p1 `bash -c 'for i in/, 'the running set names p1');

		const told = await askUntil('run.background.exit', 60_000);
		const exits = blocks(fresh(told), 'run.background.exit');
		assert.equal(exits.length, 1, 'exactly one run.background.exit block');
		const [exit = ''] = exits;
		assert.match(exit, /^p1 `bash -c 'for i in 1 2 3 4 5 6; do echo tick \$i; sleep 1; done'` exited: exit code 0, at \d\d:\d\d:\d\d UTC after [\d.]+ s\./, exit);
		assert.match(exit, /tick 5\ntick 6\n/);
		assert.ok(exit.includes(`Its whole output: ${output} (Read it, or RunOutput p1).`), exit);
		assert.match(fileText(output), /tick 1\n[\s\S]*tick 6\n/, 'the output file has every line');

		const [after] = await turn('And now?', { text: 'Nothing new.' });
		assert.equal(blocks(fresh(after), 'run.background.exit').length, 0, 'the exit is not told again');
		assert.equal(blocks(messagesOf(after).map((message) => message.content ?? '').join('\n'), 'run.background.exit').length, 1, 'once in the whole history');
	});

	it('notify.match tells the matching line (not the others) until RunOutput read it', async () => {
		await newChat();
		const { api } = await activeAside();
		// After the first matching line, a second one when the test says so: while the model is
		// answering, so that only RunOutput's read keeps it out of the next request.
		const go = join(scratch, 'ready-again');
		const command = `bash -c 'echo starting; sleep 1; echo server ready on 8080; while [ ! -e ${go} ]; do sleep 0.1; done; echo ready again; sleep 600'`;
		await turn('Start the server.', run('call_server', { command, background: true, notify: { match: 'ready' } }), { text: 'Waiting for it.' });
		const started = toolResult(server, 'call_server');
		assert.match(started, /lines matching your pattern/);
		const output = outputFileOf(started);
		const told = await askUntil('run.background.output', 60_000);
		const outputs = blocks(fresh(told), 'run.background.output');
		assert.equal(outputs.length, 1);
		const [body = ''] = outputs;
		const lines = /printed lines matching its pattern \(\d+ unread\):\n([\s\S]*)\nRead it all with RunOutput p1\.$/.exec(body)?.[1];
		assert.equal(lines, 'server ready on 8080', body);

		server.script({ toolCalls: [{ id: 'call_read', name: 'RunOutput', input: { id: 'p1' } }], delayMs: 5000 }, { text: 'It is ready.' });
		const before = chatRequests(server).length;
		const sending = api.sendMessage('Read it.');
		await until(() => chatRequests(server).length, (count) => count > before, 'the turn\'s first request', 30_000);
		writeFileSync(go, '');
		await until(() => fileText(output), (text) => text.includes('ready again\n'), 'the second matching line, before the model answers', 4000);
		const sent = await sending;
		assert.equal(sent.outcome, 'done', sent.error);
		const read = chatRequests(server).slice(before);
		const [next] = await turn('Anything else?', { text: 'No.' });
		assert.equal(read.length, 2);
		for (const request of [...read, next]) {
			assert.equal(blocks(fresh(request), 'run.background.output').length, 0, 'nothing unread is told');
		}
		const result = toolResult(server, 'call_read');
		assert.match(result, /^starting\nserver ready on 8080\nready again$/m, result);
	});

	it('RunOutput gives only the new lines on the next read, or says there are none', async () => {
		await newChat();
		const go = join(scratch, 'go');
		const command = `bash -c 'echo one; echo two; while [ ! -e ${go} ]; do sleep 0.2; done; echo three; sleep 600'`;
		await turn('Start it.', run('call_start', { command, background: true }), { text: 'Started.' });
		const output = outputFileOf(toolResult(server, 'call_start'));
		await until(() => fileText(output), (text) => text.includes('two\n'), 'the first two lines', 60_000);

		await turn('Read it twice.', runOutput('call_first', { id: 'p1' }), runOutput('call_second', { id: 'p1' }), { text: 'Read.' });
		const first = toolResult(server, 'call_first');
		assert.match(first, /\(new since your last read\):\none\ntwo$/m, first);
		assert.match(first, /— running since/);
		const second = toolResult(server, 'call_second');
		assert.match(second, /No new output since your last read\./, second);
		assert.doesNotMatch(second, /^(one|two)$/m);

		writeFileSync(go, '');
		await until(() => fileText(output), (text) => text.includes('three\n'), 'the third line', 60_000);
		await turn('Read it again.', runOutput('call_third', { id: 'p1' }), { text: 'Read.' });
		const third = toolResult(server, 'call_third');
		assert.match(third, /\(new since your last read\):\nthree$/m, third);
		assert.doesNotMatch(third, /^(one|two)$/m, 'lines read before are not given again');
	});

	it('RunStop stops a running process, and the next request tells its exit as stopped', async () => {
		await newChat();
		await turn('Start a long sleep.', run('call_sleep', { command: 'bash -c \'echo sleeping; sleep 600\'', background: true }), { text: 'Started.' });
		const output = outputFileOf(toolResult(server, 'call_sleep'));
		await until(() => fileText(output), (text) => text.includes('sleeping\n'), 'the process to run', 60_000);

		const requests = await turn('Stop it.', { toolCalls: [{ id: 'call_stop', name: 'RunStop', input: { id: 'p1' } }] }, { text: 'Stopped.' });
		const stopped = toolResult(server, 'call_stop');
		assert.match(stopped, /^p1 `bash -c 'echo sleeping; sleep 600'` — was stopped \(/, stopped);
		const exits = blocks(fresh(requests[1]), 'run.background.exit');
		assert.equal(exits.length, 1, 'the request after RunStop tells the exit');
		assert.match(exits[0] ?? '', /^p1 `bash -c 'echo sleeping; sleep 600'` was stopped \(RunStop, or the person\): /, exits[0]);
	});

	it('a process quiet at a prompt for 10 s is told as stuck, quoting the prompt', async () => {
		await newChat();
		await turn('Ask for confirmation.', run('call_prompt', { command: 'read -p "Continue? [y/N] " x', background: true }), { text: 'Started.' });
		assert.match(toolResult(server, 'call_prompt'), /^Started p1 in the background/);
		const told = await askUntil('run.background.stuck', 60_000);
		const stuck = blocks(fresh(told), 'run.background.stuck');
		assert.equal(stuck.length, 1);
		assert.match(stuck[0] ?? '', /^p1 `read -p "Continue\? \[y\/N\] " x` has printed nothing for [\d.]+ s and seems to wait at a prompt: "Continue\? \[y\/N\]"\./, stuck[0]);
		assert.match(stuck[0] ?? '', /RunStop p1/);
		const [after] = await turn('And now?', { text: 'Still waiting.' });
		assert.equal(blocks(fresh(after), 'run.background.stuck').length, 0, 'once per process and prompt');
	});

	it('with aside.run.terminal "off", a foreground Run goes through the child-process fallback and says so once per chat', async () => {
		await vscode.workspace.getConfiguration('aside.run').update('terminal', 'off', global);
		try {
			await newChat();
			const opened: string[] = [];
			const watching = vscode.window.onDidOpenTerminal((terminal) => opened.push(terminal.name));
			try {
				await turn('Echo twice.', run('call_off1', { command: 'echo plain' }), run('call_off2', { command: 'echo again' }), { text: 'Done.' });
			} finally {
				watching.dispose();
			}
			const first = toolResult(server, 'call_off1');
			assert.match(first, /^plain\n\nExit code 0\./, first);
			const notices = blocks(first, 'run.shell-integration');
			assert.equal(notices.length, 1, first);
			assert.match(notices[0] ?? '', /aside\.run\.terminal is "off"/);
			const second = toolResult(server, 'call_off2');
			assert.match(second, /^again\n\nExit code 0\.$/, second);
			assert.equal(blocks(second, 'run.shell-integration').length, 0, 'said once per chat and reason');
			assert.deepEqual(opened, [], 'no terminal opened');
		} finally {
			await vscode.workspace.getConfiguration('aside.run').update('terminal', undefined, global);
		}
	});

	it('with aside.run.wakeOnExit on, a process that ends by itself starts a turn whose message says no person wrote it, once', async () => {
		await newChat();
		const { hooks } = await activeAside();
		await vscode.workspace.getConfiguration('aside.run').update('wakeOnExit', true, global);
		try {
			const command = 'bash -c \'sleep 2; echo 3 tests failed; exit 4\'';
			await turn('Run the tests in the background.', run('call_tests', { command, background: true }), { text: 'They are running.' });
			server.script({ text: 'The tests failed: 3 of them. Tell me if I should look.' });
			const before = chatRequests(server).length;
			await until(() => chatRequests(server).length, (count) => count > before, 'the turn the exit started', 60_000);
			await until(() => hooks.agentBusy(), (busy) => !busy, 'that turn to end', 30_000);
			const woke = fresh(chatRequests(server)[before]);
			assert.match(woke, /^<system-reminder key="run\.background\.wake">\nNo person wrote this message\. Aside started this turn by itself/, woke);
			assert.ok(woke.includes(`- p1 \`${command}\` exited: exit code 4\n`), woke);
			assert.match(blocks(woke, 'run.background.exit').join('\n'), /exited: exit code 4[\s\S]*3 tests failed/, 'the exit rides the same request');
			assert.doesNotMatch(woke, /Run the tests/, 'nothing of a person\'s');
			const rows = hooks.currentSessionItems().filter((item) => item.kind === 'user');
			const row = rows.at(-1);
			assert.equal(row?.kind === 'user' ? row.startedBy?.key : undefined, 'run.background.wake', 'the row is Aside\'s');
			await new Promise((resolve) => setTimeout(resolve, 3000));
			assert.equal(chatRequests(server).length, before + 1, 'one turn, not one per reminder or per second');
		} finally {
			await vscode.workspace.getConfiguration('aside.run').update('wakeOnExit', undefined, global);
		}
	});

	it('a chat left for another and opened again from the chat list still has its background process: RunOutput and RunStop reach it', async function () {
		if (!hasDriver) {
			this.skip();
		}
		const { hooks } = await activeAside();
		await newChat();
		const title = 'Keep a watcher running while I look elsewhere.';
		await turn(title, run('call_watch', { command: 'bash -c \'echo watching; sleep 600\'', background: true }), { text: 'Started.' });
		const chatId = hooks.currentSessionId();
		const output = outputFileOf(toolResult(server, 'call_watch'));
		await until(() => fileText(output), (text) => text.includes('watching\n'), 'the watcher to run', 60_000);
		await newChat();
		await turn('Something else.', { text: 'Sure.' });
		await vscode.commands.executeCommand('aside.focusChat');
		await driver('openFromChatList', { title });
		await until(() => hooks.currentSessionId(), (current) => current === chatId, 'the chat opened from the list');
		const requests = await turn('Is it still watching? Then stop it.', runOutput('call_back', { id: 'p1', since: 'start' }), { toolCalls: [{ id: 'call_back_stop', name: 'RunStop', input: { id: 'p1' } }] }, { text: 'Stopped.' });
		assert.match(toolResult(server, 'call_back'), /^p1 `bash -c 'echo watching; sleep 600'` — running since[\s\S]*watching/, toolResult(server, 'call_back'));
		assert.match(toolResult(server, 'call_back_stop'), /^p1 `bash -c 'echo watching; sleep 600'` — was stopped/);
		assert.equal(blocks(fresh(requests[0]), 'session.recovery').length, 0, 'nothing went with a window');
	});

	it('a command of several lines does not hang and gives both lines', async () => {
		await newChat();
		const began = Date.now();
		await turn('Print two lines.', run('call_lines', { command: 'printf \'a\\n\'\necho b' }), { text: 'Done.' });
		assert.ok(Date.now() - began < 30_000, `the turn took ${Date.now() - began} ms`);
		const result = toolResult(server, 'call_lines');
		assert.match(result, /^a\nb\n\nExit code 0\./, result);
		assert.match(blocks(result, 'run.shell-integration').join('\n'), /several lines/, 'it says why it ran outside the terminal');
	});
});

// Left running for the window reload (terminalProcesses.reload.test.ts, a file named to run after
// session.reload.test.ts, whose chat must be the current one when the window comes back): a
// chat of its own with a process that writes a line every 0.2 s.
describe('a background process the window reload finds running', function () {
	this.timeout(120_000);

	it('runs in a chat of its own when the window goes', async () => {
		const { api } = await activeAside();
		const server = await startModelServer({ models: ['scripted-model'] });
		const restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'full-access' });
		try {
			await vscode.commands.executeCommand('aside.newChat');
			const beat = join(realpathSync(tmpdir()), `aside-heartbeat-${process.pid}.txt`);
			const command = `bash -c 'while true; do date +%s%N >> ${beat}; sleep 0.2; done'`;
			server.script(run('call_beat', { command, background: true }), { text: 'It beats.' });
			const result = await api.sendMessage(PROCESSES_RELOAD_TITLE);
			assert.equal(result.outcome, 'done', result.error);
			await until(() => fileText(beat), (text) => text.split('\n').length > 3, 'the first beats', 30_000);
			writeFileSync(join(process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp', PROCESSES_RELOAD_NOTE), JSON.stringify({ sessionId: result.sessionId, beat, command }));
		} finally {
			await restore();
			await server.close();
		}
	});
});
