import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { pdfBytes } from '../testing/pdfFixture';
import { PDF_FIRST_PAGES, PDF_MAX_PAGES, parsePageRange } from './pdf';
import { readTool } from './read';
import { invokeTool } from './registry';

describe('Read of a PDF', () => {
	const workspace = tempWorkspace();
	const context = nodeToolContext([workspace.root]);
	const read = (input: unknown) => invokeTool(readTool, input, context);
	const many = Array.from({ length: 30 }, (_, i) => `Text of page ${i + 1}`);

	before(() => {
		writeFileSync(join(workspace.root, 'small.pdf'), pdfBytes(['Hello page one\nsecond line', 'Page two (with parentheses)']));
		writeFileSync(join(workspace.root, 'long.pdf'), pdfBytes(many));
		writeFileSync(join(workspace.root, 'scanned.pdf'), pdfBytes([null, null]));
		writeFileSync(join(workspace.root, 'locked.pdf'), pdfBytes(['secret'], { encrypted: true }));
		writeFileSync(join(workspace.root, 'broken.pdf'), pdfBytes(['cut short', 'two']).subarray(0, 300));
		// A PDF by its bytes, whatever its name.
		writeFileSync(join(workspace.root, 'report.bin'), pdfBytes(['named oddly']));
		writeFileSync(join(workspace.root, 'notes.txt'), 'plain\n');
	});
	after(() => {
		workspace.dispose();
	});

	it('returns the text of each page under a --- page N --- line, with no notice for a short PDF', async () => {
		const result = await read({ path: 'small.pdf' });
		assert.equal(result.isError, undefined);
		assert.equal(result.content, '--- page 1 ---\nHello page one\nsecond line\n\n--- page 2 ---\nPage two (with parentheses)');
		assert.equal(result.notices, undefined);
		assert.deepEqual(result.detail, { kind: 'file', path: 'small.pdf', lines: 6, truncated: false });
	});

	it('reads a PDF by its bytes, not its name', async () => {
		const result = await read({ path: 'report.bin' });
		assert.equal(result.content, '--- page 1 ---\nnamed oddly');
	});

	it('shows the first pages of a long PDF and a read.pdf-pages notice with the page count and the next range', async () => {
		const result = await read({ path: 'long.pdf' });
		const pages = [...result.content.matchAll(/^--- page (\d+) ---$/gm)].map((match) => Number(match[1]));
		assert.deepEqual(pages, Array.from({ length: PDF_FIRST_PAGES }, (_, i) => i + 1));
		assert.deepEqual(result.notices, [
			{
				key: 'read.pdf-pages',
				body: `long.pdf has 30 pages; this shows pages 1–10. Prefer bounded reads: call Read with pages: "11-20" (START-END, at most ${PDF_MAX_PAGES} pages) for the pages you need.`,
			},
		]);
		assert.equal(result.detail?.kind === 'file' && result.detail.truncated, true);
	});

	it('reads the pages asked for, one or a range, and says where a range runs past the end', async () => {
		assert.equal((await read({ path: 'long.pdf', pages: '7' })).content, '--- page 7 ---\nText of page 7');
		const range = await read({ path: 'long.pdf', pages: '12-13' });
		assert.equal(range.content, '--- page 12 ---\nText of page 12\n\n--- page 13 ---\nText of page 13');
		assert.equal(range.notices, undefined);
		const past = await read({ path: 'long.pdf', pages: '29-40' });
		assert.equal(past.content, '--- page 29 ---\nText of page 29\n\n--- page 30 ---\nText of page 30');
		assert.deepEqual(past.notices?.map((notice) => notice.body), ['Pages 29–40 were asked for; the PDF ends at page 30.']);
	});

	it('cuts a range longer than the per-call bound and says how to go on', async () => {
		const result = await read({ path: 'long.pdf', pages: '1-30' });
		assert.equal([...result.content.matchAll(/^--- page/gm)].length, PDF_MAX_PAGES);
		assert.match(result.notices?.[0]?.body ?? '', /has 30 pages; this shows pages 1–20\. Read returns at most 20 pages a call\. .*pages: "21-30"/);
	});

	it('says clearly when the pages have no extractable text', async () => {
		const result = await read({ path: 'scanned.pdf' });
		assert.equal(result.content, '--- page 1 ---\n(no text on this page)\n\n--- page 2 ---\n(no text on this page)');
		assert.deepEqual(result.notices, [{ key: 'read.pdf-pages', body: 'Pages 1–2 of scanned.pdf have no extractable text: the PDF is probably scanned images, which Read cannot turn into text.' }]);
	});

	it('refuses an encrypted PDF and a broken one with a clear error', async () => {
		const locked = await read({ path: 'locked.pdf' });
		assert.equal(locked.isError, true);
		assert.equal(locked.content, 'locked.pdf: it is encrypted (password-protected); its text cannot be read.');
		const broken = await read({ path: 'broken.pdf' });
		assert.equal(broken.isError, true);
		assert.match(broken.content, /^broken\.pdf: it is not a readable PDF \(.+\)\.$/);
	});

	it('refuses a page past the end, a malformed pages, and pages for a file that is not a PDF', async () => {
		assert.equal((await read({ path: 'small.pdf', pages: '3' })).content, 'small.pdf: page 3 is past its end: it has 2 pages.');
		assert.match((await read({ path: 'small.pdf', pages: '5-2' })).content, /^small\.pdf: pages must be one page \("3"\) or a range \("2-5"\)/);
		assert.match((await read({ path: 'small.pdf', pages: 'all' })).content, /got "all"/);
		const text = await read({ path: 'notes.txt', pages: '1' });
		assert.equal(text.isError, true);
		assert.equal(text.content, 'pages is for PDF files; notes.txt is not a PDF. Use offset and limit to read a range of its lines.');
	});

	it('parses page ranges', () => {
		assert.deepEqual(parsePageRange('3'), { start: 3, end: 3 });
		assert.deepEqual(parsePageRange(' 2 - 5 '), { start: 2, end: 5 });
		assert.deepEqual(parsePageRange('2–5'), { start: 2, end: 5 });
		assert.throws(() => parsePageRange('0'), /1-based/);
		assert.throws(() => parsePageRange('1-2-3'), /got "1-2-3"/);
	});

	it('keeps a text file readable as before', async () => {
		assert.equal((await read({ path: 'notes.txt' })).content, '     1\tplain');
	});
});
