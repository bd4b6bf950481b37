// The person's PreToolUse / PostToolUse hooks in a real turn loop, as real node processes: a
// block refuses the call (it does not run), the next request carries hook.outcome; a failing hook
// is said in the chat and blocks nothing.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { HookScripts } from '../testing/hookScripts';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { edits, lastText, turnHarness } from '../testing/turnHarness';
import { hookName } from './toolHooks';

const scripts = new HookScripts();
after(() => {
	scripts.dispose();
});
const script = (name: string, source: string) => scripts.command(name, source);
const hooksOf = (value: unknown) => scripts.hooks(value);

describe('tool hooks in the turn loop (real processes)', () => {
	it('a PreToolUse block (exit 2) refuses the call: it does not run, its result says why, the next request carries hook.outcome', async () => {
		edits.length = 0;
		const { hooks, notices } = hooksOf({ PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: script('deny', `process.stderr.write('generated files are read-only'); process.exit(2)`) }] }] });
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Edit', input: { path: 'gen.ts' } }, { id: 'c2', name: 'Read', input: { path: 'a.ts' } }] }, { text: 'understood' });
		const { session, turn, asked } = turnHarness(provider, { mode: 'auto-edit', hooks });
		await turn().run('edit gen.ts', new AbortController().signal);
		assert.deepEqual(edits, [], 'the refused Edit did not run');
		assert.deepEqual(asked, [], 'a refused call is never asked about');
		const results = session.records.filter((record) => record.kind === 'tool-result');
		assert.equal(results.length, 2);
		const [edit, read] = results;
		assert.ok(edit?.kind === 'tool-result' && read?.kind === 'tool-result');
		assert.equal(edit.isError, true);
		assert.match(edit.content ?? '', /^Not run: a PreToolUse hook you configured refused this call: generated files are read-only\nEdit did not run/);
		assert.equal(read.isError, false, 'a call the matcher does not match runs');
		const second = provider.requests[1]?.messages ?? [];
		assert.match(lastText(second), /^<system-reminder key="hook\.outcome">\nHOOK REFUSED: a PreToolUse hook the user configured refused the Edit call; it did not run\.[^]*The hook said: generated files are read-only/);
		assert.deepEqual(notices, []);
	});

	it('a PostToolUse hook objecting to a call that ran, or adding context, is hook.outcome too', async () => {
		edits.length = 0;
		const { hooks } = hooksOf({
			PostToolUse: [
				{ matcher: 'Edit', hooks: [{ type: 'command', command: script('object', `console.log(JSON.stringify({decision: 'block', reason: 'lint failed: missing semicolon'}))`) }] },
				{ matcher: '*', hooks: [{ type: 'command', command: script('context', `console.log(JSON.stringify({hookSpecificOutput: {hookEventName: 'PostToolUse', additionalContext: 'formatted with prettier'}}))`) }] },
			],
		});
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Edit', input: { path: 'a.ts' } }] }, { text: 'fixing' });
		const { turn } = turnHarness(provider, { mode: 'auto-edit', hooks });
		await turn().run('edit a.ts', new AbortController().signal);
		assert.deepEqual(edits, ['a.ts'], 'PostToolUse runs after the call ran');
		const body = lastText(provider.requests[1]?.messages ?? []);
		assert.match(body, /^<system-reminder key="hook\.outcome">\nHOOK OBJECTED: a PostToolUse hook the user configured objected to the Edit call, which already ran[^]*lint failed: missing semicolon/);
		assert.match(body, /added this about the Edit call:\nformatted with prettier/);
	});

	it('a hook that fails or prints garbage blocks nothing and is said in the chat, naming its program only', async () => {
		edits.length = 0;
		const { hooks, notices } = hooksOf({ PreToolUse: [{ hooks: [{ type: 'command', command: `${script('crash', `process.stderr.write('ENOENT config'); process.exit(1)`)} --token=SECRET123` }, { type: 'command', command: script('garbage', `console.log('{not json')`) }] }] });
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Edit', input: { path: 'a.ts' } }] }, { text: 'done' });
		const { turn } = turnHarness(provider, { mode: 'auto-edit', hooks });
		await turn().run('edit a.ts', new AbortController().signal);
		assert.deepEqual(edits, ['a.ts']);
		assert.equal(notices.length, 2);
		assert.match(notices[0] ?? '', /^The PreToolUse hook ".*node.*" \(the setting aside\.hooks\) exited with code 1: ENOENT config\. It did not block the Edit call\.$/);
		assert.match(notices[1] ?? '', /not valid JSON/);
		assert.ok(!notices.join('\n').includes('SECRET123'), 'the rest of a command line never reaches a message');
		assert.ok(!lastText(provider.requests[1]?.messages ?? []).includes('hook.outcome'));
	});

	it('names a hook by its program', () => {
		assert.equal(hookName('  ./check.sh --token=abc'), '"./check.sh"');
	});
});
