import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnosticsLimitsOf, editedFilesLimitsOf } from './observerSettings';
import { type AsideSettings, readSettings } from './settings';

describe('observer settings', () => {
	it('are read at each call: a changed setting is what the next edit or WAIT gets', () => {
		const values = new Map<string, unknown>();
		let current: AsideSettings = readSettings((key) => values.get(key)).settings;
		const diagnostics = diagnosticsLimitsOf(() => current);
		const edited = editedFilesLimitsOf(() => current);
		assert.deepEqual(diagnostics(), { capMs: 30_000, maxPerFile: 10, maxTotal: 30 });
		assert.deepEqual(edited(), { maxFileBytes: 1024 * 1024, maxCacheBytes: 16 * 1024 * 1024, maxDiffLines: 200, maxDiffBytes: 256 * 1024 });
		values.set('aside.diagnostics.timeoutMs', 5000);
		values.set('aside.diagnostics.maxPerFile', 3);
		values.set('aside.diagnostics.maxTotal', 7);
		values.set('aside.editedFiles.maxFileBytes', 2048);
		values.set('aside.editedFiles.maxCacheBytes', 2 * 1024 * 1024);
		values.set('aside.editedFiles.maxDiffLines', 10);
		values.set('aside.editedFiles.maxDiffBytes', 4096);
		current = readSettings((key) => values.get(key)).settings;
		assert.deepEqual(diagnostics(), { capMs: 5000, maxPerFile: 3, maxTotal: 7 });
		assert.deepEqual(edited(), { maxFileBytes: 2048, maxCacheBytes: 2 * 1024 * 1024, maxDiffLines: 10, maxDiffBytes: 4096 });
	});
});
