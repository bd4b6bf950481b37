// One chat's questions over a real ChatSession and transcript: a card waits until it is answered,
// skipped or its call's signal aborts (Stop), each recorded; only the root loop reaches them; a chat
// reopened with a card unanswered shows it again, and answering it starts a turn with the answers as
// the person's message; a message written past it leaves it behind.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import '../../testing/chatFeatures';
import { ChatSession, type SessionAccess } from '../../agent/session';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { MemorySessionStore } from '../../testing/memorySessionStore';
import { RecordingLogger } from '../../testing/recordingLogger';
import { appendUser, testEnvironment } from '../../testing/sessions';
import { QUESTION_ACCESS, type AskedQuestion } from '../../tools/questionAccess';
import type { TranscriptEntry } from '../../transcript/records';
import { ChatQuestions } from './chatQuestions';
import { cardView } from './questionsPresenter';

const DATABASE: AskedQuestion = { question: 'Which database?', header: 'Database', multiSelect: false, options: [{ label: 'Postgres', description: 'Relational.' }, { label: 'SQLite', description: 'A file.' }] };
const FEATURES: AskedQuestion = { question: 'Which features?', header: 'Features', multiSelect: true, options: [{ label: 'Auth', description: '' }, { label: 'Search', description: '' }] };

function chat(options: { records?: readonly TranscriptEntry[]; access?: SessionAccess; busy?: string } = {}) {
	const clock = new FakeClock(Date.UTC(2026, 11, 7, 21, 0, 0));
	const store = new MemorySessionStore();
	store.records.push(...(options.records ?? []));
	const ids = new SequentialIds('id');
	const session = new ChatSession('s1', store, testEnvironment(clock, ids), store.records, options.access);
	const started: string[] = [];
	const between = { refusal: () => options.busy, startTurn: (text: string) => { started.push(text); appendUser(session, text); } };
	const state = new ChatQuestions({ session, clock, newId: () => ids.next(), log: new RecordingLogger(), between });
	let changes = 0;
	state.onDidChange(() => { changes++; });
	const questionRecords = () => store.records.filter((record) => record.kind === 'question').map((record) => (record as { change: string }).change);
	return { session, store, state, started, questionRecords, changes: () => changes };
}

describe('a chat\'s questions', () => {
	it('a card waits until answered: the answers are the call\'s outcome, and the card and its records say so', async () => {
		const { state, questionRecords, changes } = chat();
		const asking = state.ask([DATABASE, FEATURES], new AbortController().signal);
		assert.equal(state.waiting.length, 1);
		const [card] = state.waiting;
		assert.deepEqual(card && cardView(card), { id: card?.id, reopened: false, questions: [DATABASE, FEATURES] });
		assert.deepEqual(questionRecords(), ['asked']);
		assert.equal(state.answer(card?.id ?? '', [{ picked: ['Postgres', 'SQLite'] }, { picked: ['Auth'] }]), 'The answers were not taken: Question 1 takes one answer.');
		assert.equal(state.waiting.length, 1, 'a wrong answer changes nothing');
		assert.equal(state.answer(card?.id ?? '', [{ picked: [], other: 'MariaDB' }, { picked: ['Auth', 'Search'] }]), undefined);
		assert.deepEqual(await asking, { kind: 'answered', answers: [{ picked: [], other: 'MariaDB' }, { picked: ['Auth', 'Search'] }] });
		assert.deepEqual(state.waiting, []);
		assert.deepEqual(questionRecords(), ['asked', 'answered']);
		assert.equal(changes(), 2);
		assert.equal(state.answer(card?.id ?? '', [{ picked: ['Postgres'] }, { picked: ['Auth'] }]), 'These questions are no longer waiting for an answer.');
	});

	it('Skip ends the wait as skipped; Stop (the call\'s signal) as cancelled — the card goes either way', async () => {
		const { state, questionRecords } = chat();
		const first = state.ask([DATABASE], new AbortController().signal);
		state.skip(state.waiting[0]?.id ?? '');
		assert.deepEqual(await first, { kind: 'skipped' });
		const controller = new AbortController();
		const second = state.ask([DATABASE], controller.signal);
		assert.equal(state.waiting.length, 1);
		controller.abort();
		assert.deepEqual(await second, { kind: 'cancelled' });
		assert.deepEqual(state.waiting, []);
		assert.deepEqual(questionRecords(), ['asked', 'skipped', 'asked', 'cancelled']);
		controller.abort();
		assert.deepEqual(await state.ask([DATABASE], controller.signal), { kind: 'cancelled' }, 'asked after Stop: nothing waits');
		assert.deepEqual(questionRecords(), ['asked', 'skipped', 'asked', 'cancelled']);
	});

	it('only the root loop reaches the questions', () => {
		const { state } = chat();
		assert.equal(state.toolAccess('root').get(QUESTION_ACCESS), state);
		assert.equal(state.toolAccess('root/explore#1').get(QUESTION_ACCESS), undefined);
	});

	it('a chat reopened with a card unanswered shows it again; answering it starts a turn with the answers as the person\'s message', () => {
		const before = chat();
		void before.state.ask([DATABASE, FEATURES], new AbortController().signal);
		void before.state.ask([DATABASE], new AbortController().signal);
		before.state.skip(before.state.waiting[1]?.id ?? '');
		// The window closed while the first waited: the records hold it asked, never ended.
		const { state, started, questionRecords, store } = chat({ records: before.store.records });
		assert.deepEqual(state.waiting.map((card) => [card.reopened, card.questions]), [[true, [DATABASE, FEATURES]]]);
		const id = state.waiting[0]?.id ?? '';
		assert.equal(state.answer(id, [{ picked: ['Nope'] }, { picked: ['Auth'] }]), 'The answers were not taken: "Nope" is not an option of question 1.');
		assert.equal(state.answer(id, [{ picked: ['SQLite'] }, { picked: ['Search'], other: 'and export' }]), undefined);
		assert.deepEqual(started, [
			[
				'My answers to the questions you asked before this chat was closed:',
				'1. [Database] "Which database?" → "SQLite"',
				'2. [Features] "Which features?" → "Search", in their own words: "and export"',
			].join('\n'),
		]);
		assert.deepEqual(state.waiting, []);
		assert.deepEqual(questionRecords(), ['asked', 'asked', 'skipped', 'answered']);
		assert.deepEqual(chat({ records: store.records }).state.waiting, [], 'answered: not shown again');
	});

	it('a reopened card is not answered while the chat is busy, and a message written past it leaves it behind', () => {
		const before = chat();
		void before.state.ask([DATABASE], new AbortController().signal);
		const busy = chat({ records: before.store.records, busy: 'The agent is working: stop it or wait for it to finish before answering these questions.' });
		assert.equal(busy.state.answer(busy.state.waiting[0]?.id ?? '', [{ picked: ['Postgres'] }]), 'The agent is working: stop it or wait for it to finish before answering these questions.');
		assert.equal(busy.state.waiting.length, 1);
		assert.deepEqual(busy.started, []);
		appendUser(busy.session, 'never mind, use whatever');
		assert.deepEqual(busy.state.waiting, []);
		assert.deepEqual(busy.questionRecords(), ['asked', 'superseded']);
	});

	it('a chat another window has open shows no reopened card (it is asked there)', () => {
		const before = chat();
		void before.state.ask([DATABASE], new AbortController().signal);
		assert.deepEqual(chat({ records: before.store.records, access: { kind: 'read-only' } as SessionAccess }).state.waiting, []);
	});

	it('a closing chat ends a call still waiting', async () => {
		const { state } = chat();
		const asking = state.ask([DATABASE], new AbortController().signal);
		state.dispose();
		assert.deepEqual(await asking, { kind: 'cancelled' });
	});
});
