import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { SeenTexts } from '../observe/seenTexts';
import { NodeDocumentWriter, nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { editTool } from './edit';
import { readTool } from './read';
import { invokeTool, prepareTool } from './registry';
import type { ToolContext } from './tool';
import { writeTool } from './write';

const TEXT = 'const a = 1;\nconst b = 2;\n';

function setup(t: TestContext) {
	const workspace = tempWorkspace('aside-stale-');
	t.after(() => {
		workspace.dispose();
	});
	const seen = new SeenTexts();
	const context = nodeToolContext([workspace.root], undefined, seen);
	const file = join(workspace.root, 'a.ts');
	writeFileSync(file, TEXT);
	const read = (on: ToolContext = context) => invokeTool(readTool, { path: 'a.ts' }, on);
	const edit = (on: ToolContext = context, old_string = 'const b = 2;', new_string = 'const b = 3;') => invokeTool(editTool, { path: 'a.ts', old_string, new_string }, on);
	const text = () => readFileSync(file, 'utf8');
	return { root: workspace.root, seen, context, file, read, edit, text };
}

const CHANGED = /^a\.ts changed since you last read it \(in the editor or on disk\), so the edit was not made and nothing was written\. Read it again/;

describe('the stale-write guard', () => {
	it('Edit refuses a file not read in this chat, asking to read it first, and changes nothing', async (t) => {
		const { context, edit, text } = setup(t);
		const result = await edit();
		assert.deepEqual(result, { isError: true, content: 'a.ts has not been read in this chat. Read it first, then edit it: an edit applies to the text as you last saw it.' });
		assert.equal((await prepareTool(editTool, { path: 'a.ts', old_string: 'const b = 2;', new_string: 'x' }, context)).ok, false, 'nothing to approve either');
		assert.equal(text(), TEXT);
	});

	it('the person changes the file on disk between the Read and the Edit: refused, their text intact; Read again, then the Edit goes through', async (t) => {
		const { file, read, edit, text } = setup(t);
		await read();
		const theirs = 'const a = 1;\nconst b = 2; // the person was here\n';
		writeFileSync(file, theirs);
		const refused = await edit();
		assert.equal(refused.isError, true);
		assert.match(refused.content, CHANGED);
		assert.equal(text(), theirs);
		await read();
		const done = await edit();
		assert.equal(done.content, 'Edited a.ts: replaced 1 occurrence.');
		assert.equal(text(), 'const a = 1;\nconst b = 3; // the person was here\n');
	});

	it('the person types in the editor (unsaved) between the Read and the Edit: refused, nothing written', async (t) => {
		const { context, read, edit, text } = setup(t);
		await read();
		const writer = new NodeDocumentWriter();
		let replaced = 0;
		writer.readText = () => Promise.resolve(`${TEXT}// typed, not saved\n`);
		writer.replace = () => {
			replaced++;
			return Promise.resolve();
		};
		const refused = await edit({ ...context, writer });
		assert.match(refused.content, CHANGED);
		assert.equal(replaced, 0);
		assert.equal(text(), TEXT);
	});

	it('a change after the person approved the edit is caught when it runs', async (t) => {
		const { context, file, read, edit, text } = setup(t);
		await read();
		const approved = await prepareTool(editTool, { path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' }, context);
		assert.equal(approved.ok, true);
		writeFileSync(file, `${TEXT}// while the approval card was open\n`);
		assert.match((await edit()).content, CHANGED);
		assert.equal(text(), `${TEXT}// while the approval card was open\n`);
	});

	it('a change in the last moment, after the edit was planned, is caught by the writer: nothing is written over it', async (t) => {
		const { context, file, read, edit, text } = setup(t);
		await read();
		const writer = new NodeDocumentWriter();
		const replace = writer.replace.bind(writer);
		writer.replace = async (path, next, expected) => {
			writeFileSync(file, `${TEXT}// just now\n`);
			await replace(path, next, expected);
		};
		assert.match((await edit({ ...context, writer })).content, CHANGED);
		assert.equal(text(), `${TEXT}// just now\n`);
	});

	it('what Aside itself wrote counts as seen: Edit after Edit, and Edit after Write, need no Read', async (t) => {
		const { context, read, edit, text } = setup(t);
		await read();
		assert.equal((await edit()).isError, undefined);
		assert.equal((await edit(context, 'const b = 3;', 'const b = 4;')).isError, undefined);
		assert.equal(text(), 'const a = 1;\nconst b = 4;\n');
		assert.equal((await invokeTool(writeTool, { path: 'new.ts', content: 'one\n' }, context)).isError, undefined);
		assert.equal((await invokeTool(editTool, { path: 'new.ts', old_string: 'one', new_string: 'two' }, context)).content, 'Edited new.ts: replaced 1 occurrence.');
	});

	it('a guard is one chat\'s: another chat has seen nothing', async (t) => {
		const { root, read, edit } = setup(t);
		await read();
		assert.match((await edit(nodeToolContext([root], undefined, new SeenTexts()))).content, /has not been read in this chat/);
	});

	it('Read tells the guard the text it showed, and the observers what it touched', async (t) => {
		const { context, file, seen, read } = setup(t);
		const writer = new NodeDocumentWriter();
		writer.readText = () => Promise.resolve(`${TEXT}// unsaved\n`);
		const result = await read({ ...context, writer });
		assert.deepEqual(result.touched, [{ path: file, access: 'read', text: `${TEXT}// unsaved\n` }]);
		assert.equal(seen.compare(file, `${TEXT}// unsaved\n`), 'same');
		assert.equal(seen.compare(file, TEXT), 'changed');
	});
});

describe('Write never overwrites', () => {
	it('a file that appeared after the person approved the Write is refused, and left as it is', async (t) => {
		const { root, context } = setup(t);
		const input = { path: 'fresh.ts', content: 'mine\n' };
		assert.equal((await prepareTool(writeTool, input, context)).ok, true);
		writeFileSync(join(root, 'fresh.ts'), 'theirs\n');
		const result = await invokeTool(writeTool, input, context);
		assert.match(result.content, /^fresh\.ts already exists\. Write only creates new files/);
		assert.equal(readFileSync(join(root, 'fresh.ts'), 'utf8'), 'theirs\n');
	});

	it('a file that appeared between the check and the write is refused with a clear error, and left as it is', async (t) => {
		const { root, context } = setup(t);
		const writer = new NodeDocumentWriter();
		const create = writer.create.bind(writer);
		writer.create = async (path, text) => {
			writeFileSync(path, 'theirs\n');
			await create(path, text);
		};
		const result = await invokeTool(writeTool, { path: 'race.ts', content: 'mine\n' }, { ...context, writer });
		assert.deepEqual(result, { isError: true, content: 'race.ts appeared while the Write was being made; it was left as it is and nothing was written. Read it, then use Edit to change it.' });
		assert.equal(readFileSync(join(root, 'race.ts'), 'utf8'), 'theirs\n');
	});

	it('a file open in the editor with unsaved text, though not on disk, is refused', async (t) => {
		const { root, context } = setup(t);
		const writer = new NodeDocumentWriter();
		writer.readText = () => Promise.resolve('the person\'s unsaved text\n');
		const result = await invokeTool(writeTool, { path: 'open.ts', content: 'mine\n' }, { ...context, writer });
		assert.match(result.content, /^open\.ts is open in the editor, with text not saved to disk\./);
		assert.equal(existsSync(join(root, 'open.ts')), false);
	});
});

describe('SeenTexts', () => {
	it('compares text, line endings aside, per path, and forgets the least recently seen past its bound', () => {
		const seen = new SeenTexts(2);
		seen.saw('/w/a', 'one\ntwo\n');
		assert.equal(seen.compare('/w/a', 'one\r\ntwo\r\n'), 'same');
		assert.equal(seen.compare('/w/a', 'one\ntwo!\n'), 'changed');
		assert.equal(seen.compare('/w/b', 'one\ntwo\n'), 'unseen');
		seen.saw('/w/b', 'b');
		seen.saw('/w/a', 'one\ntwo\n');
		seen.saw('/w/c', 'c');
		assert.equal(seen.size, 2);
		assert.equal(seen.compare('/w/b', 'b'), 'unseen', 'the least recently seen went first');
		assert.equal(seen.compare('/w/a', 'one\ntwo\n'), 'same');
		seen.forget('/w/a');
		assert.equal(seen.compare('/w/a', 'one\ntwo\n'), 'unseen');
	});
});
