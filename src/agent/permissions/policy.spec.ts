// The permission policy's order: trust and plan mode, deny rules, protected paths, ask rules,
// allow rules, then the mode — each with the reason the person and the model read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PERMISSION_MODES, type PermissionMode } from '../../vocabulary/permissionModes';
import { decidePermission, OPEN_CONTEXT, type PermissionContext, type PolicyCall } from './policy';
import { protectedReason } from './protectedPaths';
import { parsePermissionRules } from './rules';

const ROOTS = ['/ws'];
const read = (path: string): PolicyCall => ({ tool: 'Read', kind: 'read', paths: [`/ws/${path}`] });
const edit = (...paths: string[]): PolicyCall => ({ tool: 'Edit', kind: 'write', paths: paths.map((path) => `/ws/${path}`) });
const run = (command: string): PolicyCall => ({ tool: 'Run', kind: 'run', command, paths: [] });

function withRules(value: unknown, overrides: Partial<PermissionContext> = {}): PermissionContext {
	const { rules, problems } = parsePermissionRules(value);
	assert.deepEqual(problems, []);
	return { ...OPEN_CONTEXT, rules, ...overrides };
}

const verdict = (call: PolicyCall, mode: PermissionMode, context = OPEN_CONTEXT): string => decidePermission(call, mode, context, ROOTS).verdict;

describe('the permission policy', () => {
	it('the mode decides when nothing else does', () => {
		const table = PERMISSION_MODES.map((mode) => [mode, verdict(read('a.ts'), mode), verdict(edit('a.ts'), mode), verdict(run('ls'), mode)]);
		assert.deepEqual(table, [
			['ask', 'allow', 'ask', 'ask'],
			['auto-edit', 'allow', 'allow', 'ask'],
			['plan', 'allow', 'deny', 'deny'],
			['full-access', 'allow', 'allow', 'allow'],
		]);
		assert.deepEqual(decidePermission(run('ls'), 'full-access', OPEN_CONTEXT, ROOTS), { verdict: 'allow', reason: 'full-access mode runs a command without asking', byMode: true });
		assert.equal(decidePermission(edit('a.ts'), 'ask', OPEN_CONTEXT, ROOTS).reason, 'ask mode asks before a file change');
	});

	it('reads deny, then ask, then allow: deny wins over ask, ask over allow', () => {
		const context = withRules({ allow: ['Run(git *)', 'Edit'], ask: ['Run(git push *)', 'Edit(src/**)'], deny: ['Run(git push --force*)', 'Edit(**/*.lock)'] });
		assert.equal(verdict(run('git status'), 'ask', context), 'allow');
		assert.equal(verdict(run('git push origin'), 'full-access', context), 'ask');
		assert.equal(verdict(run('git push --force origin'), 'full-access', context), 'deny');
		assert.equal(verdict(edit('yarn.lock'), 'full-access', context), 'deny');
		assert.equal(verdict(edit('src/a.ts'), 'full-access', context), 'ask');
		assert.equal(verdict(edit('docs/a.md'), 'ask', context), 'allow');
		assert.deepEqual(decidePermission(run('git push --force'), 'ask', context, ROOTS), { verdict: 'deny', reason: 'the rule Run(git push --force*) in aside.permissions.rules "deny" refuses it', byMode: false });
		assert.equal(decidePermission(run('git push'), 'ask', context, ROOTS).reason, 'the rule Run(git push *) in aside.permissions.rules "ask" asks for it');
		assert.equal(decidePermission(run('git status'), 'ask', context, ROOTS).reason, 'allowed by Run(git *) in aside.permissions.rules "allow"');
	});

	it('a rule naming Run covers RunOutput and RunStop by their process\'s command: a deny refuses them; nothing makes them ask', () => {
		const process = (tool: 'RunOutput' | 'RunStop', command?: string): PolicyCall => ({ tool, kind: 'read', ...(command === undefined ? {} : { command }), paths: [] });
		const context = withRules({ ask: ['Run'], deny: ['Run(npm run dev*)'] });
		assert.deepEqual(decidePermission(process('RunOutput', 'npm run dev -- --port 3000'), 'full-access', context, ROOTS), {
			verdict: 'deny',
			reason: 'the rule Run(npm run dev*) in aside.permissions.rules "deny" refuses it',
			byMode: false,
		});
		assert.equal(verdict(process('RunStop', 'npm run dev'), 'ask', context), 'deny');
		assert.equal(verdict(process('RunOutput', 'make watch'), 'ask', context), 'allow', 'an ask rule does not make its own process ask');
		assert.equal(verdict(process('RunStop', 'make watch'), 'plan', context), 'allow');
		assert.equal(verdict(process('RunStop'), 'ask', withRules({ deny: ['Run'] })), 'deny', 'a bare Run rule covers a process it cannot name');
		assert.equal(verdict(process('RunStop'), 'ask', withRules({ deny: ['Run(npm *)'] })), 'allow', 'a pattern matches no unknown process');
		assert.equal(verdict(process('RunOutput', 'npm run dev'), 'ask', withRules({ deny: ['Read'] })), 'allow', 'a rule naming another tool does not');
	});

	it('an allow rule lets a command run without asking in ask mode, but not one chained to another', () => {
		const context = withRules({ allow: ['Run(npm test*)'] });
		assert.equal(verdict(run('npm test'), 'ask', context), 'allow');
		assert.equal(verdict(run('npm test && rm -rf /'), 'ask', context), 'ask');
		assert.equal(verdict(run('npm test && rm -rf /'), 'full-access', context), 'allow', 'full-access runs it anyway: the rule only widens what runs without asking');
		assert.match(decidePermission(run('npm test $(rm x)'), 'ask', context, ROOTS).reason, /^ask mode asks before a command \(no allow rule covers this line: it runs a command substitution\)$/);
	});

	it('rules apply to reads too', () => {
		const context = withRules({ deny: ['Read(**/.env)'], ask: ['Read(secrets/**)'] });
		assert.equal(verdict(read('.env'), 'full-access', context), 'deny');
		assert.equal(verdict(read('app/.env'), 'plan', context), 'deny');
		assert.equal(verdict(read('secrets/key.txt'), 'ask', context), 'ask');
		assert.equal(verdict(read('src/a.ts'), 'ask', context), 'allow');
	});

	it('a change to a protected path asks in every mode, and no allow rule lifts it; a deny rule still refuses', () => {
		const allowAll = withRules({ allow: ['Edit', 'Write', 'Edit(**)'] });
		for (const path of ['.git/config', '.git/hooks/pre-commit', 'sub/.git/HEAD', 'worktree/.git', '.vscode/settings.json', '.vscode/tasks.json', 'pkg/.vscode/launch.json', '.aside/rules.json', 'app.code-workspace', '.GIT/config', '.VSCode/Settings.json', 'App.Code-Workspace']) {
			for (const mode of ['ask', 'auto-edit', 'full-access'] as const) {
				assert.equal(verdict(edit(path), mode, allowAll), 'ask', `${path} in ${mode}`);
			}
		}
		assert.match(decidePermission(edit('.vscode/settings.json'), 'full-access', allowAll, ROOTS).reason, /^\.vscode\/settings\.json is under \.vscode\/, a protected path: Aside asks before changing it in every mode$/);
		assert.equal(verdict(edit('src/a.ts', '.git/config'), 'full-access', allowAll), 'ask', 'one protected file among several is enough');
		assert.equal(verdict(edit('.git/config'), 'full-access', withRules({ deny: ['Edit(.git/**)'] })), 'deny');
		for (const path of ['.gitignore', '.github/workflows/ci.yml', 'src/vscode/settings.ts', 'my.git/x', 'a.code-workspace.md']) {
			assert.equal(verdict(edit(path), 'full-access'), 'allow', path);
		}
		assert.equal(verdict(read('.git/config'), 'ask'), 'allow', 'reading a protected path is not a change');
	});

	it('what Aside loads as instructions, profiles, skills, hooks or MCP asks in every mode, and the card says why', () => {
		const allowAll = withRules({ allow: ['Edit', 'Write', 'Edit(**)'] });
		const told = ['.claude/settings.json', '.claude/agents/reviewer.md', 'pkg/.claude/skills/x/SKILL.md', '.github/skills/x/SKILL.md', '.github/instructions/ts.instructions.md', '.github/copilot-instructions.md', '.github/prompts/p.prompt.md', '.github/agents/a.agent.md', '.github/chatmodes/c.chatmode.md', 'CLAUDE.md', 'src/CLAUDE.md', 'CLAUDE.local.md', 'AGENTS.md', 'deep/er/AGENTS.md', 'AGENTS.local.md', 'sub/AGENTS.local.md', '.clinerules', '.clinerules/style.md', '.cursorrules', '.cursor/rules/a.mdc', '.cursor/mcp.json', '.roo/rules/a.md', '.roomodes', '.mcp.json', 'Claude.MD', '.Claude/settings.json'];
		for (const path of told) {
			for (const mode of ['ask', 'auto-edit', 'full-access'] as const) {
				assert.equal(verdict(edit(path), mode, allowAll), 'ask', `${path} in ${mode}`);
			}
		}
		assert.equal(decidePermission(edit('CLAUDE.md'), 'full-access', allowAll, ROOTS).reason, 'CLAUDE.md is protected (this file changes what the agent is told): Aside asks before changing it in every mode');
		assert.equal(decidePermission(edit('.claude/hooks/check.sh'), 'full-access', allowAll, ROOTS).reason, '.claude/hooks/check.sh is under .claude/ (this file changes what the agent is told): Aside asks before changing it in every mode');
		assert.match(decidePermission(edit('.git/config'), 'full-access', allowAll, ROOTS).reason, /^\.git\/config is under \.git\/, a protected path:/, 'the other protected paths keep their reason');
		for (const path of ['.github/workflows/ci.yml', '.github/CODEOWNERS', 'docs/claude.md.txt', 'MY_AGENTS.md', 'src/mcp.json', 'cursor/x.ts', 'README.md']) {
			assert.equal(verdict(edit(path), 'full-access'), 'allow', path);
		}
	});

	it('Aside\'s own storage is protected too', () => {
		const context: PermissionContext = { ...OPEN_CONTEXT, storage: ['/ws/.storage/aside'] };
		assert.equal(verdict(edit('.storage/aside/sessions/x.jsonl'), 'full-access', context), 'ask');
		assert.equal(protectedReason('/ws/.storage/aside/sessions/x.jsonl', ROOTS, ['/ws/.storage/aside']), '.storage/aside/sessions/x.jsonl is in Aside\'s own storage');
		assert.equal(verdict(edit('.storage/other.txt'), 'full-access', context), 'allow');
	});

	it('a tool\'s own always-ask reason asks in every mode', () => {
		const linked: PolicyCall = { ...edit('a.ts'), alwaysAsk: 'a.ts has 2 hard links.' };
		assert.deepEqual(decidePermission(linked, 'full-access', withRules({ allow: ['Edit'] }), ROOTS), { verdict: 'ask', reason: 'a.ts has 2 hard links.', byMode: false });
	});

	it('an untrusted workspace stays read-only whatever the mode and the rules', () => {
		const context = withRules({ allow: ['Run', 'Edit', 'Write'] }, { trusted: false });
		for (const mode of PERMISSION_MODES) {
			assert.equal(verdict(edit('a.ts'), mode, context), 'deny', mode);
			assert.equal(verdict(run('npm test'), mode, context), 'deny', mode);
			assert.equal(verdict(read('a.ts'), mode, context), 'allow', mode);
		}
		assert.match(decidePermission(run('ls'), 'full-access', context, ROOTS).reason, /not trusted \(Restricted Mode\)/);
	});

	it('plan mode refuses every change and command whatever the rules', () => {
		const context = withRules({ allow: ['Run', 'Edit'] });
		assert.equal(verdict(run('npm test'), 'plan', context), 'deny');
		assert.equal(verdict(edit('a.ts'), 'plan', context), 'deny');
		assert.equal(decidePermission(edit('a.ts'), 'plan', context, ROOTS).reason, 'plan mode is read-only: nothing is changed or run');
	});

	it('matches paths relative to the workspace folder that holds them', () => {
		const context = withRules({ deny: ['Edit(lib/**)'] });
		assert.equal(decidePermission({ tool: 'Edit', kind: 'write', paths: ['/other/lib/a.ts'] }, 'full-access', context, ['/ws', '/other']).verdict, 'deny');
		assert.equal(decidePermission({ tool: 'Edit', kind: 'write', paths: ['/ws/src/lib/a.ts'] }, 'full-access', context, ['/ws', '/other']).verdict, 'allow');
	});
});

describe('the policy for MCP tools', () => {
	const call: PolicyCall = { tool: 'mcp__everything__echo', kind: 'run', paths: [] };

	it('asks in ask and auto-edit mode, runs in full access, and plan mode refuses; "Always allow" proposes the tool\'s name', () => {
		const asked = decidePermission(call, 'ask', OPEN_CONTEXT, ['/ws']);
		assert.equal(asked.verdict, 'ask');
		assert.equal(asked.reason, 'ask mode asks before an MCP tool call');
		assert.deepEqual(asked.allowRules, ['mcp__everything__echo']);
		assert.equal(decidePermission(call, 'auto-edit', OPEN_CONTEXT, ['/ws']).verdict, 'ask');
		assert.equal(decidePermission(call, 'full-access', OPEN_CONTEXT, ['/ws']).verdict, 'allow');
		assert.equal(decidePermission(call, 'plan', OPEN_CONTEXT, ['/ws']).verdict, 'deny');
	});

	it('full access still keeps deny and ask rules; an allow rule for the server lets it run in ask mode', () => {
		const context = (value: unknown): PermissionContext => ({ ...OPEN_CONTEXT, rules: parsePermissionRules(value).rules });
		assert.equal(decidePermission(call, 'full-access', context({ deny: ['mcp__everything'] }), ['/ws']).verdict, 'deny');
		assert.equal(decidePermission(call, 'full-access', context({ ask: ['mcp__everything__*'] }), ['/ws']).verdict, 'ask');
		assert.equal(decidePermission(call, 'ask', context({ allow: ['mcp__everything'] }), ['/ws']).verdict, 'allow');
	});
});
