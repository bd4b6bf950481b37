// The questions' view part: the current chat's waiting cards go to the webview whole when it
// connects, when a card comes or goes and when another chat becomes current (never twice the same);
// Submit and Skip reach the current chat's questions, and answers that do not fit are a notice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import '../../testing/chatFeatures';
import { ChatSession } from '../../agent/session';
import { Emitter } from '../../base/event';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { MemorySessionStore } from '../../testing/memorySessionStore';
import { RecordingLogger } from '../../testing/recordingLogger';
import { testEnvironment } from '../../testing/sessions';
import type { AskedQuestion } from '../../tools/questionAccess';
import type { Unsequenced } from '../../view/featureView';
import { ChatQuestions } from './chatQuestions';
import { QuestionsPresenter } from './questionsPresenter';

const DATABASE: AskedQuestion = { question: 'Which database?', header: 'Database', multiSelect: false, options: [{ label: 'Postgres', description: '' }, { label: 'SQLite', description: '' }] };

function chatOf(id: string) {
	const clock = new FakeClock();
	const ids = new SequentialIds(id);
	const store = new MemorySessionStore();
	const session = new ChatSession(id, store, testEnvironment(clock, ids), store.records);
	return { session, state: new ChatQuestions({ session, clock, newId: () => ids.next(), log: new RecordingLogger() }) };
}

describe('the questions\' view part', () => {
	it('sends the current chat\'s cards on connect, on each change and on a chat switch; routes Submit and Skip', async () => {
		const one = chatOf('s1');
		const two = chatOf('s2');
		const changed = new Emitter<ChatSession>();
		const sessions = { current: one.session, onDidChangeCurrent: changed.event };
		const states = new Map([[one.session, one.state], [two.session, two.state]]);
		const part = new QuestionsPresenter(sessions, (session) => states.get(session) as ChatQuestions, new RecordingLogger());
		const sent: Unsequenced[] = [];
		const notices: string[] = [];
		const view = { send: (message: Unsequenced) => { sent.push(message); }, notice: (_level: string, text: string) => { notices.push(text); } };
		const connection = part.connect(view);
		const cards = () => sent.map((message) => (message.type === 'questions.changed' ? message.cards.map((card) => card.id) : ['?']));
		assert.deepEqual(cards(), [[]]);
		const asking = one.state.ask([DATABASE], new AbortController().signal);
		assert.deepEqual(cards(), [[], ['s1-1']]);
		void two.state.ask([DATABASE], new AbortController().signal);
		assert.deepEqual(cards(), [[], ['s1-1']], 'another chat\'s card is not shown');
		sessions.current = two.session;
		changed.fire(two.session);
		assert.deepEqual(cards(), [[], ['s1-1'], ['s2-1']]);
		sessions.current = one.session;
		changed.fire(one.session);
		part.receive({ type: 'questions.answer', id: 's1-1', answers: [{ picked: ['Oracle'] }] }, view);
		assert.deepEqual(notices, ['The answers were not taken: "Oracle" is not an option of question 1.']);
		part.receive({ type: 'questions.answer', id: 's1-1', answers: [{ picked: ['SQLite'] }] }, view);
		assert.deepEqual(await asking, { kind: 'answered', answers: [{ picked: ['SQLite'] }] });
		assert.deepEqual(cards().at(-1), []);
		connection.dispose();
		void one.state.ask([DATABASE], new AbortController().signal);
		part.receive({ type: 'questions.skip', id: one.state.waiting[0]?.id ?? '' }, view);
		assert.deepEqual(one.state.waiting, []);
		assert.deepEqual(cards().at(-1), [], 'nothing after the connection went');
	});
});
