import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ProfileProblem } from './profile';
import { FakeTimers } from '../../testing/fakeTimers';
import { MemoryProfileFolders } from '../../testing/memoryProfileFolders';
import { RecordingLogger } from '../../testing/recordingLogger';
import { MAX_FILES_PER_FOLDER, ProfileLibrary, problemsNotice, RELOAD_DELAY_MS } from './profileLibrary';

const WS_ASIDE = '/ws/.aside/agents';
const WS_CLAUDE = '/ws/.claude/agents';
const USER_ASIDE = '/home/me/.aside/agents';
const USER_CLAUDE = '/home/me/.claude/agents';

const profile = (name: string, description = `The ${name} agent.`, extra = '') => `---\nname: ${name}\ndescription: ${description}\n${extra}---\nYou are ${name}.\n`;

function setup(populate: (folders: MemoryProfileFolders) => void = () => undefined) {
	const folders = new MemoryProfileFolders([
		{ path: WS_ASIDE, scope: 'workspace' },
		{ path: WS_CLAUDE, scope: 'workspace' },
		{ path: USER_ASIDE, scope: 'user' },
		{ path: USER_CLAUDE, scope: 'user' },
	]);
	populate(folders);
	const timers = new FakeTimers();
	const log = new RecordingLogger();
	const library = new ProfileLibrary(folders, { timers, log });
	let changes = 0;
	library.onDidChange(() => {
		changes++;
	});
	const reported: (readonly ProfileProblem[])[] = [];
	library.onDidReportProblems((problems) => {
		reported.push(problems);
	});
	const settle = () => {
		timers.advance(RELOAD_DELAY_MS);
	};
	return { folders, timers, log, library, settle, reported, changes: () => changes };
}

const names = (library: ProfileLibrary) => library.current().map((p) => p.name);
const sourceOf = (library: ProfileLibrary, name: string) => library.current().find((p) => p.name === name)?.source;

describe('the profile library', () => {
	it('with no files: the three built-ins', () => {
		const { library } = setup();
		assert.deepEqual(names(library), ['explore', 'general', 'verify']);
		assert.deepEqual(library.problems(), []);
		assert.ok(library.current().every((p) => p.source.kind === 'builtin' && p.prompt.length > 200 && p.description !== ''));
	});

	it('the built-ins: explore read-only, general the parent\'s tools without Agent, verify read-only plus Run; the read-only ones say they change nothing', () => {
		const { library } = setup();
		const named = (name: string) => library.current().find((p) => p.name === name) ?? assert.fail(name);
		assert.deepEqual(named('explore').tools, { kind: 'read-only' });
		assert.deepEqual([named('general').tools, named('general').canSpawn], [{ kind: 'inherit' }, false]);
		assert.deepEqual(named('verify').tools, { kind: 'named', names: ['Read', 'List', 'Glob', 'Grep', 'Run'] });
		assert.match(named('explore').prompt, /You change nothing/);
		assert.match(named('verify').prompt, /You change no files/);
	});

	it('loads files from every folder: built-ins first, then the files by name', () => {
		const { library } = setup((folders) => folders.put(`${WS_ASIDE}/b.md`, profile('reviewer')).put(`${USER_CLAUDE}/x.md`, profile('architect')).put(`${WS_ASIDE}/notes.txt`, 'not a profile'));
		assert.deepEqual(names(library), ['explore', 'general', 'verify', 'architect', 'reviewer']);
		assert.deepEqual(sourceOf(library, 'architect'), { kind: 'file', path: `${USER_CLAUDE}/x.md`, scope: 'user' });
	});

	it('precedence: workspace over user over built-in; .aside over .claude; the built-in keeps its place', () => {
		const { library, log } = setup((folders) =>
			folders
				.put(`${USER_ASIDE}/explore.md`, profile('explore', 'User explore.'))
				.put(`${WS_CLAUDE}/explore.md`, profile('explore', 'Claude workspace explore.'))
				.put(`${WS_ASIDE}/explore.md`, profile('explore', 'Aside workspace explore.'))
				.put(`${USER_ASIDE}/helper.md`, profile('helper', 'User helper.'))
				.put(`${WS_CLAUDE}/helper.md`, profile('helper', 'Workspace helper.')),
		);
		assert.deepEqual(names(library), ['explore', 'general', 'verify', 'helper']);
		assert.equal(library.current()[0]?.description, 'Aside workspace explore.');
		assert.deepEqual(sourceOf(library, 'helper'), { kind: 'file', path: `${WS_CLAUDE}/helper.md`, scope: 'workspace' });
		assert.deepEqual(library.problems(), [], 'precedence is no problem');
		assert.deepEqual(log.at('warn'), []);
	});

	it('a malformed profile is skipped with a problem naming the file, logged once; the others still load', () => {
		const { library, log, reported } = setup((folders) => folders.put(`${WS_ASIDE}/good.md`, profile('good')).put(`${WS_ASIDE}/bad.md`, '---\nname: Bad Name\n---\nx').put(`${WS_ASIDE}/warn.md`, profile('warned', 'W.', 'tools: Read, WebSearch\n')));
		assert.deepEqual(names(library), ['explore', 'general', 'verify', 'good', 'warned']);
		assert.deepEqual(
			library.problems().map((p) => [p.path, p.severity, p.message]),
			[
				[`${WS_ASIDE}/bad.md`, 'error', 'name: may use only lowercase letters, digits and "-", and must start with a letter or digit'],
				[`${WS_ASIDE}/bad.md`, 'error', 'description: is missing'],
				[`${WS_ASIDE}/warn.md`, 'warning', 'tools: Aside has no tool "WebSearch"; it is left out'],
			],
		);
		assert.deepEqual(log.at('warn'), [
			`Agent profile ${WS_ASIDE}/bad.md: name: may use only lowercase letters, digits and "-", and must start with a letter or digit (the profile is skipped)`,
			`Agent profile ${WS_ASIDE}/bad.md: description: is missing (the profile is skipped)`,
			`Agent profile ${WS_ASIDE}/warn.md: tools: Aside has no tool "WebSearch"; it is left out`,
		]);
		assert.equal(reported.length, 0, 'the first read\'s problems are there to ask for (problems()), before anyone listens');
		library.reload();
		library.reload();
		assert.equal(log.at('warn').length, 3, 'a re-read of the same content logs nothing again');
		assert.equal(reported.length, 0, 'and reports nothing again');
	});

	it('a changed bad file is reported again; a fixed one loads and is announced', () => {
		const { folders, library, log, reported, settle, changes } = setup((f) => f.put(`${WS_ASIDE}/bad.md`, '---\nname: bad\n---\nx'));
		folders.write(`${WS_ASIDE}/bad.md`, '---\nname: bad\nmaxSteps: 500\n---\nx');
		settle();
		assert.deepEqual(reported.at(-1)?.map((p) => p.message), ['description: is missing', 'maxSteps: must be a whole number from 1 to 200']);
		assert.equal(changes(), 0, 'the profiles did not change');
		assert.equal(problemsNotice(reported.at(-1) ?? []), `Agent profile problems: ${WS_ASIDE}/bad.md: description: is missing (the profile is skipped); ${WS_ASIDE}/bad.md: maxSteps: must be a whole number from 1 to 200 (the profile is skipped). See Aside: Show Log, and docs/agents.md for the format.`);
		folders.write(`${WS_ASIDE}/bad.md`, profile('bad'));
		settle();
		assert.deepEqual(names(library), ['explore', 'general', 'verify', 'bad']);
		assert.equal(changes(), 1);
		assert.deepEqual(library.problems(), []);
		assert.equal(log.at('warn').length, 3);
	});

	it('changes are read after the delay, once for a burst; onDidChange only when the profiles differ', () => {
		const { folders, library, timers, settle, changes } = setup();
		folders.write(`${WS_ASIDE}/a.md`, profile('alpha'));
		folders.write(`${WS_ASIDE}/b.md`, profile('beta'));
		assert.deepEqual(names(library), ['explore', 'general', 'verify'], 'not before the delay');
		timers.advance(RELOAD_DELAY_MS - 1);
		assert.equal(changes(), 0);
		timers.advance(1);
		assert.deepEqual(names(library), ['explore', 'general', 'verify', 'alpha', 'beta']);
		assert.equal(changes(), 1, 'one event for the burst');
		assert.equal(folders.reads.get(`${WS_ASIDE}/a.md`), 1, 'read once for the burst');
		folders.touch();
		settle();
		assert.equal(changes(), 1, 'the same result: no event');
		folders.write(`${WS_ASIDE}/a.md`, profile('alpha', 'Now different.'));
		settle();
		assert.equal(changes(), 2);
		folders.remove(`${WS_ASIDE}/b.md`);
		settle();
		assert.deepEqual(names(library), ['explore', 'general', 'verify', 'alpha']);
		assert.equal(changes(), 3);
	});

	it('a change of folders (trust granted, a folder added) is read again', () => {
		const folders = new MemoryProfileFolders([{ path: USER_ASIDE, scope: 'user' }]);
		folders.put(`${WS_ASIDE}/w.md`, profile('workspace-one'));
		const timers = new FakeTimers();
		const library = new ProfileLibrary(folders, { timers, log: new RecordingLogger() });
		assert.deepEqual(names(library), ['explore', 'general', 'verify']);
		folders.setFolders([{ path: WS_ASIDE, scope: 'workspace' }, { path: USER_ASIDE, scope: 'user' }]);
		timers.advance(RELOAD_DELAY_MS);
		assert.deepEqual(names(library), ['explore', 'general', 'verify', 'workspace-one']);
	});

	it('two files of one name in one folder: the first by file name is used, the other is a problem', () => {
		const { library } = setup((f) => f.put(`${WS_ASIDE}/a.md`, profile('twin', 'First.')).put(`${WS_ASIDE}/b.md`, profile('twin', 'Second.')));
		assert.equal(library.current().find((p) => p.name === 'twin')?.description, 'First.');
		assert.deepEqual(library.problems().map((p) => [p.path, p.message]), [[`${WS_ASIDE}/b.md`, `name: "twin" is also the name of ${WS_ASIDE}/a.md in the same folder, which is used instead`]]);
	});

	it('an unreadable file is a problem; a folder with too many files is read in part', () => {
		const { folders, library, settle } = setup((f) => {
			for (let i = 0; i < MAX_FILES_PER_FOLDER + 5; i++) {
				f.put(`${USER_ASIDE}/p${String(i).padStart(3, '0')}.md`, profile(`p${i}`));
			}
			f.put(`${WS_ASIDE}/locked.md`, profile('locked'));
		});
		assert.equal(library.current().length, 3 + 1 + MAX_FILES_PER_FOLDER);
		assert.match(library.problems()[0]?.message ?? '', /has 105 profile files; only the first 100 by name are read/);
		folders.fail(`${WS_ASIDE}/locked.md`, 'EACCES: permission denied');
		settle();
		assert.ok(!names(library).includes('locked'));
		assert.deepEqual(library.problems().find((p) => p.path === `${WS_ASIDE}/locked.md`), { path: `${WS_ASIDE}/locked.md`, message: 'the file cannot be read: EACCES: permission denied', severity: 'error' });
	});

	it('disposed: no more reads', () => {
		const { folders, library, timers } = setup();
		folders.write(`${WS_ASIDE}/a.md`, profile('alpha'));
		library.dispose();
		timers.advance(RELOAD_DELAY_MS);
		assert.deepEqual(names(library), ['explore', 'general', 'verify']);
		assert.equal(timers.pending, 0);
	});
});
