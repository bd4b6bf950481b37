import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { BUILTIN_VOCABULARY } from '../workspaceReminders/vocabulary';
import { ParseCache, analyzeFolder, reminderPathOf } from './folders';

const root = mkdtempSync(join(tmpdir(), 'aside-reminder-folder-'));
after(() => {
	rmSync(root, { recursive: true, force: true });
});

describe('the server\'s reminder folders', () => {
	it('knows a reminder file by its place: .aside/reminders/<name>.md', () => {
		assert.equal(reminderPathOf(pathToFileURL('/ws/.aside/reminders/a.md').href), '/ws/.aside/reminders/a.md');
		assert.equal(reminderPathOf(pathToFileURL('/ws/docs/a.md').href), undefined);
		assert.equal(reminderPathOf(pathToFileURL('/ws/.aside/reminders/sub/a.md').href), undefined);
		assert.equal(reminderPathOf('untitled:Untitled-1'), undefined);
	});

	it('reads the files on disk, the open editor\'s text in place of its file, and finds collisions across both', () => {
		const folder = join(root, '.aside', 'reminders');
		mkdirSync(folder, { recursive: true });
		writeFileSync(join(folder, 'a.md'), '---\nkey: shared\n---\nA.\n');
		writeFileSync(join(folder, 'b.md'), '---\nkey: other\n---\nB.\n');
		writeFileSync(join(folder, 'notes.txt'), 'not a reminder');
		const disk = analyzeFolder(folder, new Map(), BUILTIN_VOCABULARY);
		assert.deepEqual(disk.map((file) => [file.uri, file.parsed.problems.length]), [[pathToFileURL(join(folder, 'a.md')).href, 0], [pathToFileURL(join(folder, 'b.md')).href, 0]]);
		// b.md is being edited to take a's key: both files get the problem, the editor's unsaved text counts.
		const open = new Map([[join(folder, 'b.md'), { uri: 'file:///editor/b.md', text: '---\nkey: shared\n---\nB.\n' }]]);
		const edited = analyzeFolder(folder, open, BUILTIN_VOCABULARY);
		assert.deepEqual(edited.map((file) => [file.uri, file.parsed.problems.map((problem) => problem.code)]), [[pathToFileURL(join(folder, 'a.md')).href, ['key-collision']], ['file:///editor/b.md', ['key-collision']]]);
	});

	it('re-parses only the files whose text changed, and still compares every key', () => {
		const folder = join(root, 'cached', '.aside', 'reminders');
		mkdirSync(folder, { recursive: true });
		writeFileSync(join(folder, 'a.md'), '---\nkey: a\n---\nA.\n');
		writeFileSync(join(folder, 'b.md'), '---\nkey: b\n---\nB.\n');
		const cache = new ParseCache();
		const first = analyzeFolder(folder, new Map(), BUILTIN_VOCABULARY, cache);
		const open = new Map([[join(folder, 'b.md'), { uri: 'file:///b.md', text: '---\nkey: a\n---\nB.\n' }]]);
		const second = analyzeFolder(folder, open, BUILTIN_VOCABULARY, cache);
		assert.equal(cache.parse(join(folder, 'a.md'), '---\nkey: a\n---\nA.\n', BUILTIN_VOCABULARY), first[0]?.parsed, 'a.md is not parsed again');
		assert.deepEqual(second.map((file) => file.parsed.problems.map((problem) => problem.code)), [['key-collision'], ['key-collision']]);
		const other = { ...BUILTIN_VOCABULARY, reservedKeys: ['workspace.a'] };
		assert.equal(analyzeFolder(folder, new Map(), other, cache)[0]?.parsed.problems[0]?.code, 'reserved-key', 'a new vocabulary parses again');
	});

	it('keeps the open editors of a folder that is gone', () => {
		const gone = join(root, 'gone', '.aside', 'reminders');
		const files = analyzeFolder(gone, new Map([[join(gone, 'x.md'), { uri: 'file:///x.md', text: '---\nkey: x\n---\nX.\n' }]]), BUILTIN_VOCABULARY);
		assert.equal(files[0]?.parsed.spec?.key, 'x');
	});
});
