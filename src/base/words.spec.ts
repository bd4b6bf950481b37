import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { articleFor, plural, withArticle } from './words';

describe('words', () => {
	it('puts "an" before a vowel and "a" before a consonant: the tool names, hook events and types generated texts name', () => {
		assert.deepEqual(
			['Edit', 'ApplyPatch', 'Agent', 'Read', 'Run', 'Write', 'Glob', 'PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'object', 'undefined', 'array', 'string', 'number', 'editedFiles'].map(withArticle),
			['an Edit', 'an ApplyPatch', 'an Agent', 'a Read', 'a Run', 'a Write', 'a Glob', 'a PreToolUse', 'a PostToolUse', 'a UserPromptSubmit', 'an object', 'an undefined', 'an array', 'a string', 'a number', 'an editedFiles'],
		);
	});

	it('goes by the sound where the letter misleads: a user, a unique, an hour, an MCP tool, a URL', () => {
		assert.deepEqual(['user', 'unique', 'one', 'hour', 'MCP', 'SSE', 'URL', 'JSON', 'HTTP', 'uninstall'].map(articleFor), ['a', 'a', 'a', 'an', 'an', 'an', 'a', 'a', 'an', 'an']);
	});

	it('says "a" for nothing rather than failing', () => {
		assert.equal(articleFor(''), 'a');
	});

	it('counts with the noun in the number it needs', () => {
		assert.deepEqual([plural(0, 'file'), plural(1, 'file'), plural(2, 'file'), plural(1024, 'byte'), plural(1, 'entry', 'entries'), plural(3, 'entry', 'entries')], ['0 files', '1 file', '2 files', '1,024 bytes', '1 entry', '3 entries']);
	});
});
