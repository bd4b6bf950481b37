import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { declareReminder, entryOf, rosterDefinition } from './declaration';
import { everyTurn, interval, onChange } from './policy';

const base = { type: 'testThing', key: 'test.thing', label: 'thing', purpose: 'A test.', introducedIn: '0.1.0', configurable: true, description: 'Tells the model a thing.' };

describe('reminder declarations', () => {
	it('read the default interval off an interval policy, and have none otherwise', () => {
		assert.equal(declareReminder({ ...base, policy: interval(7) }).interval, 7);
		assert.equal(declareReminder({ ...base, policy: onChange }).interval, undefined);
		assert.equal(declareReminder(base).interval, undefined);
	});

	it('give entries their type, key and label, and nothing else', () => {
		assert.deepEqual(entryOf(declareReminder(base)), { type: 'testThing', key: 'test.thing', label: 'thing' });
	});

	it('make a roster definition with the declared type, key, label and policy', () => {
		const trigger = () => true;
		const content = () => 'a thing';
		const definition = rosterDefinition(declareReminder({ ...base, policy: everyTurn }), { scope: 'agent', trigger, content });
		assert.deepEqual(definition, { type: 'testThing', key: 'test.thing', label: 'thing', policy: everyTurn, scope: 'agent', trigger, content });
	});

	it('refuse a roster definition for a type that declares no policy, naming it', () => {
		assert.throws(() => rosterDefinition(declareReminder(base), { scope: 'all', trigger: () => true, content: () => 'x' }), /"testThing" declares no firing policy/);
	});
});
