import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type HostMessage, PROTOCOL_VERSION } from '../protocol/messages';
import { testConnection } from '../testing/viewConnection';
import { HeldNotices } from './heldNotices';

const ready = { type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' } as const;
const noticesIn = (posted: readonly HostMessage[]): unknown[] => posted.flatMap((message) => (message.type === 'notice' ? [[message.level, message.text]] : []));

describe('notices the host raises on its own (a bad agent profile)', () => {
	it('wait for a view that is not ready yet, are shown after its snapshot, and only once', () => {
		const notices = new HeldNotices();
		notices.add({ level: 'error', text: '.aside/agents/bad.md: name: missing (the profile is skipped)' });
		const t = testConnection({ notices });
		assert.equal(t.posted.length, 0, 'nothing before the handshake');
		t.connection.receive(ready);
		assert.equal(t.posted[0]?.type, 'snapshot');
		assert.deepEqual(noticesIn(t.posted), [['error', '.aside/agents/bad.md: name: missing (the profile is skipped)']]);
		t.connection.receive({ ...ready, reason: 'resync' });
		assert.equal(noticesIn(t.posted).length, 1, 'a resync does not repeat it');
	});

	it('reach a ready view at once, and a view that was hidden when they came once it is back', () => {
		const notices = new HeldNotices();
		const t = testConnection({ notices });
		t.connection.receive(ready);
		notices.add({ level: 'warning', text: 'first' });
		assert.deepEqual(noticesIn(t.posted), [['warning', 'first']]);
		t.connection.detach();
		notices.add({ level: 'warning', text: 'while hidden' });
		assert.equal(noticesIn(t.posted).length, 1, 'a hidden view would lose it');
		t.connection.receive(ready);
		assert.deepEqual(noticesIn(t.posted), [['warning', 'first'], ['warning', 'while hidden']]);
	});

	it('keep only the newest few of a burst', () => {
		const notices = new HeldNotices();
		for (let index = 1; index <= 8; index++) {
			notices.add({ level: 'warning', text: `n${index}` });
		}
		assert.deepEqual(notices.take().map((notice) => notice.text), ['n4', 'n5', 'n6', 'n7', 'n8']);
		assert.deepEqual(notices.take(), []);
	});
});
