// ApplyPatch over real files: several files in one call, all or none; a hunk that does not match
// names its file and hunk and changes nothing; a malformed patch, a path outside the workspace and
// a file not read first are refused; CRLF files keep their line breaks; its plan and touches list
// every file; a file changed between plan and apply is never written over.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { SeenTexts } from '../observe/seenTexts';
import { nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { applyPatchTool } from './applyPatch';
import { applyChanges } from './changes';
import { declareTouches, invokeTool, prepareTool } from './registry';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');

describe('ApplyPatch', () => {
	const workspace = tempWorkspace();
	const file = (name: string) => join(workspace.root, name);
	let seen = new SeenTexts();
	let context = nodeToolContext([workspace.root], undefined, seen);
	/** Writes a file and lets the chat have seen it, as a Read would. */
	const existing = (name: string, text: string) => {
		writeFileSync(file(name), text);
		seen.saw(file(name), text);
	};

	beforeEach(() => {
		seen = new SeenTexts();
		context = nodeToolContext([workspace.root], undefined, seen);
	});
	after(() => {
		workspace.dispose();
	});

	it('updates one file, adds another and deletes a third in one call, and reports each', async () => {
		existing('a.ts', 'one\ntwo\nthree\n');
		existing('gone.ts', 'bye\n');
		const result = await invokeTool(applyPatchTool, { patch: patch('*** Update File: a.ts', '@@', ' one', '-two', '+TWO', ' three', '*** Add File: new/b.ts', '+made', '*** Delete File: gone.ts') }, context);
		assert.equal(result.isError, undefined, result.content);
		assert.equal(result.content, 'Applied the patch: created 1 file, updated 1 file, deleted 1 file (a.ts, new/b.ts, gone.ts).');
		assert.equal(readFileSync(file('a.ts'), 'utf8'), 'one\nTWO\nthree\n');
		assert.equal(readFileSync(file('new/b.ts'), 'utf8'), 'made\n');
		assert.equal(existsSync(file('gone.ts')), false);
		assert.deepEqual(result.touched?.map((touched) => [touched.path, touched.access]), [
			[file('a.ts'), 'written'],
			[file('new/b.ts'), 'written'],
			[file('gone.ts'), 'deleted'],
		]);
		assert.equal(result.detail?.kind === 'diff' ? result.detail.path : '', '3 files');
	});

	it('a hunk that does not match is refused naming the file and the hunk, and no file changes', async () => {
		existing('first.ts', 'a\nb\n');
		existing('second.ts', 'x\ny\n');
		const result = await invokeTool(applyPatchTool, { patch: patch('*** Update File: first.ts', '@@', '-a', '+A', ' b', '*** Update File: second.ts', '@@', ' x', '-not there', '+z') }, context);
		assert.equal(result.isError, true);
		assert.match(result.content, /^second\.ts, hunk 1 \(patch line \d+\): /);
		assert.equal(readFileSync(file('first.ts'), 'utf8'), 'a\nb\n', 'the first file is not half-applied');
		assert.equal(readFileSync(file('second.ts'), 'utf8'), 'x\ny\n');
	});

	it('a malformed patch gets the engine\'s message naming the line, and nothing is read or written', async () => {
		const result = await invokeTool(applyPatchTool, { patch: '*** Update File: a.ts\n@@\n-x\n+y\n' }, context);
		assert.equal(result.isError, true);
		assert.match(result.content, /^Invalid patch at line 1: /);
		const prepared = await prepareTool(applyPatchTool, { patch: 'garbage' }, context);
		assert.equal(prepared.ok, false, 'nothing to ask about');
	});

	it('refuses a path outside the workspace and a file not read in this chat', async () => {
		const outside = await invokeTool(applyPatchTool, { patch: patch('*** Add File: ../escape.ts', '+x') }, context);
		assert.equal(outside.isError, true);
		assert.match(outside.content, /\.\./);
		assert.equal(existsSync(join(workspace.root, '..', 'escape.ts')), false);
		writeFileSync(file('unread.ts'), 'u\n');
		const unread = await invokeTool(applyPatchTool, { patch: patch('*** Update File: unread.ts', '@@', '-u', '+v') }, context);
		assert.equal(unread.isError, true);
		assert.match(unread.content, /unread\.ts/);
		assert.match(unread.content, /Read/);
		assert.equal(readFileSync(file('unread.ts'), 'utf8'), 'u\n');
	});

	it('keeps a CRLF file\'s line breaks', async () => {
		existing('crlf.txt', 'one\r\ntwo\r\n');
		const result = await invokeTool(applyPatchTool, { patch: patch('*** Update File: crlf.txt', '@@', ' one', '-two', '+2') }, context);
		assert.equal(result.isError, undefined, result.content);
		assert.equal(readFileSync(file('crlf.txt'), 'utf8'), 'one\r\n2\r\n');
	});

	it('plans every file with its text before and after (null: absent, deleted), and declares them all as written', async () => {
		existing('p.ts', 'p\n');
		existing('q.ts', 'q\n');
		const input = { patch: patch('*** Update File: p.ts', '@@', '-p', '+P', '*** Add File: r.ts', '+r', '*** Delete File: q.ts') };
		const prepared = await prepareTool(applyPatchTool, input, context);
		assert.ok(prepared.ok && prepared.plan);
		assert.equal(prepared.plan.title, 'Apply a patch to 3 files');
		assert.deepEqual(prepared.plan.changes, [
			{ path: file('p.ts'), shown: 'p.ts', before: 'p\n', after: 'P\n' },
			{ path: file('r.ts'), shown: 'r.ts', before: null, after: 'r\n' },
			{ path: file('q.ts'), shown: 'q.ts', before: 'q\n', after: null },
		]);
		assert.equal(prepared.confirmation?.target, 'p.ts, r.ts, q.ts');
		assert.match(prepared.confirmation.diff ?? '', /^--- p\.ts\n\+\+\+ p\.ts\n[^]*--- \/dev\/null\n\+\+\+ r\.ts\n[^]*--- q\.ts\n\+\+\+ \/dev\/null\n/);
		assert.deepEqual(await declareTouches(applyPatchTool, input, context), { reads: [], writes: [file('p.ts'), file('r.ts'), file('q.ts')] });
		assert.equal(readFileSync(file('p.ts'), 'utf8'), 'p\n', 'planning writes nothing');
		assert.equal(existsSync(file('r.ts')), false);

		// One file changes on disk after the plan: applying it refuses, and neither file is written.
		writeFileSync(file('q.ts'), 'newer\n');
		await assert.rejects(applyChanges(prepared.plan.changes, context, { tool: 'ApplyPatch' }), /q\.ts/);
		assert.equal(readFileSync(file('p.ts'), 'utf8'), 'p\n');
		assert.equal(existsSync(file('r.ts')), false);
		assert.equal(readFileSync(file('q.ts'), 'utf8'), 'newer\n');
	});

	it('a file deleted and added again in one patch is one replacement', async () => {
		existing('again.ts', 'old\n');
		const result = await invokeTool(applyPatchTool, { patch: patch('*** Delete File: again.ts', '*** Add File: again.ts', '+new') }, context);
		assert.equal(result.isError, undefined, result.content);
		assert.equal(readFileSync(file('again.ts'), 'utf8'), 'new\n');
		assert.deepEqual(result.touched?.map((touched) => touched.access), ['written']);
	});
});
