import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { keptToolResult, MCP_MAX_OUTPUT_BYTES } from '../mcp/toolResult';
import { NodeWorkspaceFs, nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { DirectoryOutputs } from './keptOutputs';
import { readTool } from './read';

describe('kept outputs: a big output whole in a file Read opens', () => {
	let home: ReturnType<typeof tempWorkspace>;
	let workspace: string;
	let dir: string;

	beforeEach(() => {
		home = tempWorkspace('aside-kept-');
		workspace = join(home.root, 'workspace');
		dir = join(home.root, 'storage', 'tool-outputs');
		mkdirSync(workspace);
	});

	afterEach(() => {
		home.dispose();
	});

	it('an MCP result past the bound keeps its whole text; the note names the file, and Read opens it', async () => {
		const outputs = new DirectoryOutputs(dir);
		const lines = Array.from({ length: 20_000 }, (_, n) => `row ${n + 1} of the big result`);
		const text = lines.join('\n');
		assert.ok(Buffer.byteLength(text) > MCP_MAX_OUTPUT_BYTES);
		const result = await keptToolResult({ content: [{ type: 'text', text }], isError: false }, outputs, 'mcp__everything__dump');
		const path = /is kept in (\S+): read it with Read/.exec(result.content)?.[1];
		assert.ok(path, result.content);
		assert.match(result.content, /^row 1 of the big result/);
		assert.match(result.content, /The result was longer than 64 KB; the middle was left out\. The whole result \(\d+(\.\d+)? KB\) is kept in /);
		assert.equal(readFileSync(path, 'utf8'), text);
		assert.match(path, /mcp__everything__dump-\d{4}-[\d-T]+Z-[0-9a-f]{8}\.txt$/);
		const context = { ...nodeToolContext([workspace]), outputs };
		const read = await readTool.run({ path, offset: 10_000, limit: 2 }, context);
		assert.equal(read.content.split('\n').map((line) => line.split('\t')[1]).join('\n'), 'row 10000 of the big result\nrow 10001 of the big result');
	});

	it('a result within the bound, or with nowhere to keep it, is given as before', async () => {
		const outputs = new DirectoryOutputs(dir);
		const small = await keptToolResult({ content: [{ type: 'text', text: 'short' }], isError: false }, outputs, 'tool');
		assert.deepEqual(small, { content: 'short' });
		assert.equal(readdirSync(home.root).includes('storage'), false, 'nothing kept');
		const big = await keptToolResult({ content: [{ type: 'text', text: 'x'.repeat(MCP_MAX_OUTPUT_BYTES * 2) }], isError: true }, undefined, 'tool');
		assert.match(big.content, /^The tool reported an error:\nx+/);
		assert.match(big.content, /the middle was left out\.$/);
		assert.equal(big.isError, true);
	});

	it('Read reaches only the files Aside kept: not a link placed in the folder, not a folder beside it, and Write never', async () => {
		const outputs = new DirectoryOutputs(dir);
		const { path } = await outputs.keep('tool', 'kept text');
		const fs = new NodeWorkspaceFs();
		assert.equal(await outputs.resolve(path, fs), path);
		writeFileSync(join(home.root, 'secret.txt'), 'secret');
		symlinkSync(join(home.root, 'secret.txt'), join(dir, 'link.txt'));
		assert.equal(await outputs.resolve(join(dir, 'link.txt'), fs), undefined, 'a symbolic link is not a kept file');
		assert.equal(await outputs.resolve(join(dir, '..', 'secret.txt'), fs), undefined);
		assert.equal(await outputs.resolve(join(dir, 'sub', 'a.txt'), fs), undefined);
		assert.equal(await outputs.resolve('tool.txt', fs), undefined, 'only by its absolute path');
		const context = { ...nodeToolContext([workspace]), outputs };
		await assert.rejects(readTool.run({ path: join(dir, 'link.txt') }, context), /outside the workspace folders/);
		assert.match((await readTool.run({ path }, context)).content, /1\tkept text/);
		const { writeTool } = await import('./write');
		await assert.rejects(writeTool.run({ path, content: 'changed' }, context), /outside the workspace folders/);
		assert.equal(readFileSync(path, 'utf8'), 'kept text');
	});

	it('the folder is bounded: old files go, the oldest go past the total, and one output past a file\'s bound keeps its start', async () => {
		let now = Date.parse('2026-12-07T08:00:00Z');
		const outputs = new DirectoryOutputs(dir, () => now, { maxBytes: 100, maxTotalBytes: 250, maxAgeMs: 1000 * 60 });
		mkdirSync(dir, { recursive: true });
		const stale = join(dir, 'old-output.txt');
		writeFileSync(stale, 'old');
		utimesSync(stale, (now - 120_000) / 1000, (now - 120_000) / 1000);
		const first = await outputs.keep('a', 'a'.repeat(100));
		assert.deepEqual(readdirSync(dir), [first.path.split('/').at(-1)], 'the two-minute-old file went');
		utimesSync(first.path, (now - 2000) / 1000, (now - 2000) / 1000);
		now += 10;
		const second = await outputs.keep('b', 'b'.repeat(100));
		utimesSync(second.path, (now - 1000) / 1000, (now - 1000) / 1000);
		const third = await outputs.keep('c', 'c'.repeat(300));
		assert.equal(third.cut, true);
		assert.equal(third.bytes, 300);
		assert.equal(readFileSync(third.path, 'utf8'), 'c'.repeat(100));
		assert.deepEqual(readdirSync(dir).sort(), [second.path, third.path].map((path) => path.split('/').at(-1)).sort(), 'the oldest went past 250 bytes');
		const note = await keptToolResult({ content: [{ type: 'text', text: 'd'.repeat(400) }], isError: false }, outputs, 'd', 50);
		assert.match(note.content, /Only its first 100 bytes were kept\.$/);
	});
});
