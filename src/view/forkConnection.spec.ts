// The chat view's Fork from here on the host side: the fork becomes current
// and the view gets its snapshot, its first row the fork's; a refusal is said in the chat.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatForks } from '../agent/forks';
import { PROTOCOL_VERSION } from '../protocol/messages';
import { RecordingLogger } from '../testing/recordingLogger';
import { appendUser } from '../testing/sessions';
import { testConnection } from '../testing/viewConnection';

describe('Fork from here in the chat view', () => {
	it('makes the fork current and sends its snapshot; a running turn\'s message is refused with a notice', async () => {
		let running: string | undefined;
		const t = testConnection({ forks: (sessions) => new ChatForks({ sessions, runningTurn: () => running, log: new RecordingLogger() }) });
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		const source = t.sessions.current;
		const user = appendUser(source, 'try this');
		running = `t-${user.id}`;
		t.connection.receive({ type: 'fork.create', from: user.id });
		await new Promise((resolve) => setImmediate(resolve));
		assert.equal(t.sessions.current, source);
		assert.match(t.posted.filter((message) => message.type === 'notice').at(-1)?.text ?? '', /still running/);

		running = undefined;
		source.append({ kind: 'turn-end', turnId: `t-${user.id}`, at: 1, outcome: 'done' });
		t.connection.receive({ type: 'fork.create', from: user.id });
		await new Promise((resolve) => setImmediate(resolve));
		assert.notEqual(t.sessions.current, source);
		const snapshot = t.posted.filter((message) => message.type === 'snapshot').at(-1);
		assert.equal(snapshot?.type === 'snapshot' ? snapshot.state.session.items[0]?.kind : undefined, 'fork');
		assert.equal(snapshot?.type === 'snapshot' ? snapshot.state.session.title : undefined, 'try this (fork)');
	});

	it('says so when forking is not available', () => {
		const t = testConnection();
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'fork.create', from: 'u1' });
		assert.match(t.posted.filter((message) => message.type === 'notice').at(-1)?.text ?? '', /not available/);
	});
});
