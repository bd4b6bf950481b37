import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { RecordingLogger } from '../testing/recordingLogger';
import { appendUser, MemoryLibrary, testEnvironment } from '../testing/sessions';
import { CURRENT_SESSION_KEY, rememberCurrentSession, reopenLastSession, type SessionMemory } from './lastSession';
import { ChatSessions } from './sessions';

class MemoryState implements SessionMemory {
	readonly values = new Map<string, unknown>();

	get(key: string): unknown {
		return this.values.get(key);
	}

	update(key: string, value: unknown): Promise<void> {
		if (value === undefined) {
			this.values.delete(key);
		} else {
			this.values.set(key, value);
		}
		return Promise.resolve();
	}
}

function setup() {
	const library = new MemoryLibrary();
	// As the file library does: a chat exists once something was written to it.
	const exists = { exists: (id: string) => (library.stores.get(id)?.records.length ?? 0) > 0 };
	const window = () => new ChatSessions(library, testEnvironment(new FakeClock(), new SequentialIds(`w${Math.random()}`)));
	return { library, exists, window, memory: new MemoryState(), log: new RecordingLogger() };
}

describe('the last chat of the window', () => {
	it('is remembered once it has a record, and reopened by the next window as a restart', () => {
		const { exists, window, memory, log } = setup();
		const first = window();
		const remembering = rememberCurrentSession(memory, first);
		assert.equal(memory.get(CURRENT_SESSION_KEY), undefined, 'an empty chat is not remembered');
		appendUser(first.current, 'Fix the build.');
		const id = first.current.id;
		assert.equal(memory.get(CURRENT_SESSION_KEY), id);
		remembering.dispose();
		first.dispose();

		const second = window();
		reopenLastSession(memory, exists, second, log);
		assert.equal(second.current.id, id);
		assert.ok(second.current.reminders.pending.snapshot().some((entry) => entry.key === 'session.resume'), 'told the model it was reopened');
		assert.deepEqual(log.at('info'), [`Reopened session ${id}.`]);
	});

	it('a new chat made current forgets the last one; another chat opened is remembered', () => {
		const { window, memory } = setup();
		const sessions = window();
		rememberCurrentSession(memory, sessions);
		appendUser(sessions.current, 'one');
		const one = sessions.current.id;
		sessions.newSession();
		assert.equal(memory.get(CURRENT_SESSION_KEY), undefined);
		sessions.open(one);
		assert.equal(memory.get(CURRENT_SESSION_KEY), one);
	});

	it('a remembered chat that no longer exists, or cannot be opened, leaves the new empty chat', () => {
		const { library, exists, window, memory, log } = setup();
		void memory.update(CURRENT_SESSION_KEY, 'gone');
		const sessions = window();
		const fresh = sessions.current.id;
		reopenLastSession(memory, exists, sessions, log);
		assert.equal(sessions.current.id, fresh);
		reopenLastSession(memory, { exists: () => true }, sessions, log);
		assert.equal(sessions.current.id, fresh);
		assert.match(log.at('error')[0] ?? '', /^Aside could not reopen session gone: No session gone\./);
		assert.equal(library.stores.has('gone'), false);
	});
});
