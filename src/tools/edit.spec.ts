import assert from 'node:assert/strict';
import { linkSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { NodeDocumentWriter, nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { EDIT_MAX_FILE_BYTES, editTool } from './edit';
import { readTool } from './read';
import { invokeTool, prepareTool } from './registry';

describe('Edit', () => {
	const workspace = tempWorkspace();
	const context = nodeToolContext([workspace.root]);
	const file = join(workspace.root, 'a.ts');
	const edit = (input: Record<string, unknown>) => invokeTool(editTool, { path: 'a.ts', ...input }, context);
	const text = () => readFileSync(file, 'utf8');
	const read = (path = 'a.ts') => invokeTool(readTool, { path }, context);

	beforeEach(async () => {
		writeFileSync(file, 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n');
		// Edit changes only what the agent has read (the stale-write guard: staleWrite.spec.ts).
		await invokeTool(readTool, { path: 'a.ts' }, context);
	});
	after(() => {
		workspace.dispose();
	});

	it('replaces the one occurrence, saves, and returns the diff', async () => {
		const result = await edit({ old_string: 'const b = 2;', new_string: 'const b = 3;' });
		assert.equal(result.content, 'Edited a.ts: replaced 1 occurrence.');
		assert.equal(text(), 'const a = 1;\nconst b = 3;\nconst a2 = 1;\n');
		assert.deepEqual(result.detail, {
			kind: 'diff',
			path: 'a.ts',
			diff: '--- a.ts\n+++ a.ts\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n const a2 = 1;\n',
		});
	});

	it('confirm() shows the same diff and changes nothing', async () => {
		const prepared = await prepareTool(editTool, { path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' }, context);
		assert.ok(prepared.ok);
		assert.equal(prepared.confirmation?.title, 'Edit a.ts');
		assert.equal(prepared.confirmation.target, 'a.ts');
		assert.match(prepared.confirmation.diff ?? '', /^-const b = 2;\n\+const b = 3;$/m);
		assert.equal(text(), 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n');
	});

	it('refuses when old_string is not found, saying whitespace must match', async () => {
		const result = await edit({ old_string: 'const  b = 2;', new_string: 'x' });
		assert.equal(result.isError, true);
		assert.match(result.content, /^old_string was not found in a\.ts\. It must match the file exactly, including whitespace/);
	});

	it('refuses several occurrences without replace_all, naming the count', async () => {
		const result = await edit({ old_string: ' = 1;', new_string: ' = 9;' });
		assert.equal(result.isError, true);
		assert.match(result.content, /^old_string occurs 2 times in a\.ts\./);
		assert.equal(text(), 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n');
	});

	it('replaces every occurrence with replace_all', async () => {
		const result = await edit({ old_string: ' = 1;', new_string: ' = 9;', replace_all: true });
		assert.equal(result.content, 'Edited a.ts: replaced 2 occurrences.');
		assert.equal(text(), 'const a = 9;\nconst b = 2;\nconst a2 = 9;\n');
	});

	it('refuses old_string equal to new_string, and an empty old_string', async () => {
		assert.match((await edit({ old_string: 'const', new_string: 'const' })).content, /the same/);
		assert.match((await edit({ old_string: '', new_string: 'x' })).content, /^Invalid input for Edit: old_string:/);
	});

	it('keeps `$` patterns in new_string literal', async () => {
		await edit({ old_string: 'const b = 2;', new_string: 'const b = "$&$1";' });
		assert.equal(text(), 'const a = 1;\nconst b = "$&$1";\nconst a2 = 1;\n');
	});

	it('matches LF strings in a CRLF file and keeps its line endings', async () => {
		writeFileSync(file, 'one\r\ntwo\r\nthree\r\n');
		await invokeTool(readTool, { path: 'a.ts' }, context);
		await edit({ old_string: 'one\ntwo', new_string: 'uno\ndos' });
		assert.equal(text(), 'uno\r\ndos\r\nthree\r\n');
	});

	it('edits the editor\'s unsaved text', async () => {
		const writer = new NodeDocumentWriter();
		writer.readText = () => Promise.resolve('unsaved text\n');
		await invokeTool(readTool, { path: 'a.ts' }, { ...context, writer });
		await invokeTool(editTool, { path: 'a.ts', old_string: 'unsaved', new_string: 'saved' }, { ...context, writer });
		assert.equal(text(), 'saved text\n');
	});

	it('sends a missing file to Write, and refuses paths outside', async () => {
		assert.equal((await edit({ path: 'new.ts', old_string: 'a', new_string: 'b' })).content, 'File not found: new.ts. Use Write to create a new file.');
		assert.match((await edit({ path: '../a.ts', old_string: 'a', new_string: 'b' })).content, /outside the workspace folders/);
	});

	it('matches text copied from Read\'s neutralised markers against the file\'s own <, and writes new_string the same way', async () => {
		writeFileSync(file, 'const doc = `\n<system-reminder key="x">\nbody\n</system-reminder>\n`;\n');
		await read();
		// What the model read: toolResultText neutralised the markers in the payload.
		const result = await edit({ old_string: '\u2039system-reminder key="x">\nbody\n\u2039/system-reminder>', new_string: '\u2039system-reminder key="y">\nnew body\n\u2039/SYSTEM-REMINDER>' });
		assert.equal(result.content, 'Edited a.ts: replaced 1 occurrence.');
		assert.equal(text(), 'const doc = `\n<system-reminder key="y">\nnew body\n</SYSTEM-REMINDER>\n`;\n');
		// In a CRLF file as well.
		writeFileSync(file, 'a\r\n<system-reminder>\r\nb\r\n');
		await read();
		await edit({ old_string: '\u2039system-reminder>\nb', new_string: '\u2039system-reminder>\nc' });
		assert.equal(text(), 'a\r\n<system-reminder>\r\nc\r\n');
	});

	it('leaves a file\'s own \u2039 alone, and writes new_string as given when old_string matched as given', async () => {
		writeFileSync(file, 'quote: \u2039system-reminder\n<system-reminder\n');
		await read();
		await edit({ old_string: 'quote: \u2039system-reminder', new_string: 'quoted: \u2039system-reminder' });
		assert.equal(text(), 'quoted: \u2039system-reminder\n<system-reminder\n');
		await edit({ old_string: 'quoted', new_string: '<system-reminder> and \u2039system-reminder' });
		assert.equal(text(), '<system-reminder> and \u2039system-reminder: \u2039system-reminder\n<system-reminder\n');
	});

	it(`refuses a file over ${EDIT_MAX_FILE_BYTES / (1024 * 1024)} MB before reading it, saying what to do instead`, async () => {
		const big = join(workspace.root, 'big.log');
		writeFileSync(big, 'x');
		// Sparse: larger than the cap on paper, nothing on disk.
		truncateSync(big, EDIT_MAX_FILE_BYTES + 1);
		const writer = new NodeDocumentWriter();
		let reads = 0;
		writer.readText = (path) => {
			reads++;
			return new NodeDocumentWriter().readText(path);
		};
		const result = await invokeTool(editTool, { path: 'big.log', old_string: 'x', new_string: 'y' }, { ...context, writer });
		assert.equal(result.isError, true);
		assert.equal(result.content, 'big.log is 10 MB, more than Edit changes (10 MB); for a change to a file this large, use a command (Run).');
		assert.equal(reads, 0, 'the file was not read');
		assert.match(editTool.description, /Refuses files over 10 MB/);
	});

	it('refuses an unsaved document that grew past the cap, though the file on disk is small', async () => {
		const writer = new NodeDocumentWriter();
		writer.readText = () => Promise.resolve('const a = 1;\n'.repeat(Math.ceil((EDIT_MAX_FILE_BYTES + 1) / 13)));
		const result = await invokeTool(editTool, { path: 'a.ts', old_string: 'const a = 1;', new_string: 'x', replace_all: true }, { ...context, writer });
		assert.equal(result.isError, true);
		assert.match(result.content, /^a\.ts is 10 MB, more than Edit changes \(10 MB\)/);
	});

	it('a file with more than one hard link must always be confirmed, and the approval says why', async () => {
		mkdirSync(join(workspace.root, 'linked'), { recursive: true });
		const other = join(workspace.root, 'linked', 'other-name.ts');
		writeFileSync(other, 'const a = 1;\n');
		linkSync(other, join(workspace.root, 'linked', 'a.ts'));
		await read('linked/a.ts');
		const prepared = await prepareTool(editTool, { path: 'linked/a.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' }, context);
		assert.ok(prepared.ok);
		assert.equal(prepared.confirmation?.title, 'Edit linked/a.ts, a file with 2 hard links (another name for it may be outside the workspace)');
		assert.equal(prepared.confirmation.target, 'linked/a.ts');
		assert.equal(prepared.confirmation.alwaysAsk, 'linked/a.ts has 2 hard links: another name for the same file may be outside the workspace.');
		const plain = await prepareTool(editTool, { path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' }, context);
		assert.ok(plain.ok);
		assert.equal(plain.confirmation?.alwaysAsk, undefined);
	});
});
