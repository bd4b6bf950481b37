// A chat restore rolls back the task rows and the plan decisions of the turns it rolls back: for the
// live chat (ChatFeatures.afterRestore, ChatWork.restored), for the task panel (TaskProjection), and for a chat reopened from
// its records. Over a memory session store, with the real ChatTasks and ChatPlans.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { MemorySessionStore } from '../../testing/memorySessionStore';
import { RecordingLogger } from '../../testing/recordingLogger';
import { unusedBetweenTurns } from '../../testing/agentPorts';
import { testEnvironment } from '../../testing/sessions';
import type { RestoreRecord } from '../../transcript/restoreRecord';
import { TaskProjection } from './tasksView';
import { TASKS_STATE } from './feature';
import { ChatFeatures } from '../../agent/chatFeature';
import { ChatWork } from '../../agent/chatWork';
import { ChatSession } from '../../agent/session';

const PLAN = ['## Goal', 'Rename the helper.', '', '## Steps', '1. Rename it.', '', '## How to verify', 'Run `npm test`.'].join('\n');

/** A chat over `store` (a reopened one when the store has records), with its ChatWork as the agent keeps it. */
function chat(store = new MemorySessionStore()) {
	const clock = new FakeClock(1_000);
	const ids = new SequentialIds(`id${store.records.length}-`);
	const session = new ChatSession('s1', store, testEnvironment(clock, ids), store.records);
	const written: string[] = [];
	const work = new ChatWork({
		clock,
		ids,
		planFiles: { write: (_session, name) => (written.push(name), `/plans/${name}`) },
		planReferenceMaxChars: () => 4000,
		log: new RecordingLogger(),
		carriedPlan: () => undefined,
	});
	const features = new ChatFeatures([TASKS_STATE], () => ({ session, clock, newId: () => ids.next(), plans: work.plansOf(session), mode: { current: () => 'ask', select: () => assert.fail('no mode is chosen here') }, isChildRunning: () => false, between: unusedBetweenTurns(), services: {}, log: new RecordingLogger() }));
	let turns = 0;
	const user = (text: string): string => {
		const id = ids.next();
		session.append({ kind: 'user', id, turnId: `t${++turns}`, at: clock.now(), text });
		return id;
	};
	const answer = (text: string): string => {
		const id = ids.next();
		session.append({ kind: 'assistant', id, turnId: `t${turns}`, requestId: ids.next(), at: clock.now(), text, toolCalls: [], stop: 'end' });
		return id;
	};
	const restore = (to: string, scope: RestoreRecord['scope'] = 'chat'): void => {
		session.append({ kind: 'restore', id: ids.next(), at: clock.now(), to, scope, turns: [], files: [] });
		if (scope !== 'files') {
			features.afterRestore(session);
			work.restored(session);
		}
	};
	const approve = (): void => {
		const proposal = answer(`Here is the plan.\n\n<proposed_plan>\n${PLAN}\n</proposed_plan>`);
		work.plansOf(session).decide(proposal, { decision: 'approve', mode: 'auto-edit' });
	};
	const rows = () => features.stateOf(TASKS_STATE, session).all.map((row) => `${row.id}:${row.status}`);
	const panel = () => {
		const projection = new TaskProjection();
		for (const record of session.allRecords) {
			projection.take(record);
		}
		return projection.view().rows.map((row) => `${row.id}:${row.status}`);
	};
	return { session, store, work, features, user, answer, restore, approve, rows, panel, written };
}

describe('Restore… rolls back tasks and plan decisions', () => {
	it('the task rows written in the rolled-back turns are gone, in the chat, on the panel and after a reopen', () => {
		const { store, features, session, user, restore, rows, panel } = chat();
		const tasks = features.stateOf(TASKS_STATE, session);
		user('Plan the work');
		assert.ok(tasks.write('root', [{ id: 'a', title: 'Parse' }]).ok);
		const second = user('Go on');
		assert.ok(tasks.write('root', [{ id: 'a', status: 'completed' }, { id: 'b', title: 'Test' }]).ok);
		const seen: string[][] = [];
		tasks.onDidChange((changed) => seen.push(changed.map((row) => row.id)));
		restore(second);
		assert.deepEqual(rows(), ['a:pending']);
		assert.deepEqual(seen, [['a']], 'the panel of the live chat is told');
		assert.deepEqual(panel(), ['a:pending']);
		assert.deepEqual(chat(store).rows(), ['a:pending'], 'a reopened chat');
		assert.deepEqual(chat(store).panel(), ['a:pending']);
	});

	it('a files-only restore keeps the rows, and writes after a restore count from what it kept', () => {
		const { features, session, user, restore, rows, panel, store } = chat();
		const tasks = features.stateOf(TASKS_STATE, session);
		const first = user('Plan the work');
		assert.ok(tasks.write('root', [{ id: 'a', title: 'Parse' }]).ok);
		restore(first, 'files');
		assert.deepEqual(rows(), ['a:pending']);
		restore(first);
		assert.deepEqual(rows(), []);
		user('Plan again');
		assert.ok(tasks.write('root', [{ id: 'c', title: 'Lex' }]).ok);
		assert.deepEqual(rows(), ['c:pending']);
		assert.deepEqual(panel(), ['c:pending']);
		assert.deepEqual(chat(store).rows(), ['c:pending']);
	});

	it('a plan approved in the rolled-back turns is approved no more; one approved before is the current plan again', () => {
		const { store, work, session, user, restore, approve, written } = chat();
		user('Plan it');
		approve();
		const firstPlan = work.plansOf(session).current()?.file;
		assert.equal(firstPlan, '/plans/plan-1.md');
		const second = user('Plan the rest');
		approve();
		assert.equal(work.plansOf(session).current()?.file, '/plans/plan-2.md');
		restore(second);
		assert.equal(work.plansOf(session).current()?.file, firstPlan, 'the earlier approval is the current plan again');
		assert.equal(chat(store).work.plansOf(chat(store).session).current()?.file, firstPlan, 'a reopened chat');
		const third = user('Plan once more');
		restore(third);
		const { work: reopened, session: again } = chat(store);
		assert.equal(reopened.plansOf(again).current()?.file, firstPlan);
		user('Plan anew');
		approve();
		assert.deepEqual(written, ['plan-1.md', 'plan-2.md', 'plan-3.md'], 'a rolled-back approval keeps its file name');
	});

	it('a proposal rolled back is no longer waiting for a decision', () => {
		const { work, session, user, answer, restore } = chat();
		user('Plan it');
		const second = user('Plan more');
		answer(`<proposed_plan>\n${PLAN}\n</proposed_plan>`);
		assert.ok(work.plansOf(session).pending());
		restore(second);
		assert.equal(work.plansOf(session).pending(), undefined);
	});
});
