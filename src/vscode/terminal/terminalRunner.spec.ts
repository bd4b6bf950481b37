// The chat's terminal for foreground commands, on in-memory terminals (src/testing/fakeTerminals.ts):
// one terminal reused, one command at a time, the fallback and its reasons, an exit code never
// guessed, Ctrl-C then the terminal closed after the grace, and a new terminal said in the output.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { echoShell, type FakeCommand, FakeTerminalWindow, RecordingRunner } from '../../testing/fakeTerminals';
import { ChatTerminalRunner } from './terminalRunner';
import type { TerminalMode } from './shellIntegration';

const cwd = '/work/project';

function subject(window: FakeTerminalWindow, mode: TerminalMode = 'visible', integrationTimeoutMs = 1000) {
	const fallback = new RecordingRunner();
	const runner = new ChatTerminalRunner(window.api, () => ({ mode, integrationTimeoutMs }), fallback);
	return { runner, fallback };
}

function options(overrides: { timeoutMs?: number; signal?: AbortSignal; maxOutputBytes?: number } = {}) {
	return { cwd, timeoutMs: 10_000, maxOutputBytes: 10_000, signal: new AbortController().signal, ...overrides };
}

const until = async (condition: () => boolean, what: string): Promise<void> => {
	for (let i = 0; i < 500; i++) {
		if (condition()) {
			return;
		}
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
	assert.fail(`waited in vain for ${what}`);
};

describe('the chat\'s terminal for foreground commands', () => {
	it('opens one terminal named Aside at the first command, shows it once keeping focus, and reuses it', async () => {
		const window = new FakeTerminalWindow((command) => {
			command.print('\u001b[32mok\u001b[0m\r\nloading 10%\rloading 100%\r\n');
			command.end(0);
		});
		const { runner } = subject(window);
		const first = await runner.run('npm test', options());
		assert.deepEqual(first, { output: 'ok\nloading 100%', exitCode: 0, timedOut: false, truncated: false, terminal: 'Aside' });
		await runner.run('cd sub', options({ timeoutMs: 5000 }));
		await runner.run('pwd', options());
		assert.equal(window.terminals.length, 1, 'one terminal for the chat');
		const [terminal] = window.terminals;
		assert.deepEqual(terminal?.options, { name: 'Aside', cwd, hideFromUser: false, isTransient: true });
		assert.deepEqual(terminal.shown, [true], 'shown once, focus kept');
		assert.deepEqual(
			terminal.commands.map((command) => command.command),
			['npm test', 'cd sub', 'pwd'],
			'each command as given: no cd before it',
		);
		runner.dispose();
		assert.equal(terminal.disposed, true, 'dispose closes the terminal');
	});

	it('hides the terminal in "hidden" mode and never shows it', async () => {
		const window = new FakeTerminalWindow();
		const { runner } = subject(window, 'hidden');
		assert.equal((await runner.run('echo hi', options())).output, 'hi');
		const [terminal] = window.terminals;
		assert.equal(terminal?.options.hideFromUser, true);
		assert.deepEqual(terminal.shown, []);
		runner.dispose();
	});

	it('runs one command at a time: the second waits its turn, and its timeout counts from its start', async () => {
		let held: FakeCommand | undefined;
		const window = new FakeTerminalWindow((command) => {
			if (command.command === 'slow') {
				held = command;
				return;
			}
			echoShell(command);
		});
		const { runner } = subject(window);
		const slow = runner.run('slow', options());
		const quick = runner.run('echo quick', options({ timeoutMs: 100 }));
		await until(() => held !== undefined, 'the slow command to start');
		await new Promise((resolve) => setTimeout(resolve, 200));
		assert.deepEqual(
			window.terminals[0]?.commands.map((command) => command.command),
			['slow'],
			'the second has not been sent while the first runs',
		);
		held?.print('slow done\n');
		held?.end(0);
		assert.equal((await slow).output, 'slow done');
		const second = await quick;
		assert.equal(second.output, 'quick');
		assert.equal(second.timedOut, false, 'the 100 ms it waited do not count');
		assert.deepEqual(window.terminals[0].sent, [], 'no Ctrl-C sent');
		runner.dispose();
	});

	it('sends "off", several lines, a nested shell to the fallback and says why, in no terminal', async () => {
		const window = new FakeTerminalWindow();
		const off = subject(window, 'off');
		assert.deepEqual(await off.runner.run('echo a', options()), {
			output: 'from the fallback',
			exitCode: 0,
			timedOut: false,
			truncated: false,
			fallback: 'terminal-off',
		});
		const { runner, fallback } = subject(window);
		assert.equal((await runner.run('echo one\necho two', options())).fallback, 'multi-line');
		assert.equal((await runner.run('bash', options())).fallback, 'nested-shell');
		assert.deepEqual(fallback.commands, ['echo one\necho two', 'bash']);
		assert.equal(window.terminals.length, 0);
	});

	it('falls back when shell integration does not come in time, closes that terminal, and tries a new one next time', async () => {
		const window = new FakeTerminalWindow();
		window.integrates = false;
		const { runner, fallback } = subject(window, 'visible', 30);
		const without = await runner.run('echo a', options());
		assert.equal(without.fallback, 'no-integration');
		assert.equal(without.terminal, undefined);
		assert.deepEqual(fallback.commands, ['echo a']);
		assert.equal(window.terminals[0]?.disposed, true);
		window.integrates = true;
		const next = await runner.run('echo b', options());
		assert.deepEqual([next.output, next.terminal, next.fallback], ['b', 'Aside', undefined]);
		assert.equal(window.terminals.length, 2);
		runner.dispose();
	});

	it('says the exit code is unknown when the shell reported none, never guessing', async () => {
		const window = new FakeTerminalWindow((command) => {
			command.print('out\n');
			command.end(undefined);
		});
		const { runner } = subject(window);
		const outcome = await runner.run('make', options());
		assert.equal(outcome.exitCode, null);
		assert.equal(outcome.exitUnknown, true);
		assert.equal(outcome.output, 'out');
		runner.dispose();
	});

	it('stops a command with Ctrl-C on abort or timeout, keeping the terminal when that ends it', async () => {
		const window = new FakeTerminalWindow((command) => {
			command.print('working\n');
			command.onInterrupt = () => {
				command.print('^C\n');
				command.end(130);
			};
		});
		const { runner } = subject(window);
		const controller = new AbortController();
		const aborted = runner.run('npm run watch', options({ signal: controller.signal }));
		setTimeout(() => {
			controller.abort();
		}, 50);
		const outcome = await aborted;
		assert.deepEqual([outcome.exitCode, outcome.timedOut, outcome.output], [130, false, 'working\n^C']);
		const timed = await runner.run('npm run watch', options({ timeoutMs: 50 }));
		assert.deepEqual([timed.exitCode, timed.timedOut], [130, true]);
		const [terminal] = window.terminals;
		assert.deepEqual(terminal?.sent, ['\u0003', '\u0003'], 'Ctrl-C, no newline after it');
		assert.equal(terminal.disposed, false);
		assert.equal(window.terminals.length, 1);
		runner.dispose();
	});

	it('closes the terminal when Ctrl-C has not ended the command 2 s later; the next run says its terminal is new', async () => {
		const controller = new AbortController();
		let began = 0;
		const window = new FakeTerminalWindow((command) => {
			if (command.command === 'sleep 60') {
				command.print('sleeping\n');
				// Stopped once it runs: a Stop while it still waits for the shell returns at once instead.
				began = Date.now();
				setTimeout(() => {
					controller.abort();
				}, 20);
				return;
			}
			echoShell(command);
		});
		const { runner } = subject(window);
		const outcome = await runner.run('sleep 60', options({ signal: controller.signal }));
		const took = Date.now() - began;
		assert.ok(took >= 2000 && took < 8000, `ended ${took} ms after it began`);
		assert.deepEqual([outcome.output, outcome.exitCode, outcome.exitUnknown], ['sleeping', null, true]);
		const [first] = window.terminals;
		assert.deepEqual(first?.sent, ['\u0003']);
		assert.equal(first.disposed, true);
		const next = await runner.run('echo again', options());
		assert.equal(window.terminals.length, 2, 'a new terminal');
		const [notice, ...rest] = next.output.split('\n');
		assert.match(notice ?? '', /new "Aside" terminal.*earlier cd and export no longer apply/);
		assert.deepEqual(rest, ['again']);
		runner.dispose();
	});

	it('opens a new terminal after the person closed it, says so once, and runs there', async () => {
		const window = new FakeTerminalWindow();
		const { runner } = subject(window);
		assert.equal((await runner.run('cd sub', options())).output, '');
		window.terminals[0]?.dispose();
		await until(() => window.terminals[0]?.disposed === true, 'the close');
		await new Promise((resolve) => setImmediate(resolve));
		const next = await runner.run('echo here', options());
		assert.match(next.output, /^\[This ran in a new "Aside" terminal, opened in \/work\/project, because the previous one was closed: earlier cd and export no longer apply\.\]\nhere$/);
		assert.equal((await runner.run('echo still', options())).output, 'still', 'said once');
		assert.equal(window.terminals.length, 2);
		assert.deepEqual(window.terminals[1]?.shown, [true], 'the new one shown once too');
		runner.dispose();
	});

	it('returns at once for a signal that already fired, and for one that fires while it waits its turn', async () => {
		let held: FakeCommand | undefined;
		const window = new FakeTerminalWindow((command) => {
			held = command;
		});
		const { runner } = subject(window);
		const gone = AbortSignal.abort();
		assert.deepEqual(await runner.run('echo a', options({ signal: gone })), { output: '', exitCode: null, timedOut: false, truncated: false });
		assert.equal(window.terminals.length, 0);
		const first = runner.run('first', options());
		await until(() => held !== undefined, 'the first command');
		const controller = new AbortController();
		const waiting = runner.run('second', options({ signal: controller.signal }));
		controller.abort();
		assert.equal((await waiting).output, '');
		held?.end(0);
		await first;
		assert.deepEqual(
			window.terminals[0]?.commands.map((command) => command.command),
			['first'],
		);
		runner.dispose();
	});

	it('keeps the head and the tail of output past the cap', async () => {
		const window = new FakeTerminalWindow((command) => {
			command.print(`${'a'.repeat(100)}\n${'b'.repeat(100)}\n`);
			command.end(0);
		});
		const { runner } = subject(window);
		const outcome = await runner.run('big', options({ maxOutputBytes: 40 }));
		assert.equal(outcome.truncated, true);
		assert.match(outcome.output, /^a{20}\n\[… \d+ bytes of output omitted …\]\nb{20}$/);
		runner.dispose();
	});
});
