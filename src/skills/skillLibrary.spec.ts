import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeTimers } from '../testing/fakeTimers';
import { RecordingLogger } from '../testing/recordingLogger';
import { MemorySkillFolders, skillText } from '../testing/skills';
import type { SkillProblem } from './skill';
import { SkillLibrary, SKILLS_RELOAD_DELAY_MS, skillProblemsNotice } from './skillLibrary';

const ASIDE = '/ws/.aside/skills';
const CLAUDE = '/ws/.claude/skills';
const GITHUB = '/ws/.github/skills';
const USER = '/home/me/.aside/skills';

function setup() {
	const folders = new MemorySkillFolders([
		{ path: ASIDE, scope: 'workspace' },
		{ path: CLAUDE, scope: 'workspace' },
		{ path: GITHUB, scope: 'workspace' },
		{ path: USER, scope: 'user' },
	]);
	const timers = new FakeTimers();
	const log = new RecordingLogger();
	return { folders, timers, log, library: () => new SkillLibrary(folders, { timers, log }) };
}

describe('the skill library', () => {
	it('finds a skill in each workspace folder and the user folder, sorted by name; a folder without SKILL.md is no skill', () => {
		const { folders, library } = setup();
		folders.write(ASIDE, 'release', skillText({ name: 'release', description: 'Cut a release.' }));
		folders.write(CLAUDE, 'review', skillText({ name: 'review', description: 'Review code.' }));
		folders.write(GITHUB, 'docs', skillText({ name: 'docs', description: 'Write docs.' }));
		folders.write(USER, 'commit', skillText({ name: 'commit', description: 'Commit well.' }));
		folders.files.set(`${ASIDE}/assets/logo.txt`, 'not a skill');
		const skills = library().current();
		assert.deepEqual(skills.map((found) => [found.name, found.source.scope]), [['commit', 'user'], ['docs', 'workspace'], ['release', 'workspace'], ['review', 'workspace']]);
	});

	it('skips a malformed skill, naming the file and what is wrong, and loads the others', () => {
		const { folders, library, log } = setup();
		folders.write(ASIDE, 'good', skillText({ name: 'good', description: 'Fine.' }));
		const bad = folders.write(ASIDE, 'bad', skillText({ name: 'Bad!', description: 'x' }));
		const noDescription = folders.write(USER, 'nodesc', skillText({ name: 'nodesc' }));
		const made = library();
		assert.deepEqual(made.current().map((found) => found.name), ['good']);
		assert.deepEqual(made.problems().map((problem) => problem.path), [bad, noDescription]);
		const lines = log.lines.map((line) => line.message).join('\n');
		assert.match(lines, new RegExp(`${bad}: name: may use only lowercase.*\\(the skill is skipped\\)`));
		assert.match(lines, /nodesc\/SKILL\.md: description: is missing/);
		assert.match(skillProblemsNotice(made.problems()), /^Skill problems: .*bad\/SKILL\.md: name: .*docs\/skills\.md/);
	});

	it('a duplicate name: the first folder in precedence wins (workspace .aside, .claude, .github, then the user\'s), and the loser is reported naming the winner', () => {
		const { folders, library } = setup();
		const winner = folders.write(CLAUDE, 'release', skillText({ name: 'release', description: 'Workspace.' }));
		const loser = folders.write(USER, 'release', skillText({ name: 'release', description: 'User.' }));
		const alsoLoser = folders.write(GITHUB, 'release-copy', skillText({ name: 'release', description: 'Copy.' }));
		const made = library();
		assert.deepEqual(made.current().map((found) => found.source.path), [winner]);
		assert.deepEqual(made.problems().map((problem) => [problem.path, problem.message]), [
			[alsoLoser, `name: "release" is also the name of ${winner}, which is used instead`],
			[loser, `name: "release" is also the name of ${winner}, which is used instead`],
		]);
	});

	it('reads again after a change (debounced), fires only when the skills changed, and reports a problem once per content', () => {
		const { folders, library, timers } = setup();
		folders.write(ASIDE, 'release', skillText({ name: 'release', description: 'One.' }));
		const made = library();
		let changes = 0;
		const reported: SkillProblem[][] = [];
		made.onDidChange(() => changes++);
		made.onDidReportProblems((problems) => reported.push([...problems]));
		folders.write(ASIDE, 'release', skillText({ name: 'release', description: 'Two.' }));
		folders.changed();
		assert.equal(made.current()[0]?.description, 'One.', 'not before the delay');
		timers.advance(SKILLS_RELOAD_DELAY_MS);
		assert.equal(made.current()[0]?.description, 'Two.');
		assert.equal(changes, 1);
		const before = made.current();
		folders.changed();
		timers.advance(SKILLS_RELOAD_DELAY_MS);
		assert.equal(changes, 1, 'the same skills: no change');
		assert.equal(made.current(), before, 'and the same list');
		folders.write(ASIDE, 'broken', 'no frontmatter');
		folders.changed();
		timers.advance(SKILLS_RELOAD_DELAY_MS);
		folders.changed();
		timers.advance(SKILLS_RELOAD_DELAY_MS);
		assert.equal(reported.length, 1, 'reported once while the file is the same');
		assert.equal(changes, 1);
	});
});
