import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_HOOK_TIMEOUT_SECONDS, type HookOrigin, hooksFor, parseHooks, parseHooksFile, toolMatcher } from './config';

const USER: HookOrigin = { kind: 'user', where: 'the setting aside.hooks' };
const FILE: HookOrigin = { kind: 'workspace', where: '/ws/.aside/hooks.json' };

describe('hooks config', () => {
	it("reads Claude Code's settings example verbatim (the whole settings object, or its hooks object)", () => {
		const settings = {
			hooks: {
				PreToolUse: [
					{
						matcher: 'Bash',
						hooks: [{ type: 'command', command: "jq -r '.tool_input.command' >> ~/.claude/bash-command-log.txt" }],
					},
				],
				PostToolUse: [{ matcher: 'Edit|MultiEdit|Write', hooks: [{ type: 'command', command: 'npx prettier --write "$CLAUDE_PROJECT_DIR"', timeout: 30 }] }],
				UserPromptSubmit: [{ hooks: [{ type: 'command', command: '/path/to/validator.py' }] }],
			},
		};
		for (const value of [settings, settings.hooks]) {
			const parsed = parseHooks(value, USER);
			assert.deepEqual(parsed.problems, []);
			assert.equal(parsed.groups.length, 3);
			const pre = hooksFor(parsed.groups, 'PreToolUse', 'Run');
			assert.equal(pre.length, 1, 'Bash matches Aside\'s Run');
			assert.equal(pre[0]?.timeoutMs, DEFAULT_HOOK_TIMEOUT_SECONDS * 1000);
			assert.equal(hooksFor(parsed.groups, 'PreToolUse', 'Read').length, 0);
			assert.equal(hooksFor(parsed.groups, 'PostToolUse', 'Write')[0]?.timeoutMs, 30_000);
			assert.equal(hooksFor(parsed.groups, 'UserPromptSubmit').length, 1);
			assert.equal(hooksFor(parsed.groups, 'Stop').length, 0);
		}
	});

	it("matches tool names with Claude Code's matcher syntax", () => {
		const all = ['', '*', '  '];
		for (const matcher of all) {
			assert.equal(toolMatcher(matcher)?.('Anything') ?? false, true, `"${matcher}" matches every tool`);
		}
		const exact = toolMatcher('Write');
		assert.ok(exact);
		assert.equal(exact('Write'), true);
		assert.equal(exact('WriteFile'), false, 'a plain name matches exactly, not as a prefix');
		const alternatives = toolMatcher('Edit|Write');
		assert.deepEqual(['Edit', 'Write', 'Read'].map((name) => alternatives?.(name)), [true, true, false]);
		const regex = toolMatcher('Task.*');
		assert.deepEqual(['TaskWrite', 'TaskList', 'Run', 'Agent'].map((name) => regex?.(name)), [true, true, false, true]);
		assert.equal(toolMatcher('^Re')?.('Read'), false, 'a regex must match the whole name');
		assert.equal(toolMatcher('Re.*')?.('Read'), true);
		assert.equal(toolMatcher('Bash')?.('Run'), true);
		assert.equal(toolMatcher('(unclosed'), undefined);
	});

	it('a matcher names MCP tools as Claude Code does: one tool, a whole server, every tool of it, or a regex', () => {
		const names = ['mcp__github__create_issue', 'mcp__github__list_repos', 'mcp__my-db__query', 'mcp__githubx__x', 'Run'];
		const matching = (matcher: string) => names.filter((name) => toolMatcher(matcher)?.(name) === true);
		assert.deepEqual(matching('mcp__github__create_issue'), ['mcp__github__create_issue']);
		assert.deepEqual(matching('mcp__github'), ['mcp__github__create_issue', 'mcp__github__list_repos']);
		assert.deepEqual(matching('mcp__github__*'), ['mcp__github__create_issue', 'mcp__github__list_repos']);
		assert.deepEqual(matching('mcp__my-db|Bash'), ['mcp__my-db__query', 'Run']);
		assert.deepEqual(matching('mcp__github__.*'), ['mcp__github__create_issue', 'mcp__github__list_repos']);
	});

	it("a matcher naming Claude Code's file tools matches every Aside tool that changes files", () => {
		for (const matcher of ['Edit|MultiEdit|Write', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit', '(Edit|Write)', '.*Edit']) {
			const matches = toolMatcher(matcher);
			assert.deepEqual(['Edit', 'Write', 'ApplyPatch', 'Read', 'Run'].map((name) => matches?.(name)), [true, true, true, false, false], matcher);
		}
		assert.equal(toolMatcher('ApplyPatch')?.('Edit'), false, "Aside's own name still names one tool");
	});

	it('names every problem with where it is, and keeps the rest', () => {
		const parsed = parseHooks(
			{
				PreToolUse: [
					{ matcher: '(bad', hooks: [{ type: 'command', command: 'a' }] },
					{ matcher: 'Run', hooks: [{ type: 'prompt', prompt: 'x' }, { type: 'command', command: '' }, { type: 'command', command: 'ok', timeout: -1 }, { type: 'command', command: 'kept' }] },
				],
				Notification: [{ hooks: [{ type: 'command', command: 'n' }] }],
				Stop: 'not a list',
				SessionStart: [{ hooks: [{ type: 'command', command: 'start' }] }],
			},
			FILE,
		);
		assert.deepEqual(
			hooksFor(parsed.groups, 'PreToolUse', 'Run').map((hook) => hook.command),
			['kept'],
		);
		assert.deepEqual(hooksFor(parsed.groups, 'SessionStart').map((hook) => hook.command), ['start']);
		assert.equal(parsed.problems.length, 6, parsed.problems.join('\n'));
		for (const problem of parsed.problems) {
			assert.ok(problem.startsWith('/ws/.aside/hooks.json: '), problem);
		}
		assert.ok(parsed.problems.some((problem) => problem.includes('PreToolUse[0]') && problem.includes('(bad')));
		assert.ok(parsed.problems.some((problem) => problem.includes('PreToolUse[1].hooks[0]') && problem.includes('only "command" hooks')));
		assert.ok(parsed.problems.some((problem) => problem.includes('PreToolUse[1].hooks[2]') && problem.includes('timeout')));
		assert.ok(parsed.problems.some((problem) => problem.includes('Notification is not an event')));
		assert.ok(parsed.problems.some((problem) => problem.includes('Stop must be a list')));
	});

	it('a file that is not JSON, or a setting that is not an object, is one clear problem and no hooks', () => {
		const broken = parseHooksFile('{ "PreToolUse": [', FILE);
		assert.deepEqual(broken.groups, []);
		assert.match(broken.problems[0] ?? '', /^\/ws\/\.aside\/hooks\.json: not valid JSON/);
		const wrong = parseHooks(['PreToolUse'], USER);
		assert.deepEqual(wrong.groups, []);
		assert.match(wrong.problems[0] ?? '', /^the setting aside\.hooks: must be an object of events/);
		assert.deepEqual(parseHooks(undefined, USER), { groups: [], problems: [] });
	});

	it('an identical command named by several groups runs once', () => {
		const parsed = parseHooks({ PreToolUse: [{ matcher: 'Run', hooks: [{ type: 'command', command: 'same' }] }, { matcher: '*', hooks: [{ type: 'command', command: 'same' }, { type: 'command', command: 'other' }] }] }, USER);
		assert.deepEqual(hooksFor(parsed.groups, 'PreToolUse', 'Run').map((hook) => hook.command), ['same', 'other']);
		assert.deepEqual(hooksFor(parsed.groups, 'PreToolUse', 'Read').map((hook) => hook.command), ['same', 'other']);
	});
});
