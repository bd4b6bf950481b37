// "Always allow": the rules proposed for a call (a sensible generalisation that still covers it,
// none where no rule can express it), when the policy offers them, and their merge into the
// person's own setting (nothing of theirs dropped or reordered).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryUserRules } from '../../testing/memoryUserRules';
import { mergeAllowRules, proposeAllowRules, saveAllowRules } from './alwaysAllow';
import { splitCommandLine } from './commandLine';
import { decidePermission, OPEN_CONTEXT, type PermissionContext, type PolicyCall } from './policy';
import { parsePermissionRules, type PermissionRule, type RuleSubject } from './rules';

const ROOTS = ['/ws'];
const run = (command: string): RuleSubject => ({ tool: 'Run', kind: 'run', command: splitCommandLine(command), paths: [] });
const write = (tool: string, ...paths: string[]): RuleSubject => ({ tool, kind: 'write', paths });
const allowRules = (...texts: string[]): readonly PermissionRule[] => parsePermissionRules({ allow: texts }).rules.allow;
const propose = (subject: RuleSubject, ...existing: string[]) => proposeAllowRules(subject, allowRules(...existing));

function context(value: unknown): PermissionContext {
	return { ...OPEN_CONTEXT, rules: parsePermissionRules(value).rules };
}

describe('the rules "Always allow" proposes', () => {
	it('a command: the program and its subcommand words, with or without more arguments', () => {
		assert.deepEqual(propose(run('npm test')), ['Run(npm test *)']);
		assert.deepEqual(propose(run('npm test -- --grep parser')), ['Run(npm test *)']);
		assert.deepEqual(propose(run('npm run test:unit --silent')), ['Run(npm run test:unit *)']);
		assert.deepEqual(propose(run('git  status   --short')), ['Run(git status *)']);
		assert.deepEqual(propose(run('git log --oneline -5')), ['Run(git log *)']);
	});

	it('a command without a subcommand, or one that runs whatever follows it: exactly that command', () => {
		assert.deepEqual(propose(run('ls -la src')), ['Run(ls -la src)']);
		assert.deepEqual(propose(run('rm -rf build')), ['Run(rm -rf build)'], 'never Run(rm *)');
		assert.deepEqual(propose(run('pytest')), ['Run(pytest)']);
		assert.deepEqual(propose(run('node scripts/build.js')), ['Run(node scripts/build.js)']);
		assert.deepEqual(propose(run('sudo apt update')), ['Run(sudo apt update)'], 'never Run(sudo apt *)');
		assert.deepEqual(propose(run('bash -c "make all"')), ['Run(bash -c "make all")']);
		assert.deepEqual(propose(run('FOO=1 npm test')), ['Run(FOO=1 npm test)'], 'an assignment before the program is kept');
	});

	it('a line of several commands: one rule for each the rules in place do not cover yet', () => {
		assert.deepEqual(propose(run('npm run build && npm test')), ['Run(npm run build *)', 'Run(npm test *)']);
		assert.deepEqual(propose(run('npm run build && npm test'), 'Run(npm test*)'), ['Run(npm run build *)']);
		assert.deepEqual(propose(run('git status; git status --short')), ['Run(git status *)'], 'once for both');
		assert.equal(propose(run('a x && b y && c z && d w')), undefined, 'more than three rules is no "this"');
	});

	it('none for a line no allow rule can cover: substitution, redirection to a file, an unclosed quote, an operator inside quotes', () => {
		assert.equal(propose(run('echo $(whoami)')), undefined);
		assert.equal(propose(run('npm test > out.txt')), undefined);
		assert.equal(propose(run('echo "unclosed')), undefined);
		assert.equal(propose(run('grep -c "a;b" notes.txt')), undefined, 'Run(grep -c "a;b" notes.txt) would be refused as a rule');
		assert.equal(propose(run('')), undefined);
	});

	it('a file change: every change under its folder, or the file itself at the top level; Edit(…) for every write tool', () => {
		assert.deepEqual(propose(write('Edit', 'src/greeting.ts')), ['Edit(src/**)']);
		assert.deepEqual(propose(write('Write', 'docs/guide/new.md')), ['Edit(docs/guide/**)']);
		assert.deepEqual(propose(write('Edit', 'README.md')), ['Edit(README.md)']);
		assert.deepEqual(propose(write('ApplyPatch', 'src/lib/a.ts', 'src/b.ts', 'test/c.ts')), ['Edit(src/**)', 'Edit(test/**)'], 'src/** stands for src/lib/** too');
		assert.deepEqual(propose(write('Edit', 'src/a.ts', 'docs/b.md'), 'Edit(src/**)'), ['Edit(docs/**)'], 'only what is not covered yet');
	});

	it('a folder named like a pattern is never written as one: its parent stands in, or nothing at the top', () => {
		assert.deepEqual(propose(write('Edit', 'app/[id]/page.tsx')), ['Edit(app/**)']);
		assert.equal(propose(write('Edit', '[id].tsx')), undefined);
		assert.equal(propose(write('Edit', '/outside/a.ts')), undefined, 'a path outside the workspace');
		assert.equal(propose(write('Edit')), undefined, 'a call that declares no file');
	});

	it('is offered by the policy only when the mode alone asks', () => {
		const call = (command: string): PolicyCall => ({ tool: 'Run', kind: 'run', command, paths: [] });
		const edit = (path: string): PolicyCall => ({ tool: 'Edit', kind: 'write', paths: [`/ws/${path}`] });
		assert.deepEqual(decidePermission(call('npm test'), 'ask', OPEN_CONTEXT, ROOTS).allowRules, ['Run(npm test *)']);
		assert.deepEqual(decidePermission(edit('src/a.ts'), 'ask', OPEN_CONTEXT, ROOTS).allowRules, ['Edit(src/**)']);
		assert.deepEqual(decidePermission(call('npm test'), 'auto-edit', OPEN_CONTEXT, ROOTS).allowRules, ['Run(npm test *)']);
		const none = [
			decidePermission(edit('.vscode/settings.json'), 'ask', OPEN_CONTEXT, ROOTS),
			decidePermission(edit('.git/config'), 'full-access', OPEN_CONTEXT, ROOTS),
			decidePermission(call('git push origin'), 'ask', context({ ask: ['Run(git push *)'] }), ROOTS),
			decidePermission({ ...edit('a.ts'), alwaysAsk: 'a.ts has 2 hard links.' }, 'ask', OPEN_CONTEXT, ROOTS),
			decidePermission(call('npm test'), 'plan', OPEN_CONTEXT, ROOTS),
			decidePermission(call('npm test'), 'ask', { ...OPEN_CONTEXT, trusted: false }, ROOTS),
			decidePermission(call('npm test'), 'full-access', OPEN_CONTEXT, ROOTS),
		];
		assert.deepEqual(none.map((decision) => decision.allowRules), none.map(() => undefined));
	});

	it('what it proposes, once saved, allows the same call', () => {
		for (const [call, rules] of [
			[{ tool: 'Run', kind: 'run', command: 'npm run build && npm test -- -x', paths: [] }, undefined],
			[{ tool: 'Write', kind: 'write', paths: ['/ws/app/[id]/page.tsx', '/ws/lib/util.ts'] }, undefined],
			[{ tool: 'Edit', kind: 'write', paths: ['/ws/README.md'] }, { allow: ['Run(ls *)'] }],
		] as const) {
			const before = decidePermission(call, 'ask', context(rules), ROOTS);
			assert.equal(before.verdict, 'ask');
			const merged = mergeAllowRules(rules, before.allowRules ?? []);
			assert.ok(merged.ok);
			assert.equal(decidePermission(call, 'ask', context(merged.value), ROOTS).verdict, 'allow', JSON.stringify(merged.value));
		}
	});
});

describe('saving the rules into the person\'s own setting', () => {
	it('adds at the end of "allow", keeping every list, rule and order as written (bad rules too)', () => {
		const theirs = { deny: ['Run(rm *)'], allow: ['Run(ls *)', 'Run(npm test'], ask: ['Run(git push *)'], custom: 1 };
		const merged = mergeAllowRules(theirs, ['Run(npm test *)']);
		assert.deepEqual(merged, { ok: true, value: { deny: ['Run(rm *)'], allow: ['Run(ls *)', 'Run(npm test', 'Run(npm test *)'], ask: ['Run(git push *)'], custom: 1 }, added: ['Run(npm test *)'] });
		assert.deepEqual(Object.keys(merged.ok ? merged.value : {}), ['deny', 'allow', 'ask', 'custom']);
		assert.deepEqual(theirs.allow, ['Run(ls *)', 'Run(npm test'], 'their value itself is not changed');
		assert.deepEqual(mergeAllowRules(undefined, ['Edit(src/**)']), { ok: true, value: { allow: ['Edit(src/**)'] }, added: ['Edit(src/**)'] });
		assert.deepEqual(mergeAllowRules({ deny: [] }, ['Edit(src/**)']), { ok: true, value: { deny: [], allow: ['Edit(src/**)'] }, added: ['Edit(src/**)'] });
	});

	it('never twice, and never over a value it cannot add to without losing something', () => {
		assert.deepEqual(mergeAllowRules({ allow: [' Run(npm test *) '] }, ['Run(npm test *)']), { ok: true, value: { allow: [' Run(npm test *) '] }, added: [] });
		assert.equal(mergeAllowRules('Run', ['Run(a *)']).ok, false);
		assert.equal(mergeAllowRules(['Run'], ['Run(a *)']).ok, false);
		assert.equal(mergeAllowRules({ allow: 'Run(a *)' }, ['Run(b *)']).ok, false);
	});

	it('writes the user value only when something is added', async () => {
		const setting = new MemoryUserRules({ deny: ['Run(rm *)'] });
		assert.deepEqual(await saveAllowRules(setting, ['Run(npm test *)']), { ok: true, added: ['Run(npm test *)'] });
		assert.deepEqual(await saveAllowRules(setting, ['Run(npm test *)']), { ok: true, added: [] });
		assert.deepEqual(setting.writes, [{ deny: ['Run(rm *)'], allow: ['Run(npm test *)'] }]);
		const broken = new MemoryUserRules({ allow: 'x' });
		assert.equal((await saveAllowRules(broken, ['Run(a *)'])).ok, false);
		assert.deepEqual(broken.writes, []);
	});
});
