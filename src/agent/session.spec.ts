import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { userText } from '../testing/history';
import { sessionResume } from '../reminders/builtin/sessionResume';
import { appendUser, MemoryLibrary, testEnvironment, testSessions } from '../testing/sessions';
import { itemsOfSession, viewOfSession } from '../testing/views';
import { titleFromText } from './chatTitle';
import type { ChatSession } from './session';
import { ChatSessions } from './sessions';

describe('ChatSession', () => {
	it('shows nothing it could not store', () => {
		const library = new MemoryLibrary();
		const sessions = new ChatSessions(library, testEnvironment());
		const store = library.stores.get(sessions.current.id);
		assert.ok(store);
		store.failNext = new Error('EROFS: read-only file system');
		assert.throws(() => appendUser(sessions.current, 'lost?'), /EROFS/);
		assert.deepEqual(itemsOfSession(sessions.current), []);
		assert.deepEqual(sessions.current.records, []);
	});

	it('takes its title from the first message only, and records it', () => {
		const session = testSessions().current;
		appendUser(session, '  Fix the build\nit fails on CI');
		appendUser(session, 'second');
		assert.equal(session.title, 'Fix the build');
	});

	it('reopens with its records, rows and title, and its delivered reminders count as delivered', () => {
		const library = new MemoryLibrary();
		const sessions = new ChatSessions(library, testEnvironment());
		const first = sessions.current;
		appendUser(first, 'hello there');
		first.retitle('Renamed');
		sessions.newSession();
		const reopened = sessions.open(first.id);
		assert.notEqual(reopened, first);
		assert.equal(reopened.title, 'Renamed');
		assert.deepEqual(itemsOfSession(reopened).map((item) => item.kind), ['user']);
		assert.equal(reopened.records.length, 1);
	});

	it('a reopened chat counts its user turns on from where they were, though its last reminders went out at its first turn', async () => {
		const library = new MemoryLibrary();
		const sessions = new ChatSessions(library, testEnvironment());
		const first = sessions.current;
		for (let n = 1; n <= 7; n++) {
			const item = appendUser(first, `message ${n}`);
			const owner = first.reminders.beginUserTurn(`t-${item.id}`);
			if (n === 1) {
				first.reminders.enqueuePending(sessionResume({ cause: 'restart', lastActivity: 0 }));
				await first.reminders.wait({ requestId: 'r1', owner, phase: 'turn-start', messages: [userText('message 1')] }, undefined).commit();
			}
			first.reminders.endUserTurn();
		}
		assert.equal(first.reminders.roster.turn, 7);
		assert.deepEqual(first.records.filter((record) => record.kind === 'injected-reminders').map((record) => record.turn), [1], 'only the first turn delivered reminders');
		sessions.newSession();
		const reopened = sessions.open(first.id);
		assert.equal(reopened.reminders.roster.turn, 7, 'the next user turn is the eighth');
	});
});

describe('ChatSessions.open', () => {
	/** A library with one stored chat of one finished turn. */
	function storedChat(): { library: MemoryLibrary; sessions: ChatSessions; id: string } {
		const library = new MemoryLibrary();
		const sessions = new ChatSessions(library, testEnvironment(new FakeClock(Date.UTC(2026, 10, 29, 17)), new SequentialIds('s')));
		const first = sessions.current;
		const item = appendUser(first, 'hello there', Date.UTC(2026, 10, 29, 17, 5));
		first.append({ kind: 'turn-end', turnId: `t-${item.id}`, at: Date.UTC(2026, 10, 29, 17, 6), outcome: 'done' });
		sessions.newSession();
		return { library, sessions, id: first.id };
	}

	const resumeBodies = (session: ChatSession): string[] => session.reminders.pending.snapshot().filter((entry) => entry.key === 'session.resume').map((entry) => entry.body ?? '');

	it('reopened from the chat list, the resume reminder says so, not that VS Code reloaded', () => {
		const { sessions, id } = storedChat();
		const reopened = sessions.open(id);
		const bodies = resumeBodies(reopened);
		assert.equal(bodies.length, 1);
		assert.equal(bodies[0], 'The person reopened this session from the chat list; it last recorded activity at 2026-11-29T17:06:00Z. Files may have changed since then.');
		assert.doesNotMatch(bodies[0], /reload|restart/);
	});

	it('reopened by a new window (activation), it says VS Code reloaded or restarted', () => {
		const { sessions, id } = storedChat();
		const bodies = resumeBodies(sessions.open(id, 'restart'));
		assert.match(bodies[0] ?? '', /^This session was reopened after VS Code reloaded or restarted; it last recorded activity at 2026-11-29T17:06:00Z\./);
	});

	it('a chat another window writes opens read-only and says so; a message then continues it in a copy', () => {
		const { library, sessions, id } = storedChat();
		library.heldElsewhere.add(id);
		const readOnly = sessions.open(id);
		assert.equal(readOnly.isReadOnly, true);
		assert.equal(viewOfSession(readOnly).access?.kind, 'read-only');
		assert.match(viewOfSession(readOnly).access?.text ?? '', /open in another VS Code window, so it is read-only here/);
		assert.throws(() => appendUser(readOnly, 'lost?'), /open in another window/);
		const changed: string[] = [];
		sessions.onDidChangeCurrent((session) => changed.push(session.id));

		const copy = sessions.forWriting();
		assert.notEqual(copy.id, id);
		assert.equal(sessions.current, copy);
		assert.deepEqual(changed, [copy.id]);
		assert.equal(copy.isReadOnly, false);
		assert.equal(copy.title, 'hello there (copy)');
		assert.match(viewOfSession(copy).access?.text ?? '', /^This chat is a copy of “hello there”, which is open in another VS Code window/);
		assert.deepEqual(copy.records, readOnly.records, 'the copy starts with the records shown');
		assert.deepEqual(library.stores.get(copy.id)?.records.map((record) => record.kind), ['user', 'turn-end', 'meta'], 'and its own store holds them');
		assert.match(resumeBodies(copy)[0] ?? '', /^This session is a copy of a session that is open in another VS Code window/);
		appendUser(copy, 'go on');
		assert.equal(library.stores.get(id)?.records.length, 3, 'the original (user, title, turn-end) is untouched');
		assert.equal(sessions.forWriting(), copy, 'a writable session is written as it is');
	});

	it('a read-only chat the other window let go of is opened again for the message, not copied', () => {
		const { library, sessions, id } = storedChat();
		library.heldElsewhere.add(id);
		const readOnly = sessions.open(id, 'restart');
		library.heldElsewhere.delete(id);
		const writable = sessions.forWriting();
		assert.equal(writable.id, id);
		assert.notEqual(writable, readOnly);
		assert.equal(writable.access, undefined);
		assert.match(resumeBodies(writable)[0] ?? '', /^This session was reopened after VS Code reloaded/, 'with the cause it was first opened for');
		appendUser(writable, 'go on');
		assert.equal(library.stores.get(id)?.records.length, 4);
	});
});

describe('ChatSessions.newSession', () => {
	it('replaces a used session and announces the new one', () => {
		const sessions = testSessions();
		const first = sessions.current;
		appendUser(first, 'hello');
		const changed: string[] = [];
		sessions.onDidChangeCurrent((s) => changed.push(s.id));
		const next = sessions.newSession();
		assert.notEqual(next.id, first.id);
		assert.deepEqual(changed, [next.id]);
		assert.equal(itemsOfSession(next).length, 0);
	});

	it('keeps an empty current session instead of piling up empty ones', () => {
		const sessions = testSessions();
		const first = sessions.current;
		let changes = 0;
		sessions.onDidChangeCurrent(() => changes++);
		assert.equal(sessions.newSession(), first);
		assert.equal(changes, 0);
	});
});

describe('titleFromText', () => {
	it('falls back for blank text and cuts long lines at a word', () => {
		assert.equal(titleFromText('   \n  '), 'New chat');
		const long = 'Refactor the reminder engine so that staged entries commit only after dispatch succeeds';
		const title = titleFromText(long);
		assert.ok(title.endsWith('…'));
		assert.ok(Array.from(title).length <= 61);
		assert.ok(long.startsWith(title.slice(0, -1)));
		assert.equal(titleFromText('😀'.repeat(70)).length, 60 * 2 + 1);
	});
});
