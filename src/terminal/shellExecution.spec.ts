import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OutputStream } from '../testing/fakeTerminals';
import { collectExecution, commandFallback, type ExecutionLike } from './shellExecution';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('a command through shell integration', () => {
	it('goes to the fallback when it has several lines, a continuation or a here-document, or starts another shell', () => {
		for (const command of ['npm test\nnpm run lint', 'make \\', 'cat <<EOF', 'cat <<- "END"']) {
			assert.equal(commandFallback(command), 'multi-line', command);
		}
		for (const command of ['bash', 'zsh -l', 'pwsh', 'exec node server.js', 'sudo -i', 'sudo su', 'su', 'su - admin', 'ssh build-host', 'ssh -p 2222 me@host']) {
			assert.equal(commandFallback(command), 'nested-shell', command);
		}
		for (const command of ['npm test', 'bash scripts/build.sh', 'bash -c "make all"', 'su -c "id" admin', 'ssh build-host uptime', 'echo "a\\nb"', 'git log --oneline | head']) {
			assert.equal(commandFallback(command), undefined, command);
		}
	});

	it('keeps the stream that delivers first: the one read at once, or the one read again at the start event on a cold shell', async () => {
		// Warm: the first stream has the output; the second read at the start event is not even taken.
		const warm = [new OutputStream(), new OutputStream()];
		let reads = 0;
		const warmExecution: ExecutionLike = { read: () => warm[reads++] as OutputStream };
		let end: (code: number | undefined) => void = () => undefined;
		const got: string[] = [];
		let start: () => void = () => undefined;
		const done = collectExecution(warmExecution, new Promise((resolve) => (end = resolve)), (chunk) => got.push(chunk), {
			drainMs: 50,
			started: new Promise((resolve) => (start = resolve)),
		});
		warm[0]?.push('hello\r\n');
		await tick();
		start();
		await tick();
		warm[0]?.close();
		end(0);
		assert.equal(await done, 0);
		assert.deepEqual(got, ['hello\r\n']);
		assert.equal(reads, 1, 'no second read once the first delivered');

		// Cold: the first read never delivers; the second, at the start event, does.
		const cold = [new OutputStream(), new OutputStream()];
		reads = 0;
		const coldGot: string[] = [];
		const coldExecution: ExecutionLike = { read: () => cold[reads++] as OutputStream };
		const coldDone = collectExecution(coldExecution, new Promise((resolve) => (end = resolve)), (chunk) => coldGot.push(chunk), {
			drainMs: 50,
			started: new Promise((resolve) => (start = resolve)),
		});
		start();
		await tick();
		cold[1]?.push('built\n');
		cold[1]?.close();
		end(2);
		assert.equal(await coldDone, 2);
		assert.deepEqual(coldGot, ['built\n']);
		assert.equal(reads, 2);
	});

	it('finishes a short drain after the end even when read() never closes, and keeps an unreported exit code unknown', async () => {
		const stream = new OutputStream();
		const got: string[] = [];
		let end: (code: number | undefined) => void = () => undefined;
		const done = collectExecution({ read: () => stream }, new Promise((resolve) => (end = resolve)), (chunk) => got.push(chunk), { drainMs: 30 });
		stream.push('last words\n');
		await tick();
		end(undefined);
		const started = Date.now();
		assert.equal(await done, undefined);
		assert.ok(Date.now() - started < 1000, 'the drain ended the read');
		stream.push('too late\n');
		await tick();
		assert.deepEqual(got, ['last words\n']);
	});
});
