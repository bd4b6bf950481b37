import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mentionText } from '../protocol/mentions';
import { contributedMentionText, parseMentions } from './parse';

const raws = (text: string) => parseMentions(text).map((token) => token.raw);

describe('finding mentions in a message', () => {
	it('finds keywords, paths, ranges and folders, in the order typed', () => {
		assert.deepEqual(parseMentions('Fix @problems in @src/a.ts#L10-40 and @src/b.ts#L7, see @docs/ and @changes, @selection'), [
			{ kind: 'keyword', raw: '@problems', keyword: 'problems' },
			{ kind: 'path', raw: '@src/a.ts#L10-40', path: 'src/a.ts', range: { start: 10, end: 40 }, folder: false, quoted: false },
			{ kind: 'path', raw: '@src/b.ts#L7', path: 'src/b.ts', range: { start: 7, end: 7 }, folder: false, quoted: false },
			{ kind: 'path', raw: '@docs/', path: 'docs', folder: true, quoted: false },
			{ kind: 'keyword', raw: '@changes', keyword: 'changes' },
			{ kind: 'keyword', raw: '@selection', keyword: 'selection' },
		]);
	});

	it('leaves e-mail addresses and versions alone: `@` must start a word', () => {
		assert.deepEqual(raws('Mail ann@example.com about pkg@1.2.3 and x@problems'), []);
	});

	it('leaves sentence punctuation and brackets out of a path', () => {
		assert.deepEqual(raws('See @a.ts. Also (@b.ts), @c.ts; and @d.ts!'), ['@a.ts', '@b.ts', '@c.ts', '@d.ts']);
	});

	it('takes a quoted path with spaces, with its range', () => {
		assert.deepEqual(parseMentions('Read @"my notes.md"#L2-3 please'), [{ kind: 'path', raw: '@"my notes.md"#L2-3', path: 'my notes.md', range: { start: 2, end: 3 }, folder: false, quoted: true }]);
	});

	it('refuses a range that runs backwards or starts at 0, and a lone @', () => {
		assert.deepEqual(raws('@a.ts#L9-3 @b.ts#L0 @ @. done'), []);
	});

	it('inside back-ticks or quotes an @path is text, not a mention; a quoted path after @ still is one', () => {
		assert.deepEqual(raws('See `@src/a.ts` and ``x @b.ts`` and\n```\n@c.ts\n```\nor "@d.ts" or \'@e.ts\', but @f.ts and @"my notes.md"'), ['@f.ts', '@"my notes.md"']);
		assert.deepEqual(raws("don't miss @a.ts, it's here"), ['@a.ts'], 'an apostrophe opens no quote');
		assert.deepEqual(raws('an unclosed ` then @a.ts, and "@b.ts'), ['@a.ts', '@b.ts']);
	});

	it('gives each mention once', () => {
		assert.deepEqual(raws('@a.ts and @a.ts again, @problems @problems'), ['@a.ts', '@problems']);
	});

	it('writes a mention back the way it is parsed, quoting a path with a space', () => {
		for (const [path, range] of [['src/a.ts', undefined], ['my notes.md', { start: 2, end: 9 }], ['b.ts', { start: 4, end: 4 }]] as const) {
			const [token] = parseMentions(`x ${mentionText(path, range)} y`);
			assert.equal(token?.kind === 'path' ? token.path : '', path);
			assert.deepEqual(token?.kind === 'path' ? token.range : undefined, range);
		}
	});

	it('reads a contributed kind\'s mention after its prefix: the rest as typed, `/`, `:` and `?` included, trailing sentence punctuation left out', () => {
		const mcp = ['mcp:'];
		assert.deepEqual(parseMentions('Read @mcp:everything/demo://resource/static/document/architecture.md. Then @mcp:db/pg://rows?limit=10&where=a:b and (@mcp:s/x).', mcp), [
			{ kind: 'contributed', raw: '@mcp:everything/demo://resource/static/document/architecture.md', prefix: 'mcp:', body: 'everything/demo://resource/static/document/architecture.md' },
			{ kind: 'contributed', raw: '@mcp:db/pg://rows?limit=10&where=a:b', prefix: 'mcp:', body: 'db/pg://rows?limit=10&where=a:b' },
			{ kind: 'contributed', raw: '@mcp:s/x', prefix: 'mcp:', body: 's/x' },
		]);
	});

	it('takes a quoted rest whole: spaces, a closing `?` or `)`, quotes of the other kind', () => {
		assert.deepEqual(parseMentions('See @mcp:"files/file:///my notes/a b.md?" and @mcp:"wiki/page (draft)" and @mcp:"w/it\'s \'here\'".', ['mcp:']), [
			{ kind: 'contributed', raw: '@mcp:"files/file:///my notes/a b.md?"', prefix: 'mcp:', body: 'files/file:///my notes/a b.md?' },
			{ kind: 'contributed', raw: '@mcp:"wiki/page (draft)"', prefix: 'mcp:', body: 'wiki/page (draft)' },
			{ kind: 'contributed', raw: '@mcp:"w/it\'s \'here\'"', prefix: 'mcp:', body: 'w/it\'s \'here\'' },
		]);
	});

	it('reads a prefix no kind registered, and a bare prefix, as it always did: a path (which stays text unless it names a file)', () => {
		assert.deepEqual(parseMentions('@mcp:srv/uri and @x:"y z"', []).map((token) => [token.kind, token.raw]), [['path', '@mcp:srv/uri'], ['path', '@x']]);
		assert.deepEqual(parseMentions('@mcp: alone, @mcp:. too', ['mcp:']).map((token) => [token.kind, token.raw]), [['path', '@mcp']]);
		assert.deepEqual(parseMentions('`@mcp:a/b` and "@mcp:c/d"', ['mcp:']), [], 'in back-ticks or quotes it is text');
	});

	it('writes a contributed mention back the way it is parsed: quoted when it has a space or a quote or ends in punctuation; never with a double quote or a line break', () => {
		for (const body of ['s/demo://a/b.md', 's/a b', 's/pg://x?', 's/page (draft)', 's/it\'s', 's/a|b', 's/x.', 's/tab\there', 's/a:b:c?d=e']) {
			const text = contributedMentionText('mcp:', body);
			assert.ok(text !== undefined, body);
			const [token] = parseMentions(`see ${text}, then`, ['mcp:']);
			assert.deepEqual(token?.kind === 'contributed' ? token.body : undefined, body, `${text} parses back to ${body}`);
		}
		assert.equal(contributedMentionText('mcp:', 's/demo://a/b.md'), '@mcp:s/demo://a/b.md', 'unquoted when it can be');
		assert.equal(contributedMentionText('mcp:', 's/say "hi"'), undefined);
		assert.equal(contributedMentionText('mcp:', 's/two\nlines'), undefined);
	});
});
