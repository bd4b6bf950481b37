import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { appendUser, MemoryLibrary, testEnvironment, testSessions } from '../testing/sessions';
import { ChatSessions, titleFromText } from './session';

describe('ChatSession', () => {
	it('writes each record through its store before showing it, and announces the row', () => {
		const library = new MemoryLibrary();
		const sessions = new ChatSessions(library, testEnvironment(new FakeClock(1000), new SequentialIds('t')));
		const session = sessions.current;
		const appended: string[] = [];
		session.onDidAppend((items) => appended.push(...items.map((item) => item.id)));
		const item = appendUser(session, 'first message', 1005);
		assert.deepEqual(appended, [item.id]);
		assert.deepEqual(session.toView(), { id: 't-1', title: 'first message', items: [item] });
		assert.deepEqual(library.stores.get('t-1')?.records.map((record) => record.kind), ['user', 'meta']);
	});

	it('shows nothing it could not store', () => {
		const library = new MemoryLibrary();
		const sessions = new ChatSessions(library, testEnvironment());
		const store = library.stores.get(sessions.current.id);
		assert.ok(store);
		store.failNext = new Error('EROFS: read-only file system');
		assert.throws(() => appendUser(sessions.current, 'lost?'), /EROFS/);
		assert.deepEqual(sessions.current.items, []);
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
		assert.deepEqual(reopened.items.map((item) => item.kind), ['user']);
		assert.equal(reopened.records.length, 1);
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
		assert.equal(next.items.length, 0);
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
