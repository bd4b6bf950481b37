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
		assert.deepEqual(expectMessage(t.posted[0], 'snapshot').state.context, { reminders: [], canCompact: false });
		const session = t.sessions.current;
		const entry = { type: 'sessionDate', key: 'session.date', label: 'date', body: 'Today is 2026-11-30 & <sunny>.', reason: 'a new day' };
		session.append({ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner: { kind: 'root', id: 't1' }, requestId: 'q1', at: 1, turn: 1, entries: [entry] });
		session.append({ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'q1', at: 2, text: 'hi', toolCalls: [], stop: 'end', usage: { inputTokens: 1000, outputTokens: 50 } });
		session.append({ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner: { kind: 'root', id: 't1' }, requestId: 'q2', at: 3, turn: 2, entries: [entry] });
		const contexts = t.posted.filter((m) => m.type === 'context.changed').map((m) => expectMessage(m, 'context.changed').context);
		assert.equal(contexts.length, 3);
		// The block as sent: '<system-reminder key="session.date">\n' + escaped body + '\n</system-reminder>' = 96 characters.
		const block = '<system-reminder key="session.date">\nToday is 2026-11-30 &amp; &lt;sunny&gt;.\n</system-reminder>';
		assert.deepEqual(contexts[2], {
			usedTokens: 1050,
			reminders: [{ key: 'session.date', label: 'date', deliveries: 2, tokens: 2 * Math.ceil(block.length / 4) }],
			remindersInContext: 2 * Math.ceil(block.length / 4),
			canCompact: false,
		});
		// The model's window arrives with the agent's state.
		t.agent.change({ contextWindow: 200_000 });
		assert.equal(expectMessage(t.posted.at(-1), 'context.changed').context.limitTokens, 200_000);
		const count = t.posted.length;
		t.agent.change({ status: { state: 'running', detail: 'x' } });
		assert.equal(t.posted.length, count + 1, 'an unchanged window sends no context delta');
	});

	it('says whether Compact can run: a model answers, no turn runs, the chat is written here, something to compact', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		const contexts = () => t.posted.filter((m) => m.type === 'context.changed').map((m) => expectMessage(m, 'context.changed').context);
		t.agent.change({ status: { state: 'ready', detail: 'Ready.' } });
		assert.equal(contexts().length, 0, 'an empty chat: nothing to compact, nothing new to say');
		appendUser(t.sessions.current, 'hello');
		assert.equal(contexts().at(-1)?.canCompact, true);
		t.agent.change({ status: { state: 'running', detail: 'Compacting the chat…' } });
		assert.equal(contexts().at(-1)?.canCompact, false, 'not while a turn (or a compaction) runs');
		const count = t.posted.length;
		t.agent.change({ status: { state: 'running', detail: 'Answering…' } });
		assert.equal(t.posted.length, count + 1, 'the same context is not sent again');
		t.agent.change({ status: { state: 'unavailable', detail: 'No model.' } });
		assert.equal(contexts().at(-1)?.canCompact, false, 'no model to write the summary');
		t.agent.change({ status: { state: 'ready', detail: 'Ready.' } });
		assert.equal(contexts().at(-1)?.canCompact, true);
		t.sessions.current.append({ kind: 'compaction', id: 'k1', at: 5, cause: 'manual', summary: 'Said hello.', tokensBefore: 900, tokensAfter: 120 });
		const compacted = contexts().at(-1) ?? assert.fail('the compaction changed the context');
		assert.equal(compacted.canCompact, false, 'just compacted: nothing since');
		assert.equal(compacted.usedTokens, 120);
		assert.equal(compacted.estimated, true);
		assert.deepEqual(compacted.compaction, { at: 5, cause: 'manual', tokensBefore: 900, tokensAfter: 120 });
	});

	it('after a chat restore, sends the context as an estimate until the next answer reports usage', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		const session = t.sessions.current;
		appendUser(session, 'first');
		session.append({ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'q1', at: 2, text: 'one', toolCalls: [], stop: 'end', usage: { inputTokens: 900, outputTokens: 100 } });
		const second = appendUser(session, 'second');
		session.append({ kind: 'assistant', id: 'a2', turnId: 't2', requestId: 'q2', at: 4, text: 'two', toolCalls: [], stop: 'end', usage: { inputTokens: 4_000, outputTokens: 100 } });
		session.append({ kind: 'restore', id: 'restore-1', at: 5, to: second.id, scope: 'chat', turns: ['t2'], files: [] });
		const restored = expectMessage(t.posted.at(-1), 'context.changed').context;
		assert.equal(restored.usedTokens, 1_000, 'what the context held before the message restored to');
		assert.equal(restored.estimated, true);
	});

	it('sends the automatic-compaction threshold while it is on, and again when the setting changes', () => {
		t.settings.compactAt = 0.8;
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		assert.equal(expectMessage(t.posted[0], 'snapshot').state.context.autoCompactAt, 0.8);
		t.settings.compactAt = undefined;
		t.settingsChanged.fire(t.settings.current);
		assert.deepEqual(t.posted.slice(1).map((m) => m.type), ['settings.changed', 'context.changed']);
		assert.equal(expectMessage(t.posted.at(-1), 'context.changed').context.autoCompactAt, undefined, 'off: no marker');
		t.settingsChanged.fire(t.settings.current);
		assert.deepEqual(t.posted.slice(3).map((m) => m.type), ['settings.changed'], 'another setting: the context is unchanged');
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

describe('ViewConnection: Retry on a failed turn', () => {
	it('passes Retry on; takes it off the failed row once the retried message is recorded; says why it was refused', () => {
		const t = setup();
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		const session = t.sessions.current;
		session.append({ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'go' });
		session.append({ kind: 'turn-end', turnId: 't1', at: 2, outcome: 'failed', error: 'Refused.' });
		const offered = t.posted.flatMap((m) => (m.type === 'items.appended' ? m.items : [])).find((item) => item.kind === 'turn-end');
		assert.deepEqual(offered?.kind === 'turn-end' ? offered.retry : undefined, { turnId: 't1' });
		t.connection.receive({ type: 'turn.retry', turnId: 't1' });
		assert.ok(t.agent.calls.includes('retry t1'));
		session.append({ kind: 'user', id: 'u2', turnId: 't2', at: 3, text: 'go', retryOf: 't1' });
		const updated = t.posted.flatMap((m) => (m.type === 'items.updated' ? m.items : [])).find((item) => item.id === 'end-t1');
		assert.equal(updated?.kind === 'turn-end' && updated.retry === undefined, true, 'the row no longer offers it');
		t.agent.retryRefusal = 'The agent is working: stop it or wait for it to finish before retrying.';
		t.connection.receive({ type: 'turn.retry', turnId: 't2' });
		assert.equal(expectMessage(t.posted.at(-1), 'notice').text, 'The agent is working: stop it or wait for it to finish before retrying.');
	});
});
