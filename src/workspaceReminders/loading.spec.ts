import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isReminderOn, ProblemsOnce, readReminderFiles, type ReminderFolderReader } from './loading';
import { parseReminderFolder } from './reminderFolder';
import type { ParsedReminderFile } from './spec';

describe('loading workspace reminder files', () => {
	it('reads each folder’s .aside/reminders/*.md, in folder order then by name', () => {
		const files: Record<string, Record<string, string>> = {
			'/a/.aside/reminders': { 'z.md': 'z', 'b.md': 'b', 'notes.txt': 'no' },
			'/b/.aside/reminders': { 'a.md': 'a' },
		};
		const reader: ReminderFolderReader = {
			list: (folder) => Object.keys(files[folder] ?? {}),
			read: (path) => {
				const slash = path.lastIndexOf('/');
				return files[path.slice(0, slash)]?.[path.slice(slash + 1)];
			},
		};
		const parsed = (text: string): ParsedReminderFile => ({ problems: [{ severity: 'error', code: 'x', message: text, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }] });
		const loaded = readReminderFiles(['/a', '/b', '/none'], reader, (files) => files.map((file) => ({ name: file.name, parsed: parsed(file.text) })));
		assert.deepEqual(loaded.map((file) => [file.folder, file.file, file.parsed.problems[0]?.message]), [
			['/a', '.aside/reminders/b.md', 'b'],
			['/a', '.aside/reminders/z.md', 'z'],
			['/b', '.aside/reminders/a.md', 'a'],
		]);
	});

	it('two files of one folder with the same key: neither is registered (the parser says so on both)', () => {
		const text = (body: string) => ['---', 'key: same', 'policy: every', '---', body, ''].join('\n');
		const reader: ReminderFolderReader = { list: () => ['a.md', 'b.md'], read: (path) => text(path) };
		const loaded = readReminderFiles(['/w'], reader, (files) => parseReminderFolder(files));
		assert.deepEqual(loaded.map((file) => [file.file, file.parsed.spec, file.parsed.problems.map((problem) => problem.code)]), [
			['.aside/reminders/a.md', undefined, ['key-collision']],
			['.aside/reminders/b.md', undefined, ['key-collision']],
		]);
	});

	it('fires only in a trusted workspace, with the master switch on and its own entry not off', () => {
		const on = { trusted: true, all: true, each: { off: { enabled: false }, on: { enabled: true }, empty: {} } };
		assert.equal(isReminderOn(on, 'any'), true);
		assert.equal(isReminderOn(on, 'on'), true);
		assert.equal(isReminderOn(on, 'empty'), true);
		assert.equal(isReminderOn(on, 'off'), false);
		assert.equal(isReminderOn({ ...on, trusted: false }, 'any'), false, 'untrusted: none');
		assert.equal(isReminderOn({ ...on, all: false }, 'on'), false, 'all off');
	});

	it('says a problem once while it stands, again after it came back', () => {
		const once = new ProblemsOnce();
		const a = { folder: '/a', file: 'a.md', message: 'a is broken' };
		const b = { folder: '/a', file: 'b.md', message: 'b is broken' };
		assert.deepEqual(once.fresh([a]), [a]);
		assert.deepEqual(once.fresh([a, b]), [b]);
		assert.deepEqual(once.fresh([b]), []);
		assert.deepEqual(once.fresh([a, b]), [a]);
	});
});
