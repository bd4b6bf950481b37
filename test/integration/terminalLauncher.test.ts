// Background processes in code-server's real terminals, through VS Code's shell integration API
// (bash, as CI runs it): output and the reported exit code, Ctrl-C, a command of several lines and
// aside.run.terminal "off" in the child-process fallback, which says why.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitForEvent } from '../../src/base/event';
import { ChildProcessLauncher } from '../../src/terminal/childLauncher';
import type { LaunchedProcess, LaunchExit } from '../../src/terminal/launcher';
import { terminalText } from '../../src/terminal/terminalText';
import type { TerminalMode } from '../../src/vscode/terminal/shellIntegration';
import { TerminalLauncher } from '../../src/vscode/terminal/terminalLauncher';
import { workspaceFile } from './support';

const cwd = workspaceFile('.').fsPath;

function launcher(mode: TerminalMode = 'visible'): TerminalLauncher {
	return new TerminalLauncher(vscode.window, () => ({ mode, integrationTimeoutMs: 20_000 }), new ChildProcessLauncher());
}

/** Everything it prints, as the model reads it, and how it ends. */
async function outcome(launched: LaunchedProcess): Promise<{ readonly text: string; readonly exit: LaunchExit }> {
	let raw = '';
	launched.onData((chunk) => {
		raw += chunk;
	});
	const exit = await waitForEvent(launched.onExit, () => true, 60_000, 'the process to end');
	return { text: terminalText(raw), exit };
}

describe('background processes in VS Code terminals', function () {
	this.timeout(120_000);
	const opened: vscode.Terminal[] = [];
	const track = vscode.window.onDidOpenTerminal((terminal) => opened.push(terminal));

	after(() => {
		track.dispose();
		for (const terminal of opened) {
			terminal.dispose();
		}
	});

	it('runs in a terminal of its own through shell integration: the output cleaned, the exit code as reported', async () => {
		const launched = await launcher().start('bash -c \'printf "\\033[32mone\\033[0m\\r\\nloading 10%%\\rloading 100%%\\ntwo\\n"; exit 3\'', { cwd, name: 'Aside: p1 test' });
		assert.equal(launched.fallback, undefined, 'shell integration came up');
		assert.equal(launched.terminalName, 'Aside: p1 test');
		const { text, exit } = await outcome(launched);
		assert.equal(exit.code, 3);
		assert.match(text, /one\nloading 100%\ntwo/);
		assert.ok(opened.some((terminal) => terminal.name === 'Aside: p1 test'), 'a terminal of its own');
	});

	it('interrupts with Ctrl-C as the person would', async () => {
		const launched = await launcher().start('echo sleeping; sleep 60', { cwd, name: 'Aside: p2 sleep' });
		assert.equal(launched.fallback, undefined);
		// Interrupted once it runs: a Ctrl-C while bash still reads the line cancels the line, and no code is reported.
		let seen = '';
		const running = waitForEvent(launched.onData, (chunk) => (seen += chunk).includes('sleeping'), 60_000, 'the command to run');
		const ended = outcome(launched);
		await running;
		launched.interrupt();
		assert.equal((await ended).exit.code, 130, 'bash reports 128 + SIGINT');
	});

	it('runs a command of several lines, and everything with aside.run.terminal "off", as a child process, and says why', async () => {
		const multi = await launcher().start('echo first\necho second', { cwd, name: 'Aside: p3 multi' });
		assert.equal(multi.fallback, 'multi-line');
		assert.equal(multi.terminalName, undefined);
		const { text, exit } = await outcome(multi);
		assert.equal(text, 'first\nsecond');
		assert.equal(exit.code, 0);
		const off = await launcher('off').start('echo plain', { cwd, name: 'Aside: p4 off' });
		assert.equal(off.fallback, 'terminal-off');
		assert.equal((await outcome(off)).text, 'plain');
	});
});
