import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { Emitter } from '../base/event';
import { PROTOCOL_VERSION, type HostMessage, type SetupView, type ViewSettings } from '../protocol/messages';
import { expectMessage } from '../testing/expectMessage';
import { RecordingLogger } from '../testing/recordingLogger';
import { appendUser, FakeAgent, testSessions } from '../testing/sessions';
import { testConnection as setup } from '../testing/viewConnection';
import type { SetupControls } from './controls';
import { ViewConnection } from './connection';
import { SessionProjections } from './sessionView';
describe('ViewConnection', () => {
	let t: ReturnType<typeof setup>;
	beforeEach(() => {
		t = setup();
	});

	it('posts nothing before the ready handshake', () => {
		appendUser(t.sessions.current, 'early');
		assert.deepEqual(t.posted, []);
	});

	it('answers ready with a complete snapshot that includes earlier turns', () => {
		appendUser(t.sessions.current, 'early');
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		assert.equal(t.posted.length, 1);
		const snapshot = expectMessage(t.posted[0], 'snapshot');
		const [row] = snapshot.state.session.items;
		assert.equal(row?.kind === 'user' ? row.text : undefined, 'early');
		assert.deepEqual(snapshot.state.agent, t.agent.state);
	});

	it('turns a submit into a user turn in the host session and a numbered delta', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'submit', text: 'hello host' });
		assert.equal(t.projections.current.items.length, 1);
		const delta = expectMessage(t.posted[1], 'items.appended');
		assert.equal(delta.seq, 1);
		assert.equal(delta.sessionId, t.sessions.current.id);
		assert.deepEqual(t.agent.calls, ['submit hello host']);
		const [row] = delta.items;
		assert.equal(row?.kind === 'user' ? row.text : undefined, 'hello host');
		// The first message names the session; the view hears it after the row.
		assert.deepEqual(t.posted[2], { type: 'session.retitled', seq: 2, sessionId: t.sessions.current.id, title: 'hello host' });
		t.connection.receive({ type: 'submit', text: 'second' });
		assert.deepEqual(t.posted.slice(3).map((m) => m.type), ['items.appended']);
	});

	it('numbers every message one after the other, across resync snapshots', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'submit', text: 'a' });
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'resync' });
		t.connection.receive({ type: 'submit', text: 'b' });
		assert.deepEqual(
			t.posted.map((m) => `${m.type}#${m.seq}`),
			['snapshot#0', 'items.appended#1', 'session.retitled#2', 'snapshot#3', 'items.appended#4'],
		);
	});

	it('refuses a message over the configured limit with a notice, and keeps nothing', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'submit', text: 'x'.repeat(21) });
		t.connection.receive({ type: 'submit', text: '   \n ' });
		assert.equal(t.projections.current.items.length, 0);
		const notices = t.posted.filter((m) => m.type === 'notice');
		assert.equal(notices.length, 2);
		assert.match(expectMessage(notices[0], 'notice').text, /21 characters; the limit is 20 \(setting aside\.chat\.maxMessageLength\)/);
	});

	it('logs and drops invalid messages without throwing or posting', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		for (const junk of [undefined, 42, { type: 'submit' }, { type: 'submit', text: 5 }, { type: 'rm -rf' }]) {
			assert.doesNotThrow(() => {
				t.connection.receive(junk);
			});
		}
		assert.equal(t.posted.length, 1);
		assert.equal(t.log.at('warn').length, 5);
		assert.match(t.log.at('warn')[2] ?? '', /Dropped a message from the chat view: message "submit" is invalid \(text:/);
	});

	it('sends a new snapshot for a new chat and stops streaming the old session', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		const old = t.sessions.current;
		appendUser(old, 'one');
		t.sessions.newSession();
		const before = t.posted.length;
		appendUser(old, 'late write to the old session');
		assert.equal(t.posted.length, before);
		const last = expectMessage(t.posted.at(-1), 'snapshot');
		assert.equal(last.state.session.items.length, 0);
		assert.equal(last.state.session.id, t.sessions.current.id);
	});

	it('focuses the composer now, or right after the handshake when the view is still loading', () => {
		t.connection.focusComposer();
		assert.equal(t.posted.length, 0);
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		assert.deepEqual(t.posted.map((m) => m.type), ['snapshot', 'composer.focus']);
		t.connection.focusComposer();
		assert.deepEqual(t.posted.at(-1), { type: 'composer.focus', seq: 2 });
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'resync' });
		assert.equal(t.posted.at(-1)?.type, 'snapshot', 'a later resync does not steal the focus again');
	});

	it('after detach (view hidden), posts nothing until the reloaded page says ready, then snapshots', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.detach();
		appendUser(t.sessions.current, 'while hidden');
		t.connection.focusComposer();
		assert.deepEqual(t.posted.map((m) => m.type), ['snapshot']);
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		assert.deepEqual(t.posted.map((m) => m.type), ['snapshot', 'snapshot', 'composer.focus']);
		const [row] = expectMessage(t.posted[1], 'snapshot').state.session.items;
		assert.equal(row?.kind === 'user' ? row.text : undefined, 'while hidden');
	});

	it('passes settings changes through', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.settingsChanged.fire({ sendShortcut: 'ctrlEnter', maxMessageLength: 99 });
		assert.deepEqual(t.posted.at(-1), { type: 'settings.changed', seq: 1, settings: { sendShortcut: 'ctrlEnter', maxMessageLength: 99 } });
	});

	it('forwards the view\'s own log lines to the log at their level', () => {
		t.connection.receive({ type: 'log', level: 'error', message: 'dropped a host message' });
		assert.deepEqual(t.log.at('error'), ['Chat view: dropped a host message']);
	});

	it('warns about a protocol mismatch but still serves the view', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION + 1, reason: 'load' });
		assert.equal(t.posted[0]?.type, 'snapshot');
		assert.match(t.log.at('warn')[0] ?? '', /protocol/);
	});

	it('notes undelivered posts so a hidden view resyncs later', async () => {
		const hidden = setup({ deliver: false });
		hidden.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		await new Promise((resolve) => setImmediate(resolve));
		assert.match(hidden.log.at('debug')[0] ?? '', /did not take snapshot #0/);
	});

	it('passes stop, approvals and picker choices to the agent', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'stop' });
		t.connection.receive({ type: 'approval', callId: 'c1', granted: false, note: 'not now' });
		t.connection.receive({ type: 'review.show', callId: 'c1', path: 'src/a.ts' });
		t.connection.receive({ type: 'model.select', model: 'm2' });
		t.connection.receive({ type: 'mode.select', mode: 'plan' });
		t.connection.receive({ type: 'mode.select', mode: 'yolo' });
		assert.deepEqual(t.agent.calls, ['stop', 'approve c1 false not now', 'review c1 src/a.ts', 'model m2', 'mode plan']);
		assert.equal(t.log.at('warn').length, 1, 'the unknown mode was dropped at the door');
	});

	it('passes the plan card\'s decisions on, and says in the chat why one could not be taken', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'plan.decide', proposalId: 'a1', decision: 'approve', mode: 'auto-edit', note: ' go ' });
		t.connection.receive({ type: 'plan.decide', proposalId: 'a1', decision: 'revise', note: 'smaller' });
		t.connection.receive({ type: 'plan.decide', proposalId: 'a1', decision: 'reject' });
		assert.deepEqual(t.agent.calls, ['plan a1 approve auto-edit go', 'plan a1 revise smaller', 'plan a1 reject']);
		assert.equal(t.posted.filter((message) => message.type === 'notice').length, 0);
		t.agent.planProblem = 'Could not save the plan file (EACCES), so the plan was not approved.';
		t.connection.receive({ type: 'plan.decide', proposalId: 'a1', decision: 'approve', mode: 'ask' });
		t.connection.receive({ type: 'plan.decide', proposalId: 'a1', decision: 'approve' });
		const notices = t.posted.flatMap((message) => (message.type === 'notice' ? [`${message.level}: ${message.text}`] : []));
		assert.deepEqual(notices, ['error: Could not save the plan file (EACCES), so the plan was not approved.', 'error: Pick the mode the plan is implemented in.']);
		t.connection.receive({ type: 'plan.decide', proposalId: 'a1', decision: 'approve', mode: 'yolo' });
		t.connection.receive({ type: 'plan.decide', proposalId: 'a1', decision: 'revise', note: 'x'.repeat(20_001) });
		assert.equal(t.agent.calls.length, 4, 'bad input is dropped at the door');
	});

	it('lists sessions, opens one, starts a new one, and reports a session that cannot be opened', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		const first = t.sessions.current;
		appendUser(first, 'first chat', 1_000);
		t.sessions.newSession();
		appendUser(t.sessions.current, 'second chat', 2_000);
		t.connection.receive({ type: 'sessions.list' });
		const listed = expectMessage(t.posted.at(-1), 'sessions.listed').sessions;
		assert.deepEqual(listed.map((s) => [s.title, s.current]), [['second chat', true], ['first chat', false]]);
		t.connection.receive({ type: 'session.open', id: first.id });
		const snapshot = expectMessage(t.posted.at(-1), 'snapshot');
		assert.equal(snapshot.state.session.id, first.id);
		t.connection.receive({ type: 'session.new' });
		assert.notEqual(t.sessions.current.id, first.id);
		assert.equal(expectMessage(t.posted.at(-1), 'snapshot').state.session.items.length, 0);
		t.connection.receive({ type: 'session.open', id: 'no-such-session' });
		assert.match(expectMessage(t.posted.at(-1), 'notice').text, /Could not open that chat/);
	});

	it('deletes a chat from the list and lists again; a refusal is a notice, and so is a host without deletion', async () => {
		const deleted: string[] = [];
		const answer: { refusal?: string } = {};
		const c = setup({
			deleteChat: (id) => {
				deleted.push(id);
				return Promise.resolve(answer.refusal);
			},
		});
		c.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		appendUser(c.sessions.current, 'a chat', 1_000);
		c.connection.receive({ type: 'session.delete', id: 'chat-1' });
		// The deletion's promise is settled already: one turn of the event loop runs its answer.
		await new Promise((resolve) => setImmediate(resolve));
		assert.equal(c.posted.at(-1)?.type, 'sessions.listed');
		assert.deepEqual(deleted, ['chat-1']);
		answer.refusal = 'It is open in another window; close it there first.';
		c.connection.receive({ type: 'session.delete', id: 'chat-2' });
		await new Promise((resolve) => setImmediate(resolve));
		assert.equal(c.posted.at(-1)?.type, 'sessions.listed');
		const notice = c.posted.at(-2);
		assert.equal(notice?.type === 'notice' && notice.text, 'The chat was not deleted. It is open in another window; close it there first.');
		c.connection.receive({ type: 'session.delete', id: '' });
		assert.deepEqual(deleted, ['chat-1', 'chat-2'], 'bad input is dropped at the door');
		c.connection.dispose();

		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'session.delete', id: 'chat-1' });
		assert.match(expectMessage(t.posted.at(-1), 'notice').text, /cannot be deleted here/);
	});

	it('copies text and opens only http(s) and mailto links', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'copy', text: 'npm test\n' });
		t.connection.receive({ type: 'link.open', href: 'https://example.test/a?b=c' });
		t.connection.receive({ type: 'link.open', href: 'mailto:someone@example.test' });
		for (const href of ['javascript:alert(1)', 'command:workbench.action.terminal.new', 'file:///etc/passwd', 'data:text/html,x', 'not a url']) {
			t.connection.receive({ type: 'link.open', href });
		}
		assert.deepEqual(t.workbench.copied, ['npm test\n']);
		assert.deepEqual(t.workbench.opened, ['https://example.test/a?b=c', 'mailto:someone@example.test']);
		assert.equal(t.posted.filter((m) => m.type === 'notice').length, 5);
	});

	it('carries the setup actions: in the snapshot, as deltas, and the empty state\'s buttons to the host', () => {
		const calls: string[] = [];
		const changed = new Emitter<SetupView>();
		let view: SetupView = { detected: [] };
		const setup: SetupControls = {
			view: () => view,
			onDidChange: changed.event,
			viewShown: () => calls.push('shown'),
			chooseProvider: () => calls.push('choose'),
			useDetected: (id) => calls.push(`use ${id}`),
			storeKey: () => calls.push('key'),
		};
		const sessions = testSessions();
		const posted: HostMessage[] = [];
		const connection = new ViewConnection({
			sessions,
			projections: new SessionProjections(sessions),
			workbench: { copy: () => Promise.resolve(), openLink: () => Promise.resolve(true), openMention: () => Promise.resolve(undefined) },
			settings: { current: { sendShortcut: 'enter', maxMessageLength: 20 }, onDidChange: new Emitter<ViewSettings>().event },
			agent: new FakeAgent(sessions),
			setup,
			post: (message) => {
				posted.push(message);
				return Promise.resolve(true);
			},
			log: new RecordingLogger(),
		});
		connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		assert.deepEqual(expectMessage(posted[0], 'snapshot').state.setup, { detected: [] });
		assert.deepEqual(calls, ['shown'], 'a view that loads has the host look again');
		view = { detected: [{ id: 'ollama', label: 'Use Ollama on localhost:11434 (3 models)' }] };
		changed.fire(view);
		assert.deepEqual(posted[1], { type: 'setup.changed', seq: 1, setup: view });
		connection.receive({ type: 'provider.choose' });
		connection.receive({ type: 'provider.useDetected', id: 'ollama' });
		connection.receive({ type: 'apiKey.store' });
		assert.deepEqual(calls, ['shown', 'choose', 'use ollama', 'key']);
	});

	it('logs a setup action from the view when the host offers none', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		assert.equal('setup' in expectMessage(t.posted[0], 'snapshot').state, false);
		t.connection.receive({ type: 'provider.choose' });
		assert.match(t.log.at('warn')[0] ?? '', /offers none/);
	});

	it('posts nothing after dispose', () => {
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.dispose();
		appendUser(t.sessions.current, 'after dispose');
		t.settingsChanged.fire({ sendShortcut: 'enter', maxMessageLength: 1 });
		assert.equal(t.posted.length, 1);
	});
});
