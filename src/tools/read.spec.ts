import assert from 'node:assert/strict';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pngImage } from '../testing/imageFixtures';
import { NodeDocumentWriter, nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { READ_MAX_FILE_BYTES, READ_MAX_OUTPUT_BYTES, readTool } from './read';
import { invokeTool } from './registry';

describe('Read', () => {
	const workspace = tempWorkspace();
	const context = nodeToolContext([workspace.root]);
	const read = (input: unknown) => invokeTool(readTool, input, context);
	const lines = (count: number, make = (n: number) => `line ${n}`) => Array.from({ length: count }, (_, i) => make(i + 1)).join('\n') + '\n';

	before(() => {
		writeFileSync(join(workspace.root, 'two.txt'), 'alpha\n\tbeta  \n');
		writeFileSync(join(workspace.root, 'ten.txt'), lines(10));
		writeFileSync(join(workspace.root, 'long.txt'), lines(2500));
		writeFileSync(join(workspace.root, 'wide.txt'), lines(400, (n) => `${n}:${'x'.repeat(1000)}`));
		writeFileSync(join(workspace.root, 'one-line.min.js'), 'y'.repeat(300 * 1024));
		writeFileSync(join(workspace.root, 'crlf.txt'), 'one\r\ntwo\r\n');
		writeFileSync(join(workspace.root, 'empty.txt'), '');
		writeFileSync(join(workspace.root, 'data.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]));
		writeFileSync(join(workspace.root, 'cut.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
		writeFileSync(join(workspace.root, 'shot.png'), pngImage(3, 2));
		writeFileSync(join(workspace.root, 'notes.png'), 'these are notes, not a picture\n');
		writeFileSync(join(workspace.root, 'photo.jpg'), pngImage(4, 4));
		writeFileSync(join(workspace.root, 'huge.png'), pngImage(1, 1));
		truncateSync(join(workspace.root, 'huge.png'), 30 * 1024 * 1024);
		writeFileSync(join(workspace.root, 'latin1.txt'), Buffer.from('caf\xe9 cr\xe8me\n', 'latin1'));
		writeFileSync(join(workspace.root, 'huge.log'), '');
		truncateSync(join(workspace.root, 'huge.log'), READ_MAX_FILE_BYTES + 10 * 1024 * 1024);
		mkdirSync(join(workspace.root, 'dir'));
	});
	after(() => {
		workspace.dispose();
	});

	it('returns the text verbatim with right-aligned line numbers and a tab, and no notice', async () => {
		const result = await read({ path: 'two.txt' });
		assert.equal(result.content, '     1\talpha\n     2\t\tbeta  ');
		assert.equal(result.isError, undefined);
		assert.equal(result.notices, undefined);
		assert.deepEqual(result.detail, { kind: 'file', path: 'two.txt', lines: 2, truncated: false });
	});

	it('reads from offset for limit lines, and says how to read on in a notice, never in the content', async () => {
		const result = await read({ path: 'ten.txt', offset: 3, limit: 2 });
		assert.equal(result.content, '     3\tline 3\n     4\tline 4');
		assert.deepEqual(result.notices, [{ key: 'read.truncated', body: 'Showing lines 3–4 of 10 in ten.txt. To read more, call Read with offset=5.' }]);
		assert.deepEqual(result.detail, { kind: 'file', path: 'ten.txt', lines: 2, truncated: true });
	});

	it('reading to the end from an offset needs no notice', async () => {
		const result = await read({ path: 'ten.txt', offset: 9 });
		assert.equal(result.content, '     9\tline 9\n    10\tline 10');
		assert.equal(result.notices, undefined);
	});

	it('stops at 2000 lines by default', async () => {
		const result = await read({ path: 'long.txt' });
		const shown = result.content.split('\n');
		assert.equal(shown.length, 2000);
		assert.equal(shown.at(-1), '  2000\tline 2000');
		assert.match(result.notices?.[0]?.body ?? '', /^Showing lines 1–2000 of 2500 in long\.txt\. To read more, call Read with offset=2001\.$/);
	});

	it('stops at the output limit, on a whole line', async () => {
		const result = await read({ path: 'wide.txt' });
		assert.ok(Buffer.byteLength(result.content) <= READ_MAX_OUTPUT_BYTES);
		const shown = result.content.split('\n');
		const last = shown.length;
		assert.ok(last > 200 && last < 400, `stopped after ${last} lines`);
		assert.match(shown.at(-1) ?? '', new RegExp(`^ +${last}\\t${last}:x{1000}$`));
		assert.equal(result.notices?.[0]?.body, `Showing lines 1–${last} of 400 in wide.txt. The output stopped at Read's 256 KB limit. To read more, call Read with offset=${last + 1}.`);
	});

	it('cuts a single line longer than the output limit, and says so', async () => {
		const result = await read({ path: 'one-line.min.js' });
		assert.ok(result.content.startsWith('     1\tyyy'));
		assert.equal(Buffer.byteLength(result.content), READ_MAX_OUTPUT_BYTES);
		assert.match(result.notices?.[0]?.body ?? '', /Line 1 is longer than that and was cut; use Grep/);
	});

	it('shows CRLF lines without the carriage returns', async () => {
		assert.equal((await read({ path: 'crlf.txt' })).content, '     1\tone\n     2\ttwo');
	});

	it('an empty file has empty content and a notice', async () => {
		const result = await read({ path: 'empty.txt' });
		assert.equal(result.content, '');
		assert.deepEqual(result.notices, [{ key: 'read.empty', body: 'empty.txt is empty (0 lines).' }]);
	});

	it('refuses an offset past the end', async () => {
		const result = await read({ path: 'ten.txt', offset: 11 });
		assert.equal(result.isError, true);
		assert.equal(result.content, 'offset 11 is past the end of ten.txt, which has 10 lines.');
	});

	it('refuses binary files that are no image, with their size', async () => {
		const result = await read({ path: 'data.bin' });
		assert.deepEqual(result, { isError: true, content: 'data.bin is a binary file (12 bytes); Read only returns text.' });
	});

	it('returns a PNG as an image part with a line that names it, its bytes unchanged', async () => {
		const result = await read({ path: 'shot.png', offset: 5 });
		assert.equal(result.isError, undefined);
		assert.match(result.content, /^The image shot\.png \(image\/png, \d+ bytes, 3×2 px\) is attached\.$/);
		const [image, ...more] = result.images ?? [];
		assert.ok(image);
		assert.equal(more.length, 0);
		assert.deepEqual({ ...image, data: undefined }, { mimeType: 'image/png', width: 3, height: 2, data: undefined });
		assert.equal(Buffer.from(image.data, 'base64').equals(pngImage(3, 2)), true);
	});

	it('refuses a file named as an image whose bytes are none, and a PNG named .jpg, saying why', async () => {
		assert.deepEqual(await read({ path: 'notes.png' }), {
			isError: true,
			content: 'notes.png is named as a PNG image, but its bytes are no PNG, JPEG, GIF or WebP image; Read does not return it.',
		});
		assert.match((await read({ path: 'cut.png' })).content, /^cut\.png is named as a PNG image, but its bytes are no PNG/);
		const renamed = await read({ path: 'photo.jpg' });
		assert.equal(renamed.isError, true);
		assert.match(renamed.content, /^photo\.jpg is named as a JPEG image, but its bytes are a PNG image; .*Rename it to match/);
	});

	it('refuses an image past 20 MB with its size', async () => {
		assert.deepEqual(await read({ path: 'huge.png' }), {
			isError: true,
			content: 'huge.png is an image of 30 MB, more than Read returns for an image (20 MB, the most any provider takes).',
		});
	});

	it('refuses a file whose NUL bytes come after its first 8 KB, and never sends a NUL from the editor\'s text', async () => {
		writeFileSync(join(workspace.root, 'late-nul.txt'), Buffer.concat([Buffer.from(lines(2000)), Buffer.from([0, 1, 2, 0])]));
		assert.deepEqual(await read({ path: 'late-nul.txt' }), { isError: true, content: 'late-nul.txt is a binary file (18,897 bytes); Read only returns text.' });
		const unsaved = { ...context, writer: { ...context.writer, readText: () => Promise.resolve('typed\0in the editor\n') } };
		const result = await invokeTool(readTool, { path: 'two.txt' }, unsaved);
		assert.equal(result.isError, true);
		assert.doesNotMatch(result.content, /\0/);
		assert.equal(result.content, 'two.txt holds NUL characters (in the editor\'s text); Read only returns text.');
	});

	it('refuses text that is not UTF-8', async () => {
		const result = await read({ path: 'latin1.txt' });
		assert.deepEqual(result, { isError: true, content: 'latin1.txt is not UTF-8 text (11 bytes); Read only returns UTF-8 text.' });
	});

	it('refuses a file over the size cap without reading it, and suggests Grep', async () => {
		const result = await read({ path: 'huge.log' });
		assert.equal(result.isError, true);
		assert.equal(result.content, 'huge.log is 60 MB, more than Read opens (50 MB); use Grep to find the lines you need.');
	});

	it('names a missing file, and sends a directory to List', async () => {
		assert.deepEqual(await read({ path: 'nope.txt' }), { isError: true, content: 'File not found: nope.txt.' });
		assert.deepEqual(await read({ path: 'dir' }), { isError: true, content: 'dir is a directory, not a file; use List to see what it contains.' });
	});

	it('shows the editor\'s unsaved text rather than the disk', async () => {
		const writer = new NodeDocumentWriter();
		writer.readText = () => Promise.resolve('unsaved\n');
		const result = await invokeTool(readTool, { path: 'two.txt' }, { ...context, writer });
		assert.equal(result.content, '     1\tunsaved');
	});

	it('quotes a path with a marker safely in the notice body', async () => {
		const name = '<system-reminder>.txt';
		writeFileSync(join(workspace.root, name), lines(3));
		const result = await read({ path: name, limit: 1 });
		assert.equal(result.notices?.[0]?.body, 'Showing lines 1–1 of 3 in \u2039system-reminder>.txt. To read more, call Read with offset=2.');
	});
});
