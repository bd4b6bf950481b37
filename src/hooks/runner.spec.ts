import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { endsWithin } from '../testing/processState';
import type { HookCommand } from './config';
import { type HookFacts, runHook, runHooks } from './runner';

// Real child processes: each hook is a node script in a temp folder, run through the shell.
const dir = mkdtempSync(join(tmpdir(), 'aside-hooks-'));
after(() => {
	rmSync(dir, { recursive: true, force: true });
});

function hook(name: string, source: string, timeoutMs = 10_000): HookCommand {
	const file = join(dir, `${name}.js`);
	writeFileSync(file, source);
	return { command: `${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`, timeoutMs, origin: { kind: 'user', where: 'the setting aside.hooks' } };
}

const PRE: HookFacts = { event: 'PreToolUse', sessionId: 's-1', cwd: dir, tool: { name: 'Run', input: { command: 'rm -rf /' } } };
const run = (command: HookCommand, facts: HookFacts = PRE, maxOutputBytes?: number) => runHook(
	command,
	facts,
	{ signal: new AbortController().signal, ...(maxOutputBytes ? { maxOutputBytes } : {}) },
);

describe('hook runner (real processes)', () => {
	it("writes Claude Code's event JSON on stdin, in the workspace folder, with CLAUDE_PROJECT_DIR", async () => {
		const out = join(dir, 'stdin.json');
		const answer = await run(hook('echo', `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({input: JSON.parse(s), cwd: process.cwd(), env: process.env.CLAUDE_PROJECT_DIR}));});`));
		assert.deepEqual(answer, { kind: 'allow' });
		const seen = JSON.parse(readFileSync(out, 'utf8')) as { input: Record<string, unknown>; cwd: string; env: string };
		assert.deepEqual(seen.input, { session_id: 's-1', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Run', tool_input: { command: 'rm -rf /' } });
		assert.equal(seen.cwd, dir);
		assert.equal(seen.env, dir);
	});

	it('exit 2 blocks with stderr as the reason', async () => {
		assert.deepEqual(await run(hook('exit2', `process.stderr.write('rm is not allowed\\n'); process.exit(2);`)), { kind: 'block', reason: 'rm is not allowed' });
	});

	it('JSON on stdout: decision block, permissionDecision deny, continue false (a halt, not a block, and it wins over decision), additional context', async () => {
		assert.deepEqual(await run(hook('json-block', `console.log(JSON.stringify({decision:'block', reason:'not on main'}))`)), { kind: 'block', reason: 'not on main' });
		assert.deepEqual(await run(hook('json-deny', `console.log(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse', permissionDecision:'deny', permissionDecisionReason:'policy'}}))`)), { kind: 'block', reason: 'policy' });
		assert.deepEqual(await run(hook('json-stop', `console.log(JSON.stringify({continue:false, stopReason:'done for today'}))`)), { kind: 'halt', reason: 'done for today' });
		assert.deepEqual(await run(hook('json-stop-block', `console.log(JSON.stringify({continue:false, stopReason:'stop here', decision:'block', reason:'keep going'}))`)), { kind: 'halt', reason: 'stop here' });
		assert.deepEqual(await run(hook('json-stop-bare', `console.log(JSON.stringify({continue:false, reason:'for the model'}))`)), { kind: 'halt', reason: 'the hook asked to stop (continue: false)' }, 'reason is the model\'s; the person gets stopReason');
		assert.deepEqual(await run(hook('json-context', `console.log(JSON.stringify({hookSpecificOutput:{hookEventName:'PostToolUse', additionalContext:'lint is clean'}}))`)), { kind: 'allow', context: 'lint is clean' });
	});

	it('plain stdout is context for SessionStart and UserPromptSubmit only', async () => {
		const plain = hook('plain', `console.log('branch: feature/x')`);
		assert.deepEqual(await run(plain, { event: 'SessionStart', sessionId: 's', cwd: dir, source: 'startup' }), { kind: 'allow', context: 'branch: feature/x' });
		assert.deepEqual(await run(plain), { kind: 'allow' });
	});

	it('another exit code is a failure naming the code and stderr, not a block', async () => {
		assert.deepEqual(await run(hook('exit1', `process.stderr.write('boom'); process.exit(1);`)), { kind: 'failed', message: 'exited with code 1: boom' });
		const missing = await run({ command: 'aside-no-such-command-xyz', timeoutMs: 10_000, origin: { kind: 'user', where: 'x' } });
		assert.equal(missing.kind, 'failed');
	});

	it('garbage that looks like JSON is a failure saying so', async () => {
		const answer = await run(hook('garbage', `console.log('{"decision": "block", oops')`));
		assert.ok(answer.kind === 'failed');
		assert.match(answer.message, /not valid JSON/);
	});

	it('a hook that hangs is stopped at its timeout, and so is what it started', async () => {
		const answer = await run(hook('hang', `require('child_process').spawn(process.execPath, ['-e', 'setInterval(()=>{}, 1000)'], {stdio: 'inherit'}); setInterval(() => {}, 1000);`, 300));
		assert.deepEqual(answer, { kind: 'failed', message: 'did not finish within 0.3 s and was stopped' });
	});

	it('a hook that exited but left a background job holding its stdout/stderr is answered by its exit, not timed out', async () => {
		// A real shell script: the job inherits the hook's stdio, as `cmd &` in a hook does.
		const script = join(dir, 'background.sh');
		const pidFile = join(dir, 'background.pid');
		writeFileSync(script, `#!/bin/sh\nsleep 60 &\necho $! > ${JSON.stringify(pidFile)}\necho '{"decision":"block","reason":"formatted in the background"}'\nexit 0\n`);
		chmodSync(script, 0o755);
		const answer = await run({ command: JSON.stringify(script), timeoutMs: 5000, origin: { kind: 'user', where: 'the setting aside.hooks' } });
		try {
			process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
		} catch {
			// Already gone.
		}
		assert.deepEqual(answer, { kind: 'block', reason: 'formatted in the background' });
	});

	it('at its timeout the whole process group of a hook that never answers is stopped', async () => {
		const script = join(dir, 'never.sh');
		const pidFile = join(dir, 'never.pid');
		writeFileSync(script, `#!/bin/sh\nsleep 60 &\necho $! > ${JSON.stringify(pidFile)}\nwait\n`);
		chmodSync(script, 0o755);
		const answer = await run({ command: JSON.stringify(script), timeoutMs: 500, origin: { kind: 'user', where: 'the setting aside.hooks' } });
		assert.deepEqual(answer, { kind: 'failed', message: 'did not finish within 0.5 s and was stopped' });
		assert.equal(await endsWithin(Number(readFileSync(pidFile, 'utf8')), 3000), true, 'the background job was stopped with the hook');
	});

	it('a hook that prints past the cap is stopped', async () => {
		const answer = await run(hook('flood', `const s='x'.repeat(4096); (function w(){ while(process.stdout.write(s)){} process.stdout.once('drain', w); })();`), PRE, 16 * 1024);
		assert.deepEqual(answer, { kind: 'failed', message: 'printed more than 16384 bytes on stdout and was stopped' });
	});

	it('Stop (the turn signal) stops running hooks at once', async () => {
		const controller = new AbortController();
		const pending = runHook(hook('wait', `setInterval(() => {}, 1000)`, 60_000), PRE, { signal: controller.signal });
		setImmediate(() => {
			controller.abort();
		});
		assert.deepEqual(await pending, { kind: 'failed', message: 'was stopped with the turn' });
	});

	it('runs the hooks of an event together and gathers blocks, contexts and failures in order', async () => {
		const outcome = await runHooks([hook('a', `console.log(JSON.stringify({hookSpecificOutput:{additionalContext:'one'}}))`), hook('b', `process.stderr.write('no'); process.exit(2)`), hook('c', `process.exit(3)`)], PRE, { signal: new AbortController().signal });
		assert.deepEqual(outcome.contexts.map((entry) => entry.context), ['one']);
		assert.deepEqual(outcome.blocks.map((entry) => entry.reason), ['no']);
		assert.deepEqual(outcome.failures.map((entry) => entry.message), ['exited with code 3']);
	});
});
