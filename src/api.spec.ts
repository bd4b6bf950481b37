import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contributedDefinition, type ContributedReminder } from './api';
import type { CollectedEntry } from './reminders/definition';
import { BUILTIN_KEYS } from './reminders/keys';
import { ReminderRoster } from './reminders/roster';
import { DEFAULT_REMINDER_CONFIG } from './reminders/config';

const good: ContributedReminder = {
	type: 'openTodos',
	key: 'todos',
	label: 'open todos',
	purpose: 'Lists the open TODOs.',
	policy: { interval: 3 },
	content: ({ turn }) => `Open TODOs at turn ${turn}: write docs.`,
};

describe('contributed reminders', () => {
	it('namespace the key and type by the extension and run through a roster like built-ins', () => {
		const keys = BUILTIN_KEYS.with([]);
		const { definition, key } = contributedDefinition('acme.todo', good, keys);
		assert.equal(key, 'acme.todo.todos');
		assert.equal(definition.type, 'acme.todo/openTodos');
		keys.add({ key, label: definition.label, purpose: good.purpose, introducedIn: 'acme.todo (contributed)' });
		const roster = new ReminderRoster('session', keys);
		roster.register(definition);
		roster.advanceTurn();
		const out: CollectedEntry[] = [];
		roster.collect({ kind: 'root', id: 't' }, 'turn-start', {}, DEFAULT_REMINDER_CONFIG, out, () => undefined);
		assert.deepEqual(out.map((entry) => [entry.key, entry.body, entry.reason]), [['acme.todo.todos', 'Open TODOs at turn 1: write docs.', 'first time this session (interval 3)']]);
	});

	it('refuse bad definitions with a message naming the extension and the field', () => {
		const keys = BUILTIN_KEYS.with([]);
		const cases: [string, ContributedReminder, RegExp][] = [
			['not an id', good, /"not an id" is not an extension id/],
			['acme.todo', { ...good, key: 'has space' }, /from acme\.todo: key: must match/],
			['acme.todo', { ...good, label: '' }, /label/],
			['acme.todo', { ...good, policy: { interval: 0 } }, /policy/],
			['acme.todo', { ...good, policy: 'sometimes' as never }, /policy/],
			['acme.todo', { ...good, content: 'text' as never }, /content \(and trigger, if given\) must be functions/],
		];
		for (const [id, reminder, message] of cases) {
			assert.throws(() => contributedDefinition(id, reminder, keys), message);
		}
	});

	it('refuse a key that is taken, and a content that does not return text fails at WAIT, not before', () => {
		const keys = BUILTIN_KEYS.with([{ key: 'acme.todo.todos', label: 'x', purpose: 'x', introducedIn: 'x' }]);
		assert.throws(() => contributedDefinition('acme.todo', good, keys), /already registered/);
		const { definition } = contributedDefinition('acme.todo', { ...good, key: 'other', content: () => 42 as never }, keys);
		assert.throws(() => definition.content({ owner: { kind: 'root', id: 't' }, phase: 'turn-start', turn: 1, facts: {} }), /returned number, not a string/);
	});

	it('come with a declaration like a built-in type\'s, which registers the key', () => {
		const keys = BUILTIN_KEYS.with([]);
		const { definition, declaration } = contributedDefinition('acme.todo', good, keys);
		assert.deepEqual(declaration, {
			type: 'acme.todo/openTodos',
			key: 'acme.todo.todos',
			label: 'open todos',
			purpose: 'Lists the open TODOs.',
			introducedIn: 'acme.todo (contributed)',
			configurable: false,
			policy: definition.policy,
			description: 'Lists the open TODOs.',
			interval: 3,
		});
		keys.add(declaration);
		assert.equal(keys.require('acme.todo.todos').label, 'open todos');
	});
});
