import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatSession } from '../agent/session';
import { ChatSessions } from '../agent/sessions';
import { MemorySessionStore } from '../testing/memorySessionStore';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { appendUser, MemoryLibrary, testEnvironment, testSessions } from '../testing/sessions';
import { accessView, type RowsPlaced, SessionProjection, SessionProjections } from './sessionView';

const owner = { kind: 'root', id: 't1' } as const;
const entry = { type: 'sessionDate', key: 'session.date', label: 'date', body: 'Today.', reason: 'a new day' };

describe('ChatSession, as the chat shows it', () => {
	it('writes each record through its store before showing it, and announces the row', () => {
		const library = new MemoryLibrary();
		const sessions = new ChatSessions(library, testEnvironment(new FakeClock(1000), new SequentialIds('t')));
		const session = sessions.current;
		const projection = new SessionProjection(session);
		const appended: string[] = [];
		projection.onDidAppend((items) => appended.push(...items.map((item) => item.id)));
		const item = appendUser(session, 'first message', 1005);
		assert.deepEqual(appended, [item.id]);
		assert.deepEqual(projection.toView(), { id: 't-1', title: 'first message', items: [item] });
		assert.deepEqual(library.stores.get('t-1')?.records.map((record) => record.kind), ['user', 'meta']);
	});
});

describe('SessionProjection', () => {
	it('places each new row, reminders above the message they preceded, and keeps what is not shown out', () => {
		const session = testSessions().current;
		const projection = new SessionProjection(session);
		const placed: RowsPlaced[] = [];
		projection.onDidPlace((rows) => placed.push(rows));
		const user = appendUser(session, 'go');
		session.append({ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner, requestId: 'q1', at: 1, turn: 1, entries: [entry] });
		session.append({ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'q1', at: 2, text: 'Gone.', toolCalls: [], stop: 'end' });
		session.append({ kind: 'turn-end', turnId: 't1', at: 3, outcome: 'done' });
		assert.deepEqual(placed.map(({ rows, before }) => `${rows.map((row) => row.id).join()}${before === undefined ? '' : ` before ${before}`}`), [user.id, `reminders-q1 before ${user.id}`, 'a1']);
		assert.deepEqual(projection.rows.map((row) => row.id), ['reminders-q1', user.id, 'a1'], 'a snapshot lists them in display order');
		assert.deepEqual(projection.items.map((item) => item.kind), ['user', 'reminders', 'assistant', 'turn-end'], 'the items keep record order, the finished turn included');
	});

	it('made for a reopened session, it shows what was recorded, in the same order', () => {
		const library = new MemoryLibrary();
		const sessions = new ChatSessions(library, testEnvironment());
		const first = sessions.current;
		const user = appendUser(first, 'hello');
		first.append({ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner, requestId: 'q1', at: 1, turn: 1, entries: [entry] });
		first.append({ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'q1', at: 2, text: 'Hi.', toolCalls: [], stop: 'end', usage: { inputTokens: 90, outputTokens: 10 } });
		const live = new SessionProjection(first).toView();
		sessions.newSession();
		const reopened = new SessionProjection(sessions.open(first.id));
		assert.deepEqual(reopened.toView(), live);
		assert.deepEqual(reopened.rows.map((row) => row.id), ['reminders-q1', user.id, 'a1']);
		assert.equal(reopened.contextView(1000).usedTokens, 100);
	});

	it('says when the context use changed, and only then', () => {
		const session = testSessions().current;
		const projection = new SessionProjection(session);
		let changes = 0;
		projection.onDidChangeContext(() => changes++);
		appendUser(session, 'hi');
		assert.equal(changes, 1, 'the first message: there is something to compact');
		appendUser(session, 'again');
		assert.equal(changes, 1);
		session.append({ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'q1', at: 2, text: 'Hi.', toolCalls: [], stop: 'end', usage: { inputTokens: 900, outputTokens: 100 } });
		assert.equal(changes, 2);
		assert.deepEqual(projection.contextView(8192), { usedTokens: 1000, limitTokens: 8192, reminders: [] });
	});

	it('says Compact can run only in a chat written here, and a reopened chat keeps its compaction point', () => {
		const user = { kind: 'user', id: 'u1', turnId: 't1', at: 0, text: 'hi' } as const;
		const compaction = { kind: 'compaction', id: 'k1', at: 9, cause: 'overflow', summary: 'S.', tokensBefore: 5000, tokensAfter: 300 } as const;
		const readOnly = new SessionProjection(new ChatSession('s1', new MemorySessionStore(), testEnvironment(), [user], { kind: 'read-only' }));
		assert.equal(readOnly.contextView(1000, { ready: true }).canCompact, false);
		const copy = new SessionProjection(new ChatSession('s2', new MemorySessionStore(), testEnvironment(), [user], { kind: 'copy', of: 'x' }));
		assert.equal(copy.contextView(1000, { ready: true }).canCompact, true, 'a copy is written here');
		assert.equal(copy.contextView(1000).canCompact, undefined, 'not asked: not said');
		const reopened = new SessionProjection(new ChatSession('s3', new MemorySessionStore(), testEnvironment(), [user, compaction]));
		const view = reopened.contextView(1000, { ready: true, autoCompactAt: 0.8 });
		assert.deepEqual(
			{
				usedTokens: view.usedTokens,
				estimated: view.estimated,
				compaction: view.compaction,
				canCompact: view.canCompact,
				autoCompactAt: view.autoCompactAt,
			},
			{ usedTokens: 300, estimated: true, compaction: { at: 9, cause: 'overflow', tokensBefore: 5000, tokensAfter: 300 }, canCompact: false, autoCompactAt: 0.8 },
		);
	});

	it('says why a chat is read-only or a copy', () => {
		assert.match(accessView({ kind: 'read-only' }).text, /open in another VS Code window, so it is read-only here/);
		assert.equal(accessView({ kind: 'copy', of: 'Fix the build' }).kind, 'copy');
		assert.match(accessView({ kind: 'copy', of: 'Fix the build' }).text, /^This chat is a copy of “Fix the build”/);
	});
});

describe('SessionProjections', () => {
	it('follows the current session: a new projection for a new chat, items only from the current one', () => {
		const sessions = testSessions();
		const projections = new SessionProjections(sessions);
		const appended: string[] = [];
		projections.onDidAppend((items) => appended.push(...items.map((item) => item.id)));
		const changed: string[] = [];
		projections.onDidChangeCurrent((projection) => changed.push(projection.session.id));
		const old = sessions.current;
		const first = appendUser(old, 'one');
		sessions.newSession();
		assert.deepEqual(changed, [sessions.current.id]);
		assert.equal(projections.current.session, sessions.current);
		assert.deepEqual(projections.current.rows, []);
		appendUser(old, 'a late write to the old session');
		const second = appendUser(sessions.current, 'two');
		assert.deepEqual(appended, [first.id, second.id]);
	});
});
