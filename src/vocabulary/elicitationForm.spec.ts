// An elicitation form from the server's requested schema: its fields (titled and legacy enums,
// formats, ranges), the form as it opens with the schema's defaults, and the entries checked into
// the content sent back — an omitted optional field takes its default (SEP-1034).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkEntries, type ElicitationField, fieldsOf, initialEntries } from './elicitationForm';

/** The conformance suite's SEP-1034 schema: every field optional, every one with a default. */
const DEFAULTS = {
	type: 'object',
	properties: {
		name: { type: 'string', description: 'User name', default: 'John Doe' },
		age: { type: 'integer', description: 'User age', default: 30 },
		score: { type: 'number', description: 'User score', default: 95.5 },
		status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
		verified: { type: 'boolean', description: 'Verification status', default: true },
	},
	required: [],
};

function fields(schema: Record<string, unknown>): ElicitationField[] {
	const form = fieldsOf(schema);
	assert.ok('fields' in form, JSON.stringify(form));
	return form.fields;
}

describe('elicitation forms', () => {
	it('reads each kind of field, with its title, description, options and default', () => {
		const read = fields({
			type: 'object',
			properties: {
				email: { type: 'string', title: 'Email', format: 'email', minLength: 3 },
				hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }, { const: 'h2', title: 'Wonder Woman' }], default: 'h2' },
				legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['Alpha'] },
				fish: { type: 'array', minItems: 1, maxItems: 2, items: { anyOf: [{ const: 'f1', title: 'Tuna' }, { const: 'f2', title: 'Trout' }] }, default: ['f1', 'unknown'] },
				count: { type: 'integer', minimum: 1, maximum: 9 },
			},
			required: ['email'],
		});
		assert.deepEqual(read, [
			{ kind: 'text', name: 'email', title: 'Email', required: true, format: 'email', minLength: 3 },
			{ kind: 'choice', name: 'hero', title: 'hero', required: false, options: [{ value: 'h1', label: 'Superman' }, { value: 'h2', label: 'Wonder Woman' }], default: 'h2' },
			{ kind: 'choice', name: 'legacy', title: 'legacy', required: false, options: [{ value: 'a', label: 'Alpha' }, { value: 'b', label: 'b' }] },
			{ kind: 'multi', name: 'fish', title: 'fish', required: false, options: [{ value: 'f1', label: 'Tuna' }, { value: 'f2', label: 'Trout' }], minItems: 1, maxItems: 2, default: ['f1'] },
			{ kind: 'number', name: 'count', title: 'count', required: false, integer: true, minimum: 1, maximum: 9 },
		]);
	});

	it('says why a schema cannot be a form', () => {
		assert.deepEqual(fieldsOf({ type: 'string' }), { problem: 'the requested schema is not an object with properties' });
		assert.deepEqual(fieldsOf({ type: 'object', properties: { when: { type: 'string', format: 'time' } } }), { problem: '"when" asks for a string of format "time"' });
		assert.deepEqual(fieldsOf({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } }), { problem: '"tags" is a list of something other than choices' });
	});

	it('opens with the defaults filled in, and sends them as they are (SEP-1034)', () => {
		const read = fields(DEFAULTS);
		const initial = initialEntries(read);
		assert.deepEqual(initial, { name: 'John Doe', age: '30', score: '95.5', status: 'active', verified: true });
		assert.deepEqual(checkEntries(read, initial), { content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true } });
	});

	it('an optional field left empty takes its default; one without a default is left out', () => {
		const read = fields({ type: 'object', properties: { name: { type: 'string', default: 'John Doe' }, nick: { type: 'string' }, age: { type: 'integer', default: 30 } } });
		assert.deepEqual(checkEntries(read, { name: '', nick: '  ', age: '' }), { content: { name: 'John Doe', age: 30 } });
		assert.deepEqual(checkEntries(read, {}), { content: { name: 'John Doe', age: 30 } });
	});

	it('says what is wrong with each field, and sends nothing then', () => {
		const read = fields({
			type: 'object',
			properties: {
				email: { type: 'string', format: 'email' },
				site: { type: 'string', format: 'uri' },
				born: { type: 'string', format: 'date' },
				code: { type: 'string', minLength: 2, maxLength: 3 },
				count: { type: 'integer', minimum: 1, maximum: 9 },
				ratio: { type: 'number' },
				pick: { type: 'string', enum: ['a', 'b'] },
				many: { type: 'array', items: { enum: ['x', 'y', 'z'] }, maxItems: 1 },
				must: { type: 'string' },
			},
			required: ['must'],
		});
		const entries = { email: 'ada@', site: 'example.com', born: '2026-13-45', code: 'abcd', count: '2.5', ratio: 'lots', pick: 'c', many: ['x', 'y'], must: '' };
		assert.deepEqual(checkEntries(read, entries), {
			problems: {
				email: 'An email address, like name@example.com.',
				site: 'A full address, like https://example.com.',
				born: 'A date, like 2026-12-31.',
				code: 'At most 3 characters.',
				count: 'A whole number.',
				ratio: 'A number.',
				pick: 'Choose one of the options.',
				many: 'Choose at most 1.',
				must: 'Required.',
			},
		});
		const fixed = { ...entries, email: 'ada@example.com', site: 'https://example.com', born: '2026-12-31', code: 'ab', count: '12', ratio: '0.5', pick: 'b', many: ['z'], must: 'yes' };
		assert.deepEqual(checkEntries(read, fixed), { problems: { count: 'From 1 to 9.' } });
		assert.deepEqual(checkEntries(read, { ...fixed, count: '9' }), {
			content: { email: 'ada@example.com', site: 'https://example.com', born: '2026-12-31', code: 'ab', count: 9, ratio: 0.5, pick: 'b', many: ['z'], must: 'yes' },
		});
	});
});
