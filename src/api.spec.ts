import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatSessions } from './agent/sessions';
import { ContributedReminders, contributedDefinition, type ContributedReminder, createApi } from './api';
import { DEFAULT_REMINDERS } from './reminders/builtin/defaults';
import type { CollectedEntry } from './reminders/definition';
import { BUILTIN_KEYS } from './reminders/keys';
import { ReminderRoster } from './reminders/roster';
import { DEFAULT_REMINDER_CONFIG } from './reminders/config';
import { FakeClock, SequentialIds } from './testing/fakeClock';
import { RecordingLogger } from './testing/recordingLogger';
import { appendUser, MemoryLibrary, testEnvironment } from './testing/sessions';

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
		assert.throws(() => definition.content({ owner: { kind: 'root', id: 't' }, phase: 'turn-start', turn: 1, facts: {}, delivered: false }), /returned number, not a string/);
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

describe('createApi', () => {
	function host(isOn?: (key: string) => boolean) {
		const reminders = new ContributedReminders(isOn);
		const env = { ...testEnvironment(new FakeClock(), new SequentialIds('s')), reminderDefaults: () => [...DEFAULT_REMINDERS, ...reminders.current], reminderKeys: reminders.keys };
		const sessions = new ChatSessions(new MemoryLibrary(), env);
		const sent: string[] = [];
		const agent = {
			startTurn: (text: string) => {
				sent.push(text);
				appendUser(sessions.current, text);
				return Promise.resolve({ turnId: `turn-${sent.length}`, outcome: 'done' as const });
			},
		};
		const api = createApi({ agent, sessions, reminders, log: new RecordingLogger() });
		return { api, sessions, sent, reminders };
	}

	/** Delivers what the current session's engine has for a turn-start request, as a turn would. */
	async function deliver(sessions: ChatSessions, turnId: string): Promise<void> {
		const { reminders } = sessions.current;
		const owner = reminders.beginUserTurn(turnId);
		await reminders.wait({ requestId: `${turnId}-r`, owner, phase: 'turn-start', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }, undefined).commit();
		reminders.endUserTurn();
	}

	it('sendMessage runs a turn in the current chat and answers with its id and outcome; it refuses what is not a message', async () => {
		const { api, sessions, sent } = host();
		assert.deepEqual(await api.sendMessage('Run the tests.'), { sessionId: sessions.current.id, turnId: 'turn-1', outcome: 'done' });
		await assert.rejects(api.sendMessage('  '), /takes the text of the message as its argument/);
		await assert.rejects(api.sendMessage(42 as never), /takes the text of the message as its argument/);
		assert.deepEqual(sent, ['Run the tests.']);
	});

	it('registerReminder reaches the current chat and every later one until disposed; onDidRecordInjection follows the current chat', async () => {
		const { api, sessions, reminders } = host();
		const recorded: string[][] = [];
		api.onDidRecordInjection((record) => recorded.push(record.entries.map((entry) => entry.key)));
		const registration = api.registerReminder('acme.todo', { ...good, policy: 'every-turn' });
		await deliver(sessions, 't1');
		appendUser(sessions.current, 'one');
		sessions.newSession();
		await deliver(sessions, 't2');
		assert.deepEqual(recorded, [['acme.todo.todos'], ['acme.todo.todos']]);
		registration.dispose();
		assert.equal(sessions.current.reminders.roster.types().includes('acme.todo/openTodos'), false);
		assert.equal(reminders.current.length, 0);
		assert.equal(reminders.keys.has('acme.todo.todos'), false);
		assert.throws(() => api.registerReminder('acme.todo', { ...good, key: 'has space' }), /key: must match/);
	});

	it('a contributed key turned off in the settings is not sent, and is again once turned on, read at each WAIT', async () => {
		const off = new Set<string>(['acme.todo.todos']);
		const { api, sessions } = host((key) => !off.has(key));
		const recorded: string[][] = [];
		api.onDidRecordInjection((record) => recorded.push(record.entries.map((entry) => entry.key)));
		api.registerReminder('acme.todo', { ...good, policy: 'every-turn' });
		api.registerReminder('acme.todo', { ...good, type: 'other', key: 'other', policy: 'every-turn' });
		await deliver(sessions, 't1');
		off.clear();
		appendUser(sessions.current, 'one');
		await deliver(sessions, 't2');
		assert.deepEqual(recorded, [['acme.todo.other'], ['acme.todo.todos', 'acme.todo.other']]);
	});
});
