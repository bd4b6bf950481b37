// `continue: false` (Claude Code's halt) per event, through real turns and real hook processes:
// the agent stops, and the stopReason is the person's (the chat says it), not the model's. It
// is not a block: for a Stop hook a block means "keep going", a halt "stop now". Also Claude
// Code's tool_input field names beside Aside's, so a hook copied over reads what it expects.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { HookScripts } from '../testing/hookScripts';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { edits, turnHarness } from '../testing/turnHarness';
import type { ToolResultRecord } from '../transcript/toolResultRecord';
import { claudeToolInput } from './claudeInput';

const scripts = new HookScripts();
const dir = scripts.dir;
after(() => {
	scripts.dispose();
});
const script = (name: string, source: string) => scripts.entry(name, source);

/** A hook answering `continue: false` with a stopReason (and, to show a halt wins, decision: block). */
const HALT = (why: string) => script(`halt-${why.replace(/\W/g, '')}`, `console.log(JSON.stringify({continue:false, stopReason:${JSON.stringify(why)}, decision:'block', reason:'keep going'}))`);

const hooksOf = (value: unknown) => scripts.hooks(value);

const signal = () => new AbortController().signal;
const results = (records: readonly { kind: string }[]) => records.filter((record): record is ToolResultRecord => record.kind === 'tool-result');

describe('continue: false stops the agent (real processes)', () => {
	it('Stop: the turn ends — no continuation, although the same answer also says decision: block', async () => {
		const { hooks, notices } = hooksOf({ Stop: [{ hooks: [HALT('enough for today')] }] });
		const provider = new ScriptedProvider({ text: 'All done.' }, { text: 'never' });
		const { turn } = turnHarness(provider, { prompt: hooks });
		assert.equal((await turn().run('do it', signal())).outcome, 'done');
		assert.equal(provider.requests.length, 1, 'the turn was not kept going');
		assert.deepEqual(notices, ['A Stop hook stopped the agent (continue: false): enough for today']);
	});

	it('UserPromptSubmit: the message is not sent, nothing is recorded, the person sees the stopReason', async () => {
		const { hooks, notices } = hooksOf({ UserPromptSubmit: [{ hooks: [HALT('office hours are over')] }] });
		const provider = new ScriptedProvider({ text: 'never' });
		const { session, turn } = turnHarness(provider, { prompt: hooks });
		const outcome = await turn().run('hello', signal());
		assert.deepEqual(outcome.blocked, { text: 'hello', reason: 'office hours are over' });
		assert.equal(provider.requests.length, 0);
		assert.deepEqual(session.records.filter((record) => record.kind === 'user'), []);
		assert.deepEqual(notices, ['A UserPromptSubmit hook stopped the agent (continue: false); your message was not sent: office hours are over']);
	});

	it('PreToolUse: the call is refused, the turn ends after this step, and the stopReason is not the model\'s', async () => {
		edits.length = 0;
		const { hooks, notices } = hooksOf({ PreToolUse: [{ matcher: 'Edit', hooks: [HALT('freeze: release in progress')] }] });
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Edit', input: { path: 'a.ts' } }, { id: 'c2', name: 'Read', input: { path: 'b.ts' } }] }, { text: 'never' });
		const { session, turn } = turnHarness(provider, { mode: 'auto-edit', hooks });
		assert.equal((await turn().run('edit a.ts', signal())).outcome, 'done');
		assert.deepEqual(edits, [], 'the Edit did not run');
		assert.equal(provider.requests.length, 1, 'no further request');
		const [edit, read] = results(session.records);
		assert.ok(edit && read);
		assert.equal(edit.isError, true);
		assert.match(edit.content ?? '', /^Not run: a PreToolUse hook you configured stopped the agent here\. Edit did not run, and the turn ends after this step\.$/);
		assert.doesNotMatch(edit.content ?? '', /freeze/);
		assert.equal(read.isError, false, 'the rest of the step still ran');
		assert.deepEqual(notices, ['A PreToolUse hook stopped the agent (continue: false): freeze: release in progress']);
	});

	it('PostToolUse: the call already ran; the turn ends after this step', async () => {
		edits.length = 0;
		const { hooks, notices } = hooksOf({ PostToolUse: [{ matcher: 'Edit', hooks: [HALT('review needed')] }] });
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Edit', input: { path: 'a.ts' } }] }, { text: 'never' });
		const { turn } = turnHarness(provider, { mode: 'auto-edit', hooks });
		assert.equal((await turn().run('edit a.ts', signal())).outcome, 'done');
		assert.deepEqual(edits, ['a.ts']);
		assert.equal(provider.requests.length, 1);
		assert.deepEqual(notices, ['A PostToolUse hook stopped the agent (continue: false): review needed']);
	});

	it('SessionStart: its context is dropped and the chat says why', async () => {
		const { hooks, notices } = hooksOf({ SessionStart: [{ hooks: [script('start-halt', `console.log(JSON.stringify({continue:false, stopReason:'no session today', hookSpecificOutput:{additionalContext:'secret context'}}))`)] }] });
		const provider = new ScriptedProvider({ text: 'ok' });
		const { session, turn } = turnHarness(provider, { prompt: hooks });
		await turn().run('hello', signal());
		assert.doesNotMatch(JSON.stringify(provider.requests[0]?.messages), /secret context|hook-context/);
		assert.deepEqual(session.records.filter((record) => record.kind === 'hook-context'), []);
		assert.deepEqual(notices, ['A SessionStart hook stopped the agent (continue: false); its context was dropped: no session today']);
	});
});

describe("tool_input: Claude Code's field names beside Aside's", () => {
	it('file_path (absolute) for Read, Write and Edit; Bash\'s timeout; Grep\'s -i; Aside\'s own fields kept', () => {
		assert.deepEqual(claudeToolInput('Read', { path: 'src/a.ts', offset: 3 }, '/ws'), { file_path: '/ws/src/a.ts', path: 'src/a.ts', offset: 3 });
		assert.deepEqual(claudeToolInput('Write', { path: '/ws/b.ts', content: 'x' }, '/ws'), { file_path: '/ws/b.ts', path: '/ws/b.ts', content: 'x' });
		assert.deepEqual(claudeToolInput('Edit', { path: 'a.ts', old_string: 'a', new_string: 'b' }, '/ws'), { file_path: '/ws/a.ts', path: 'a.ts', old_string: 'a', new_string: 'b' });
		assert.deepEqual(claudeToolInput('Run', { command: 'ls', timeout_ms: 5000 }, '/ws'), { timeout: 5000, command: 'ls', timeout_ms: 5000 });
		assert.deepEqual(claudeToolInput('Grep', { pattern: 'x', caseSensitive: false }, '/ws'), { '-i': true, pattern: 'x', caseSensitive: false });
		assert.deepEqual(claudeToolInput('Glob', { pattern: '**/*.ts', path: 'src' }, '/ws'), { pattern: '**/*.ts', path: 'src' });
		assert.equal(claudeToolInput('Read', 'not an object', '/ws'), 'not an object');
	});

	it('a hook copied from Claude Code reads .tool_input.file_path on its stdin', async () => {
		const out = join(dir, 'seen.json');
		const { hooks } = hooksOf({ PreToolUse: [{ matcher: 'Read', hooks: [script('seen', `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(JSON.parse(s).tool_input))})`)] }] });
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'src/a.ts' } }] }, { text: 'read' });
		const { turn } = turnHarness(provider, { hooks });
		await turn().run('read it', signal());
		assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), { file_path: join(dir, 'src/a.ts'), path: 'src/a.ts' });
	});
});
