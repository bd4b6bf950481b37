import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { skillText } from '../testing/skills';
import { MAX_SKILL_BYTES, parseSkillFile } from './skillFile';

const source = { path: '/ws/.aside/skills/release/SKILL.md', scope: 'workspace' as const };
const parse = (text: string) => parseSkillFile(Buffer.from(text, 'utf8'), source);
const problemsOf = (text: string): string[] => {
	const parsed = parse(text);
	return parsed.ok ? assert.fail('expected problems') : parsed.problems.map((problem) => problem.message);
};

describe('a SKILL.md', () => {
	it('gives name, description (one line), paths, requires (the field and !$name in the body, each once) and body', () => {
		const parsed = parse(skillText({ name: 'release', description: '"Cut a release.\\nSecond line."', paths: '[src/**/*.ts, "./docs/*.md"]', requires: 'changelog, tests' }, 'First !$changelog, then !$lint.\nAnd !$tests again.'));
		assert.ok(parsed.ok);
		assert.equal(parsed.skill.name, 'release');
		assert.equal(parsed.skill.description, 'Cut a release.');
		assert.deepEqual(parsed.skill.paths, ['src/**/*.ts', 'docs/*.md']);
		assert.deepEqual(parsed.skill.requires, ['changelog', 'tests', 'lint']);
		assert.equal(parsed.skill.body, 'First !$changelog, then !$lint.\nAnd !$tests again.');
		assert.match(parsed.skill.hash, /^[0-9a-f]{16}$/);
	});

	it('ignores the other fields of Claude Code\'s and Copilot\'s skills', () => {
		assert.ok(parse(skillText({ name: 'pdf', description: 'PDFs.', license: 'MIT', 'allowed-tools': 'Read' })).ok);
	});

	it('names each problem: bad YAML, missing or bad name, missing description, no frontmatter, no body, a bad requirement, binary, too big', () => {
		assert.match(problemsOf('---\nname: [unclosed\ndescription: x\n---\nBody')[0] ?? '', /the frontmatter is not valid YAML \(line \d+\)/);
		assert.deepEqual(problemsOf(skillText({ description: 'x' })), ['name: is missing']);
		assert.match(problemsOf(skillText({ name: 'Release_Notes', description: 'x' }))[0] ?? '', /^name: may use only lowercase letters, digits and "-"/);
		assert.deepEqual(problemsOf(skillText({ name: 'release' })), ['description: is missing']);
		assert.deepEqual(problemsOf(skillText({ name: 'release', description: '""' })), ['description: is empty']);
		assert.match(problemsOf('# Release\nJust text.')[0] ?? '', /does not start with a YAML frontmatter/);
		assert.match(problemsOf('---\nname: release\ndescription: x\n')[0] ?? '', /no closing "---"/);
		assert.match(problemsOf(skillText({ name: 'release', description: 'x' }, ''))[0] ?? '', /no body/);
		assert.match(problemsOf(skillText({ name: 'release', description: 'x', requires: '[Bad Name]' }))[0] ?? '', /requires: "Bad Name" is not a skill name/);
		assert.match(problemsOf('---\0')[0] ?? '', /not UTF-8 text/);
		assert.match(problemsOf('x'.repeat(MAX_SKILL_BYTES + 1))[0] ?? '', /larger than 64 KB/);
		assert.match(problemsOf('---\n- a\n- b\n---\nBody')[0] ?? '', /must be a set of fields/);
	});
});
