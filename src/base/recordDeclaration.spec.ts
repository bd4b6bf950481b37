import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { declareRecord, readRecord, RecordProblem } from './recordDeclaration';

const Note = z.object({ kind: z.literal('note'), id: z.string().min(1), text: z.string(), pinned: z.boolean().optional() });
// What the schema cannot say, for the test: a pinned note has text.
const NOTE = declareRecord(Note, (note) => (note.pinned === true && note.text === '' ? 'a pinned note has no text.' : undefined));

describe('declareRecord', () => {
	it('is the one declaration of a kind: its kind from the schema, its fast check derived from it', () => {
		assert.equal(NOTE.kind, 'note');
		assert.equal(NOTE.schema, Note);
		assert.equal(NOTE.isAsWritten({ kind: 'note', id: 'n1', text: 'x' }), true);
		assert.equal(NOTE.isAsWritten({ kind: 'note', id: '', text: 'x' }), false);
	});

	it('throws at load for a schema it cannot make a record of', () => {
		assert.throws(() => declareRecord(z.object({ id: z.string() })), /starts with `kind: z.literal/);
		assert.throws(() => declareRecord(z.object({ kind: z.enum(['a', 'b']) })), /starts with `kind: z.literal/);
		assert.throws(() => declareRecord(z.object({ kind: z.literal('x'), at: z.date() })), /No fast check for x\.at: zod's date/);
	});
});

describe('readRecord', () => {
	it('takes a record as written as it is, and copies anything else through zod', () => {
		const written = { kind: 'note', id: 'n1', text: 'x' };
		assert.equal(readRecord(NOTE, written), written, 'not copied');
		const newer = { text: 'x', id: 'n1', kind: 'note', later: true };
		const copied = readRecord(NOTE, newer);
		assert.notEqual(copied, newer);
		assert.deepEqual(Object.keys(copied), ['kind', 'id', 'text'], 'unknown fields dropped, kind first');
	});

	it('words what the schema refuses, with its path', () => {
		assert.deepEqual(readRecord(NOTE, { kind: 'note', id: '', text: 'x' }), new RecordProblem('invalid', 'id: Too small: expected string to have >=1 characters.'));
		assert.deepEqual(readRecord(NOTE, 7), new RecordProblem('invalid', 'record: Invalid input: expected object, received number.'));
	});

	it('asks the rule of a record either path took', () => {
		const refused = new RecordProblem('refused', 'a pinned note has no text.');
		assert.deepEqual(readRecord(NOTE, { kind: 'note', id: 'n1', text: '', pinned: true }), refused, 'as written');
		assert.deepEqual(readRecord(NOTE, { kind: 'note', id: 'n1', text: '', pinned: true, later: 1 }), refused, 'through zod');
	});
});
