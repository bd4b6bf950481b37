import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { completionsAt, hoverAt, type ReminderCompletion } from './editing';
import type { FilePosition } from './spec';
import { BUILTIN_VOCABULARY } from './vocabulary';

/** The text with `|` marking the cursor, and that position. */
function at(marked: string): { readonly text: string; readonly position: FilePosition } {
	const offset = marked.indexOf('|');
	const before = marked.slice(0, offset).split('\n');
	return { text: marked.slice(0, offset) + marked.slice(offset + 1), position: { line: before.length - 1, character: (before.at(-1) ?? '').length } };
}
const complete = (marked: string, fileStem?: string): ReminderCompletion[] => {
	const { text, position } = at(marked);
	return completionsAt(text, position, { vocabulary: BUILTIN_VOCABULARY, ...(fileStem === undefined ? {} : { fileStem }) });
};
const labels = (marked: string, fileStem?: string) => complete(marked, fileStem).map((item) => item.label);

describe('completion in a reminder file', () => {
	it('offers the fields not written yet at the start of a frontmatter line, replacing the word typed', () => {
		assert.deepEqual(labels('---\nkey: a\npo|\n---\nBody'), ['label', 'policy', 'when']);
		const [item] = complete('---\npo|\n---\n');
		assert.deepEqual(item?.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 2 } });
		assert.equal(item.insertText, 'key: my-reminder');
		assert.match(item.documentation ?? '', /workspace\.<key>/);
	});

	it('offers the conditions under when', () => {
		assert.deepEqual(labels('---\nkey: a\nwhen:\n  read: "x"\n  |\n---\nBody'), ['edited', 'mode', 'tool']);
	});

	it('offers the policy values after policy:', () => {
		assert.deepEqual(labels('---\nkey: a\npolicy: |\n---\nBody'), ['every', 'on-change', 'once', '"interval: 5"']);
		const [item] = complete('---\npolicy: on|\n---\n');
		assert.deepEqual(item?.range.start, { line: 1, character: 8 });
	});

	it('offers the modes and tools of the vocabulary under when', () => {
		assert.deepEqual(labels('---\nwhen:\n  mode: |\n---\n'), ['ask', 'auto-edit', 'plan', 'full-access']);
		assert.ok(labels('---\nwhen:\n  tool: R|\n---\n').includes('Run'));
		assert.deepEqual(completionsAt('---\nwhen:\n  tool: \n---\n', { line: 2, character: 8 }, { vocabulary: { ...BUILTIN_VOCABULARY, tools: ['Only'] } }).map((item) => item.label), ['Only']);
		// Not at the top level: `mode:` there is an unknown field.
		assert.deepEqual(labels('---\nmode: |\n---\n'), []);
	});

	it('offers the file\'s name for key:, unless Aside uses it or it is no key', () => {
		assert.deepEqual(labels('---\nkey: |\n---\n', 'migrations'), ['migrations']);
		assert.deepEqual(labels('---\nkey: |\n---\n', 'instructions'), []);
		assert.deepEqual(labels('---\nkey: |\n---\n', 'two words'), []);
	});

	it('offers the placeholders after {{ in the body, closing the braces unless they are there', () => {
		assert.deepEqual(labels('---\nkey: a\n---\nMatched {{|'), ['files', 'date', 'mode']);
		assert.equal(complete('---\nkey: a\n---\n{{fi|')[0]?.insertText, 'files}}');
		assert.equal(complete('---\nkey: a\n---\n{{fi|}}')[0]?.insertText, 'files');
		assert.deepEqual(labels('---\nkey: a\n---\nNo braces |'), []);
	});

	it('offers nothing on the fence lines or in a file without frontmatter', () => {
		assert.deepEqual(labels('---|\nkey: a\n---\n'), []);
		assert.deepEqual(labels('---\nkey: a\n---|\n'), []);
		assert.deepEqual(labels('Just text {{|'), []);
	});
});

describe('hover in a reminder file', () => {
	it('documents each field and condition on its name', () => {
		const { text, position } = at('---\nkey: a\npol|icy: once\nwhen:\n  read: "x"\n---\nBody');
		const hover = hoverAt(text, position);
		assert.match(hover?.contents ?? '', /^\*\*policy\*\*: When it may fire again/);
		assert.deepEqual(hover?.range, { start: { line: 2, character: 0 }, end: { line: 2, character: 6 } });
		const read = at('---\nkey: a\nwhen:\n  re|ad: "x"\n---\nBody');
		assert.match(hoverAt(read.text, read.position)?.contents ?? '', /^\*\*when\.read\*\*: After a successful Read/);
	});

	it('documents a placeholder in the body, and nothing elsewhere', () => {
		const { text, position } = at('---\nkey: a\n---\nOn {{ da|te }}.');
		assert.match(hoverAt(text, position)?.contents ?? '', /\*\*\{\{date\}\}\*\*: Today's date/);
		const value = at('---\nkey: a|bc\n---\nBody');
		assert.equal(hoverAt(value.text, value.position), undefined);
		const unknown = at('---\nnope|: 1\n---\nBody');
		assert.equal(hoverAt(unknown.text, unknown.position), undefined);
	});
});
