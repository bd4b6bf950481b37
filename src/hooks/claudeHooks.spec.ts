// Hooks written for Claude Code, copied over unchanged, against Aside's file tools through real
// turns, the real ApplyPatch and real hook processes: a matcher naming Claude Code's file tools
// (`Edit|MultiEdit|Write`) guards ApplyPatch too; each file a patch touches is one input in Claude
// Code's shape (Write's `content`, Edit's `old_string` / `new_string`, MultiEdit's `edits`, all
// with an absolute `file_path`); `permissionDecision: "deny"` refuses the whole patch; and
// `continue: false` ends the turn, its stopReason said to the person.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SeenTexts } from '../observe/seenTexts';
import { HookScripts } from '../testing/hookScripts';
import { nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { turnHarness } from '../testing/turnHarness';
import { applyPatchTool } from '../tools/applyPatch';
import type { ToolResultRecord } from '../transcript/toolResultRecord';

const scripts = new HookScripts();
const workspace = tempWorkspace('aside-claude-hooks-');
after(() => {
	scripts.dispose();
	workspace.dispose();
});

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');
const signal = () => new AbortController().signal;
const results = (records: readonly { kind: string }[]) => records.filter((record): record is ToolResultRecord => record.kind === 'tool-result');

/**
 * A guard as Claude Code's hooks guide writes one: it reads the PreToolUse input on stdin, keeps
 * `.env` files out of reach with `hookSpecificOutput.permissionDecision: "deny"`, and logs every
 * input it saw (one JSON line each) to `log`.
 */
function guard(log: string) {
	return scripts.entry(
		'protect-env',
		`let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const input=JSON.parse(s);require('fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify({tool_name: input.tool_name, tool_input: input.tool_input})+'\\n');const file=input.tool_input.file_path||'';if(file.endsWith('.env')){console.log(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse',permissionDecision:'deny',permissionDecisionReason:'Never touch '+require('path').basename(file)}}));}process.exit(0);});`,
	);
}

/** The real ApplyPatch over the temp workspace, with `names` already Read in this chat. */
function patchHarness(provider: ScriptedProvider, hooks: ReturnType<HookScripts['hooks']>['hooks'], files: Record<string, string>) {
	const seen = new SeenTexts();
	for (const [name, text] of Object.entries(files)) {
		writeFileSync(join(workspace.root, name), text);
		seen.saw(join(workspace.root, name), text);
	}
	return turnHarness(provider, { mode: 'full-access', hooks, tools: [applyPatchTool], context: (turnSignal) => nodeToolContext([workspace.root], turnSignal, seen) });
}

const seenInputs = (log: string) => readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { tool_name: string; tool_input: Record<string, unknown> });

describe('Claude Code hooks on ApplyPatch (real processes, the real tool)', () => {
	it('an Edit|MultiEdit|Write guard sees each touched file in Claude Code\'s shape and refuses the whole patch', async () => {
		const log = join(scripts.dir, 'guard-1.jsonl');
		const { hooks } = scripts.hooks({ PreToolUse: [{ matcher: 'Edit|MultiEdit|Write', hooks: [guard(log)] }] }, workspace.root);
		const call = { id: 'p1', name: 'ApplyPatch', input: { patch: patch('*** Update File: a.ts', '@@', ' one', '-two', '+TWO', '*** Update File: b.ts', '@@', '-x', '+X', '@@', '-z', '+Z', '*** Add File: .env', '+SECRET=1') } };
		const provider = new ScriptedProvider({ toolCalls: [call] }, { text: 'understood' });
		const { session, turn } = patchHarness(provider, hooks, { 'a.ts': 'one\ntwo\n', 'b.ts': 'x\ny\nz\n' });
		await turn().run('patch it', signal());
		const [result] = results(session.records);
		assert.ok(result);
		assert.equal(result.isError, true);
		assert.match(result.content ?? '', /^Not run: a PreToolUse hook you configured refused this call: Never touch \.env/);
		assert.equal(readFileSync(join(workspace.root, 'a.ts'), 'utf8'), 'one\ntwo\n', 'nothing of the patch was written');
		assert.equal(existsSync(join(workspace.root, '.env')), false);
		const [a, b, env] = seenInputs(log);
		assert.deepEqual({ name: a?.tool_name, file: a?.tool_input.file_path, old: a?.tool_input.old_string, new: a?.tool_input.new_string }, { name: 'Edit', file: join(workspace.root, 'a.ts'), old: 'one\ntwo', new: 'one\nTWO' });
		assert.deepEqual({ name: b?.tool_name, file: b?.tool_input.file_path, edits: b?.tool_input.edits }, { name: 'MultiEdit', file: join(workspace.root, 'b.ts'), edits: [{ old_string: 'x', new_string: 'X' }, { old_string: 'z', new_string: 'Z' }] });
		assert.deepEqual({ name: env?.tool_name, file: env?.tool_input.file_path, content: env?.tool_input.content }, { name: 'Write', file: join(workspace.root, '.env'), content: 'SECRET=1\n' });
	});

	it('a patch the guard lets through is written; a matcher naming Write alone matches it', async () => {
		const log = join(scripts.dir, 'guard-2.jsonl');
		const { hooks } = scripts.hooks({ PreToolUse: [{ matcher: 'Write', hooks: [guard(log)] }] }, workspace.root);
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'p2', name: 'ApplyPatch', input: { patch: patch('*** Update File: c.ts', '@@', '-old', '+new') } }] }, { text: 'done' });
		const { session, turn } = patchHarness(provider, hooks, { 'c.ts': 'old\n' });
		await turn().run('patch it', signal());
		assert.equal(results(session.records)[0]?.isError, false);
		assert.equal(readFileSync(join(workspace.root, 'c.ts'), 'utf8'), 'new\n');
		assert.deepEqual(seenInputs(log).map((input) => input.tool_name), ['Edit'], 'a matcher naming Write matches the patch');
	});

	it('continue: false on a patch ends the turn and says the stopReason to the person', async () => {
		const { hooks, notices } = scripts.hooks({ PreToolUse: [{ matcher: 'Edit|MultiEdit|Write', hooks: [scripts.entry('freeze', `console.log(JSON.stringify({continue:false, stopReason:'Code freeze until the release is out'}))`)] }] }, workspace.root);
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'p3', name: 'ApplyPatch', input: { patch: patch('*** Update File: d.ts', '@@', '-a', '+b') } }] }, { text: 'never' });
		const { turn } = patchHarness(provider, hooks, { 'd.ts': 'a\n' });
		assert.equal((await turn().run('patch it', signal())).outcome, 'done');
		assert.equal(provider.requests.length, 1, 'the turn ended after this step');
		assert.equal(readFileSync(join(workspace.root, 'd.ts'), 'utf8'), 'a\n');
		assert.deepEqual(notices, ['A PreToolUse hook stopped the agent (continue: false): Code freeze until the release is out']);
	});

	it("tool_name is Claude Code's name for the tool (Run is Bash), with Aside's beside it", async () => {
		const out = join(scripts.dir, 'bash-input.json');
		const { hooks } = scripts.hooks({ PreToolUse: [{ matcher: 'Bash', hooks: [scripts.entry('bash-log', `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{require('fs').writeFileSync(${JSON.stringify(out)}, s)})`)] }] }, workspace.root);
		await hooks.beforeTool({ name: 'Run', input: { command: 'npm test' } }, signal());
		const input = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
		assert.deepEqual({ tool_name: input.tool_name, aside_tool_name: input.aside_tool_name, tool_input: input.tool_input }, { tool_name: 'Bash', aside_tool_name: 'Run', tool_input: { command: 'npm test' } });
	});
});
