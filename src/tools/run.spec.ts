import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { NodeCommandRunner, nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { endsWithin } from '../testing/processState';
import { CappedOutput } from './nodeRunner';
import { invokeTool, prepareTool } from './registry';
import { RUN_MAX_OUTPUT_BYTES, runTool } from './run';

describe('Run', { skip: process.platform !== 'linux' ? 'POSIX shell commands, and /proc' : false }, () => {
	const workspace = tempWorkspace();
	const context = nodeToolContext([workspace.root]);

	after(() => {
		workspace.dispose();
	});

	it('runs in the workspace folder and reports the output and exit code', async () => {
		const result = await invokeTool(runTool, { command: 'pwd; echo oops >&2; exit 3' }, context);
		assert.equal(result.content, `${workspace.root}\noops\n\nExit code 3.`);
		assert.deepEqual(result.detail, { kind: 'command', command: 'pwd; echo oops >&2; exit 3', exitCode: 3, timedOut: false });
	});

	it('says when there was no output', async () => {
		assert.equal((await invokeTool(runTool, { command: 'true' }, context)).content, '(no output)\n\nExit code 0.');
	});

	it('stops a command at its timeout, with everything it started', async () => {
		const started = Date.now();
		const result = await invokeTool(runTool, { command: 'sleep 30 & echo $! > bg.pid; echo started; sleep 5', timeout_ms: 300 }, context);
		assert.ok(Date.now() - started < 3000, 'returns soon after the timeout');
		assert.equal(result.content, 'started\n\nTimed out after 0.3 s: the command was stopped.');
		assert.deepEqual(result.detail, { kind: 'command', command: 'sleep 30 & echo $! > bg.pid; echo started; sleep 5', exitCode: null, timedOut: true });
		const pid = Number(readFileSync(join(workspace.root, 'bg.pid'), 'utf8'));
		assert.equal(await endsWithin(pid, 3000), true, 'the background child was killed with the group');
	});

	it('caps the output, keeping its beginning and end', async () => {
		const result = await invokeTool(runTool, { command: 'echo FIRST; head -c 200000 /dev/zero | tr "\\0" x; echo; echo LAST' }, context);
		assert.ok(result.content.startsWith('FIRST\nxxx'));
		assert.ok(result.content.length < RUN_MAX_OUTPUT_BYTES + 200);
		assert.match(result.content, /\n\[… \d+ bytes of output omitted …\]\nx+\nLAST\n\nThe output was longer than 64 KB; the middle was left out\.\nExit code 0\.$/);
	});

	it('is cancelled by the signal, and kills the command', async () => {
		const controller = new AbortController();
		const started = Date.now();
		const running = invokeTool(runTool, { command: 'sleep 5' }, { ...context, signal: controller.signal });
		setTimeout(() => {
			controller.abort();
		}, 100);
		assert.deepEqual(await running, { isError: true, content: 'Run was cancelled before it finished.' });
		assert.ok(Date.now() - started < 2000);
		const outcome = await new NodeCommandRunner().run('sleep 5', { cwd: workspace.root, timeoutMs: 10_000, maxOutputBytes: 1000, signal: AbortSignal.timeout(100) });
		assert.deepEqual(outcome, { output: '', exitCode: null, timedOut: false, truncated: false });
	});

	it('asks to confirm the command line', async () => {
		assert.deepEqual(await prepareTool(runTool, { command: 'rm -rf build' }, context), { ok: true, confirmation: { title: 'Run command', target: 'rm -rf build' } });
	});

	it('rejects a timeout over ten minutes', async () => {
		assert.match((await invokeTool(runTool, { command: 'true', timeout_ms: 600_001 }, context)).content, /^Invalid input for Run: timeout_ms: Too big/);
	});
});

describe('CappedOutput', () => {
	it('keeps everything under the cap', () => {
		const output = new CappedOutput(10);
		output.push(Buffer.from('0123'));
		output.push(Buffer.from('456789'));
		assert.equal(output.truncated, false);
		assert.equal(output.text(), '0123456789');
	});

	it('keeps the first and the last half over the cap', () => {
		const output = new CappedOutput(10);
		for (const chunk of ['abc', 'defg', 'hijklmn', 'opq', 'rstuvwxyz']) {
			output.push(Buffer.from(chunk));
		}
		assert.equal(output.truncated, true);
		assert.equal(output.text(), 'abcde\n[… 16 bytes of output omitted …]\nvwxyz');
	});
});
