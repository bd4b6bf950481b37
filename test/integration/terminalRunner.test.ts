// Foreground commands in the chat's one "Aside" terminal in code-server, through VS Code's shell
// integration API with real bash: output and the reported exit code, `cd` and `export` kept from
// one call to the next, an abort that ends a command, a command of several lines and
// aside.run.terminal "off" in the child-process fallback, and a new terminal after the person
// closed the old one, said in the output.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { waitForEvent } from '../../src/base/event';
import { NodeCommandRunner } from '../../src/tools/nodeRunner';
import type { TerminalMode } from '../../src/vscode/terminal/shellIntegration';
import { ChatTerminalRunner } from '../../src/vscode/terminal/terminalRunner';

function chatRunner(mode: TerminalMode = 'visible'): ChatTerminalRunner {
	return new ChatTerminalRunner(vscode.window, () => ({ mode, integrationTimeoutMs: 20_000 }), new NodeCommandRunner());
}

describe('foreground commands in the chat\'s terminal', function () {
	this.timeout(120_000);
	const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'aside-terminal-runner-')));
	// Only the terminals opened from here on: the chats of earlier tests have "Aside" terminals of their own.
	const opened: vscode.Terminal[] = [];
	let track: vscode.Disposable | undefined;
	before(() => {
		track = vscode.window.onDidOpenTerminal((terminal) => opened.push(terminal));
	});
	const runner = chatRunner();
	const others: ChatTerminalRunner[] = [];
	const options = (signal = new AbortController().signal, timeoutMs = 60_000) => ({ cwd, timeoutMs, maxOutputBytes: 100_000, signal });
	const asides = () => opened.filter((terminal) => terminal.name === 'Aside');

	after(() => {
		track?.dispose();
		runner.dispose();
		for (const other of others) {
			other.dispose();
		}
		for (const terminal of opened) {
			terminal.dispose();
		}
		rmSync(cwd, { recursive: true, force: true });
	});

	it('runs a command in a terminal named Aside: the output cleaned, the exit code as reported', async () => {
		const outcome = await runner.run('bash -c \'printf "\\033[32mone\\033[0m\\r\\nloading 10%%\\rloading 100%%\\ntwo\\n"; exit 3\'', options());
		assert.equal(outcome.fallback, undefined, 'shell integration came up');
		assert.equal(outcome.terminal, 'Aside');
		assert.equal(outcome.exitCode, 3);
		assert.match(outcome.output, /one\nloading 100%\ntwo/);
		assert.equal(asides().length, 1);
	});

	it('keeps a cd from one call to the next', async () => {
		const moved = await runner.run('mkdir -p sub && cd sub', options());
		assert.equal(moved.exitCode, 0);
		const where = await runner.run('pwd', options());
		assert.equal(where.output.trim(), join(cwd, 'sub'));
		assert.equal(where.terminal, 'Aside');
	});

	it('keeps an export from one call to the next, in the same terminal', async () => {
		await runner.run('export ASIDE_X=42', options());
		const echoed = await runner.run('echo $ASIDE_X', options());
		assert.equal(echoed.output.trim(), '42');
		assert.equal(echoed.exitCode, 0);
		assert.equal(asides().length, 1, 'every call so far in one terminal');
	});

	it('runs a command of several lines as a child process, says why, and does not hang', async () => {
		const began = Date.now();
		const outcome = await runner.run('echo first\necho second', options());
		assert.equal(outcome.fallback, 'multi-line');
		assert.equal(outcome.terminal, undefined);
		assert.equal(outcome.output, 'first\nsecond\n');
		assert.equal(outcome.exitCode, 0);
		assert.ok(Date.now() - began < 10_000);
	});

	it('ends an aborted command within a few seconds, and the terminal goes on', async () => {
		const controller = new AbortController();
		setTimeout(() => {
			controller.abort();
		}, 1000);
		const began = Date.now();
		const outcome = await runner.run('sleep 60', options(controller.signal));
		const took = Date.now() - began;
		assert.ok(took < 6000, `ended ${took} ms after it began`);
		assert.equal(outcome.timedOut, false);
		assert.equal(outcome.exitCode, 130, 'bash reports 128 + SIGINT: Ctrl-C ended it');
		const next = await runner.run('echo $ASIDE_X', options());
		assert.equal(next.output.trim(), '42');
	});

	it('stops a command at its timeout with timedOut', async () => {
		const outcome = await runner.run('sleep 60', options(undefined, 1000));
		assert.equal(outcome.timedOut, true);
		assert.equal(outcome.exitCode, 130);
		assert.equal(outcome.terminal, 'Aside');
	});

	it('sends everything to the child-process fallback with aside.run.terminal "off"', async () => {
		const off = chatRunner('off');
		others.push(off);
		const count = opened.length;
		const outcome = await off.run('echo plain', options());
		assert.equal(outcome.fallback, 'terminal-off');
		assert.equal(outcome.output, 'plain\n');
		assert.equal(opened.length, count, 'no terminal opened');
	});

	it('opens a new terminal after the person closed it, and says that earlier cd and export are gone', async () => {
		const terminal = asides().at(-1);
		assert.ok(terminal);
		const closed = waitForEvent(vscode.window.onDidCloseTerminal, (gone) => gone === terminal, 10_000, 'the terminal to close');
		terminal.dispose();
		await closed;
		const outcome = await runner.run('pwd', options());
		assert.equal(outcome.terminal, 'Aside');
		const [notice, ...rest] = outcome.output.split('\n');
		assert.match(notice ?? '', /new "Aside" terminal.*earlier cd and export no longer apply/);
		assert.equal(rest.join('\n').trim(), cwd, 'the new terminal starts where the chat runs');
		assert.equal(asides().length, 2);
		const again = await runner.run('echo ${ASIDE_X:-unset}', options());
		assert.equal(again.output.trim(), 'unset', 'said once; the export went with the old shell');
	});
});
