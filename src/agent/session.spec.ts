import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { ChatSessions, titleFromText } from './session';

describe('ChatSession', () => {
	it('appends user turns with ids and times from its sources, and announces them', () => {
		const clock = new FakeClock(1000);
		const sessions = new ChatSessions(clock, new SequentialIds('t'));
		const session = sessions.current;
		const appended: string[] = [];
		session.onDidAppend((items) => appended.push(...items.map((item) => item.id)));
		clock.advance(5);
		const item = session.appendUserTurn('first message');
		assert.deepEqual(item, { kind: 'user', id: 't-2', text: 'first message', at: 1005 });
		assert.deepEqual(appended, ['t-2']);
		assert.deepEqual(session.toView(), { id: 't-1', title: 'first message', items: [item] });
	});

	it('takes its title from the first message only', () => {
		const session = new ChatSessions(new FakeClock(), new SequentialIds()).current;
		session.appendUserTurn('  Fix the build\nit fails on CI');
		session.appendUserTurn('second');
		assert.equal(session.title, 'Fix the build');
	});
});

describe('ChatSessions.newSession', () => {
	it('replaces a used session and announces the new one', () => {
		const sessions = new ChatSessions(new FakeClock(), new SequentialIds());
		const first = sessions.current;
		first.appendUserTurn('hello');
		const changed: string[] = [];
		sessions.onDidChangeCurrent((s) => changed.push(s.id));
		const next = sessions.newSession();
		assert.notEqual(next.id, first.id);
		assert.deepEqual(changed, [next.id]);
		assert.equal(next.items.length, 0);
	});

	it('keeps an empty current session instead of piling up empty ones', () => {
		const sessions = new ChatSessions(new FakeClock(), new SequentialIds());
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
