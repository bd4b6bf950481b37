import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import '../testing/chatFeatures';
import { fileAlreadyInContext, fileRejected, folderRejected, mentionedFile, mentionedFolder, mentionedProblems, mentionedSelection } from '../reminders/builtin/mentions';
import type { StagedEntry } from '../reminders/definition';
import { chipsOf, settleChips } from './mentionChips';

/** As the injection record keeps an entry. */
const recorded = (entry: StagedEntry) => ({ key: entry.key, body: entry.body ?? '', reason: entry.reason ?? '' });
const file = (shown: string) => recorded(mentionedFile({ shown, text: 'x', first: 1, last: 1, total: 1, cut: false, subject: { ref: `/w/${shown}`, hashes: ['abcdef12'] } }));

describe('the chips of a user row', () => {
	it('one per mention, as written, of every kind: ranges, folders, quoted paths, keywords', () => {
		const chips = chipsOf('see @src/a.ts#L10-40 and @docs/ with @"my notes.md" then @problems, @selection and @changes.');
		assert.deepEqual(chips, [
			{ kind: 'file', label: 'src/a.ts#L10-40', path: 'src/a.ts', range: { start: 10, end: 40 }, state: 'pending' },
			{ kind: 'folder', label: 'docs/', path: 'docs', state: 'pending' },
			{ kind: 'file', label: '"my notes.md"', path: 'my notes.md', state: 'pending' },
			{ kind: 'problems', label: 'problems', state: 'pending' },
			{ kind: 'selection', label: 'selection', state: 'pending' },
			{ kind: 'changes', label: 'changes', state: 'pending' },
		]);
	});

	it('none for an @ that is no mention: an e-mail address, a version, a lone @', () => {
		assert.deepEqual(chipsOf('mail me at me@example.com about x@2 or @ alone'), []);
	});

	it('settle from the first request\'s entries: attached, already in context, rejected with the reason', () => {
		const chips = chipsOf('@src/a.ts @b.ts @"gone file.md" @docs/ @problems');
		const settled = settleChips(chips, [
			{ key: 'session.date', body: 'Today.', reason: 'a new day' },
			file('src/a.ts'),
			recorded(fileAlreadyInContext('b.ts')),
			recorded(fileRejected('@"gone file.md"', 'no such file in the workspace folders.')),
			recorded(mentionedFolder({ shown: 'docs', names: ['a.md'], omitted: 0 })),
			recorded(mentionedProblems({ files: [], errors: 0, warnings: 0, omitted: 0 })),
		]);
		assert.deepEqual(settled.map((chip) => [chip.label, chip.kind, chip.state, chip.detail]), [
			['src/a.ts', 'file', 'attached', undefined],
			['b.ts', 'file', 'in-context', undefined],
			['"gone file.md"', 'file', 'rejected', 'no such file in the workspace folders.'],
			['docs/', 'folder', 'attached', undefined],
			['problems', 'problems', 'attached', undefined],
		]);
	});

	it('a path that named nothing stayed text: its chip goes; a folder written without its slash becomes a folder chip', () => {
		const chips = chipsOf('ask @someone about @src and @a.ts');
		const settled = settleChips(chips, [recorded(mentionedFolder({ shown: 'src', names: [], omitted: 0 })), file('a.ts')]);
		assert.deepEqual(settled.map((chip) => [chip.label, chip.kind, chip.state]), [
			['src', 'folder', 'attached'],
			['a.ts', 'file', 'attached'],
		]);
		assert.deepEqual(settleChips(chips, []), [], 'no entries at all: every path named nothing');
		const near = settleChips(chipsOf('@a then @./a.ts and @docs'), [file('a.ts'), recorded(mentionedFolder({ shown: 'docs', names: [], omitted: 0 }))]);
		assert.deepEqual(near.map((chip) => chip.label), ['./a.ts', 'docs'], '`@a` is not the entry of a.ts; `./a.ts` is');
		const elsewhere = settleChips(chipsOf('@/w/second/src/b.ts'), [file('src/b.ts')]);
		assert.deepEqual(elsewhere.map((chip) => chip.state), ['attached'], 'an absolute path matches the place as shown');
	});

	it('a keyword that attached nothing says so; a rejected folder keeps its reason', () => {
		const settled = settleChips(chipsOf('@selection @out/'), [recorded(mentionedSelection(undefined)), recorded(folderRejected('@out/', 'it is outside the workspace folders.'))]);
		assert.deepEqual(settled.map((chip) => [chip.kind, chip.state, chip.detail]), [
			['selection', 'rejected', 'but no editor has a selection right now: nothing is attached.'],
			['folder', 'rejected', 'it is outside the workspace folders.'],
		]);
	});

	it('a chat feature\'s kind (`@mcp:`) is a resource chip, settled by the entry of its key that names it as written', () => {
		const chips = chipsOf('compare @mcp:docs/guide://a and @mcp:"docs/my notes" with @a.ts, @mcp:docs/guide://ab and @mcp:gone/x');
		assert.deepEqual(chips.map((chip) => [chip.kind, chip.label, chip.state]), [
			['resource', 'mcp:docs/guide://a', 'pending'],
			['resource', 'mcp:"docs/my notes"', 'pending'],
			['file', 'a.ts', 'pending'],
			['resource', 'mcp:docs/guide://ab', 'pending'],
			['resource', 'mcp:gone/x', 'pending'],
		]);
		const resource = (body: string, reason: string) => ({ key: 'mention.mcp-resource', body, reason });
		const settled = settleChips(chips, [
			resource('The user mentioned @mcp:docs/guide://a: the resource guide://a of the MCP server docs (lines 1–3 of 3). Its contents, as of this message:\n\n```\nx\n```', 'you mentioned an MCP resource'),
			resource('The user mentioned @mcp:"docs/my notes" again. It is already in context, unchanged, from an earlier message of this chat; it is not attached again.', 'you mentioned an MCP resource already given'),
			file('a.ts'),
			resource('The user mentioned @mcp:docs/guide://ab, which is not attached: the MCP server "docs" could not read it: Resource not found.', 'you mentioned an MCP resource that could not be attached'),
		]);
		assert.deepEqual(settled.map((chip) => [chip.kind, chip.label, chip.state, chip.detail]), [
			['resource', 'mcp:docs/guide://a', 'attached', undefined],
			['resource', 'mcp:"docs/my notes"', 'in-context', undefined],
			['file', 'a.ts', 'attached', undefined],
			['resource', 'mcp:docs/guide://ab', 'rejected', 'the MCP server "docs" could not read it: Resource not found.'],
		]);
		const offByOne = settleChips(chipsOf('@mcp:docs/guide://a'), [resource('The user mentioned @mcp:docs/guide://ab: the resource …', 'you mentioned an MCP resource')]);
		assert.deepEqual(offByOne, [], 'an entry of another resource is not this chip\'s');
	});
});
