import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { TurnWrites } from './turnWrites';

const ROOT = resolve('/work/project');
const at = (relative: string) => join(ROOT, ...relative.split('/'));

describe('the files the latest turn wrote', () => {
	it('are the implementation files written in that turn, as shown to the model, each once, first written first', () => {
		const writes = new TurnWrites(() => [ROOT]);
		writes.note(3, at('src/b.ts'));
		writes.note(3, at('README.md'));
		writes.note(3, at('src/a.ts'));
		writes.note(3, at('src/b.ts'));
		writes.note(3, at('dist/b.js'));
		assert.deepEqual(writes.implementationFilesIn(3), ['src/b.ts', 'src/a.ts']);
	});

	it('an older turn\'s writes are dropped once a later turn writes, and are none for any other turn', () => {
		const writes = new TurnWrites(() => [ROOT]);
		writes.note(1, at('src/a.ts'));
		writes.note(1, at('src/b.ts'));
		assert.deepEqual(writes.implementationFilesIn(2), [], 'turn 2 wrote nothing');
		writes.note(2, at('src/c.ts'));
		assert.deepEqual(writes.implementationFilesIn(1), [], 'dropped');
		assert.deepEqual(writes.implementationFilesIn(2), ['src/c.ts'], 'old edits do not add up with new ones');
	});

	it('a late report from an older turn does not disturb the latest one', () => {
		const writes = new TurnWrites(() => [ROOT]);
		writes.note(2, at('src/a.ts'));
		writes.note(1, at('src/old.ts'));
		assert.deepEqual(writes.implementationFilesIn(2), ['src/a.ts']);
	});

	it('names a file outside the first workspace folder by its absolute path', () => {
		const other = resolve('/work/other');
		const writes = new TurnWrites(() => [ROOT, other]);
		writes.note(1, join(other, 'x.py'));
		assert.deepEqual(writes.implementationFilesIn(1), [join(other, 'x.py').split('\\').join('/')]);
	});
});
