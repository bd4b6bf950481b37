import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { PROTOCOL_VERSION } from '../protocol/messages';
import { expectMessage } from '../testing/expectMessage';
import { appendUser } from '../testing/sessions';
import { testConnection as setup } from '../testing/viewConnection';

const owner = { kind: 'root', id: 't1' } as const;
const entry = { type: 'sessionDate', key: 'session.date', label: 'date', body: 'Today.', reason: 'a new day' };

describe('ViewConnection: the agent, the context and the rows as deltas', () => {
	let t: ReturnType<typeof setup>;
	beforeEach(() => {
		t = setup();
	});

	it('sends the agent\'s changes and streamed text as numbered deltas', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.agent.change({ status: { state: 'running', detail: 'Waiting for the model…' } });
		t.agent.stream('r1', 'Hel');
		assert.equal(expectMessage(t.posted[1], 'agent.changed').agent.status.state, 'running');
		assert.deepEqual(t.posted[2], { type: 'text.streamed', seq: 2, requestId: 'r1', text: 'Hel' });
	});

	it('reports the context use in the snapshot and as deltas: usage, the window, reminder costs per key', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		assert.deepEqual(expectMessage(t.posted[0], 'snapshot').state.context, { reminders: [] });
		const session = t.sessions.current;
		const entry = { type: 'sessionDate', key: 'session.date', label: 'date', body: 'Today is 2026-11-30 & <sunny>.', reason: 'a new day' };
		session.append({ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner: { kind: 'root', id: 't1' }, requestId: 'q1', at: 1, turn: 1, entries: [entry] });
		session.append({ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'q1', at: 2, text: 'hi', toolCalls: [], stop: 'end', usage: { inputTokens: 1000, outputTokens: 50 } });
		session.append({ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner: { kind: 'root', id: 't1' }, requestId: 'q2', at: 3, turn: 2, entries: [entry] });
		const contexts = t.posted.filter((m) => m.type === 'context.changed').map((m) => expectMessage(m, 'context.changed').context);
		assert.equal(contexts.length, 3);
		// The block as sent: '<system-reminder key="session.date">\n' + escaped body + '\n</system-reminder>' = 96 characters.
		const block = '<system-reminder key="session.date">\nToday is 2026-11-30 &amp; &lt;sunny&gt;.\n</system-reminder>';
		assert.deepEqual(contexts[2], { usedTokens: 1050, reminders: [{ key: 'session.date', label: 'date', deliveries: 2, tokens: Math.ceil((2 * block.length) / 4) }] });
		// The model's window arrives with the agent's state.
		t.agent.change({ contextWindow: 200_000 });
		assert.equal(expectMessage(t.posted.at(-1), 'context.changed').context.limitTokens, 200_000);
		const count = t.posted.length;
		t.agent.change({ status: { state: 'running', detail: 'x' } });
		assert.equal(t.posted.length, count + 1, 'an unchanged window sends no context delta');
	});

	it('puts turn-start reminders above their message, and sends no row for what shows nothing', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		const session = t.sessions.current;
		const user = appendUser(session, 'go');
		session.append({ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner, requestId: 'q1', at: 1, turn: 1, entries: [entry] });
		session.append({ kind: 'assistant', id: 'a0', turnId: 't1', requestId: 'q1', at: 2, text: '', toolCalls: [{ id: 'c1', name: 'Read', input: {} }], stop: 'tool-use' });
		session.append({ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'q2', at: 3, text: 'Done.', toolCalls: [], stop: 'end' });
		session.append({ kind: 'turn-end', turnId: 't1', at: 4, outcome: 'done' });
		const rows = t.posted.flatMap((m) => (m.type === 'items.inserted' ? [`${m.items.map((item) => item.id).join()} before ${m.before}`] : m.type === 'items.appended' ? [m.items.map((item) => item.id).join()] : []));
		assert.deepEqual(rows, [user.id, `reminders-q1 before ${user.id}`, 'a1']);
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'resync' });
		const snapshot = expectMessage(t.posted.at(-1), 'snapshot');
		assert.deepEqual(snapshot.state.session.items.map((item) => item.id), ['reminders-q1', user.id, 'a1'], 'a snapshot lists the same rows in the same order');
		assert.deepEqual(t.projections.current.items.map((item) => item.kind), ['user', 'reminders', 'assistant', 'turn-end'], 'the host still has every item');
	});

	it('a snapshot taken while a response streams carries its text so far, once, beside the announcement', () => {
		t.agent.state = { ...t.agent.state, streaming: { requestId: 'r1' } };
		t.agent.streamedText = { requestId: 'r1', text: 'Hello, wor' };
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		const { state } = expectMessage(t.posted[0], 'snapshot');
		assert.deepEqual(state.agent.streaming, { requestId: 'r1' });
		assert.deepEqual(state.stream, { requestId: 'r1', text: 'Hello, wor' });
		t.agent.change({ streaming: null });
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'resync' });
		assert.equal('stream' in expectMessage(t.posted.at(-1), 'snapshot').state, false, 'no stream, no text');
	});
});
