// The pending FIFO's durable items (the file list after a manual compaction) are kept with the
// chat: a chat switched away from and back, or reloaded, still sends them at its next request,
// exactly once — also when the window closed between that delivery and the record saying so.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactFileReferences } from '../reminders/builtin/compactFileReferences';
import { userText } from '../testing/history';
import { MemoryLibrary, testEnvironment } from '../testing/sessions';
import type { ChatSession } from './session';
import { ChatSessions } from './sessions';

const KEY = 'compact.file-references';
const fileList = () => compactFileReferences([{ path: 'src/a.ts', size: 120, at: Date.UTC(2026, 11, 3, 12) }]);

/** Runs a user turn's first request; returns the bodies of `KEY` it carried. */
async function turn(session: ChatSession, n: number): Promise<string[]> {
	session.append({ kind: 'user', id: `u${n}`, turnId: `t${n}`, at: 0, text: `message ${n}` });
	const owner = session.reminders.beginUserTurn(`t${n}`);
	const injection = session.reminders.wait({ requestId: `r${n}`, owner, phase: 'turn-start', messages: [userText(`message ${n}`)] }, undefined);
	await injection.commit();
	session.reminders.endUserTurn();
	return (injection.record?.entries ?? []).filter((entry) => entry.key === KEY).map((entry) => entry.body);
}

describe('the durable pending reminders', () => {
	it('survive a chat switch: sent once at the reopened chat\'s next request, and not again after another reopen', async () => {
		const library = new MemoryLibrary();
		const sessions = new ChatSessions(library, testEnvironment());
		const first = sessions.current;
		await turn(first, 1);
		const entry = fileList();
		assert.ok(entry);
		first.reminders.enqueuePending(entry, true);
		sessions.newSession();
		const reopened = sessions.open(first.id);
		assert.deepEqual(await turn(reopened, 2), [entry.body]);
		assert.deepEqual(await turn(reopened, 3), [], 'consumed');
		sessions.newSession();
		const again = sessions.open(first.id);
		assert.deepEqual(again.reminders.pending.snapshot().filter((item) => item.key === KEY), [], 'the delivery was recorded: not queued again');
	});

	it('a delivery recorded after the items were kept counts, though the record saying they went out was never written', async () => {
		const library = new MemoryLibrary();
		const sessions = new ChatSessions(library, testEnvironment());
		const first = sessions.current;
		await turn(first, 1);
		const entry = fileList();
		assert.ok(entry);
		first.reminders.enqueuePending(entry, true);
		const store = library.stores.get(first.id);
		assert.ok(store);
		// The window closes as the delivery's consumption is being recorded.
		const append = store.append.bind(store);
		store.append = (record) => {
			if (record.kind === 'meta' && record.pending?.length === 0) {
				throw new Error('the window closed');
			}
			append(record);
		};
		assert.deepEqual(await turn(first, 2), [entry.body]);
		sessions.newSession();
		const reopened = sessions.open(first.id);
		assert.deepEqual(reopened.reminders.pending.snapshot().filter((item) => item.key === KEY), [], 'not sent twice');
		assert.deepEqual(await turn(reopened, 3), []);
	});
});
