import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mentionText } from '../protocol/mentions';
import { parseMentions } from './parse';

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
});
