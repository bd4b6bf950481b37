import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatSession, type SessionEnvironment } from '../../agent/session';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { userText } from '../../testing/history';
import { MemorySessionStore } from '../../testing/memorySessionStore';
import { RecordingLogger } from '../../testing/recordingLogger';
import { DEFAULT_REMINDER_CONFIG, type ReminderConfig } from '../config';
import type { WaitFacts } from '../definition';
import type { InjectionRecord } from '../record';
import { contextCompaction } from './contextCompaction';

const ON = { autoCompactAt: 0.8, warnAt: 0.6 };
const WINDOW = 200_000;

function chat(config: ReminderConfig = DEFAULT_REMINDER_CONFIG, store = new MemorySessionStore()) {
	const clock = new FakeClock();
	const ids = new SequentialIds(`k${store.records.length}-`);
	const env: SessionEnvironment = { clock, ids, log: new RecordingLogger(), reminderConfig: config, reminderDefaults: () => [contextCompaction()] };
	const session = new ChatSession('s1', store, env, [...store.records]);
	/**
	 * One request of a new user turn at `share` of the window (`compaction: null`: automatic compaction is
	 * off); its body if context.compaction came, committed unless `accepted` is false.
	 */
	const at = async (share: number, options: { readonly compaction?: WaitFacts['compaction'] | null; readonly accepted?: boolean; readonly limitTokens?: number } = {}): Promise<string | undefined> => {
		const { compaction = ON, accepted = true, limitTokens = WINDOW } = options;
		const turnId = ids.next();
		const owner = session.reminders.beginUserTurn(turnId);
		session.append({ kind: 'user', id: `u-${turnId}`, turnId, at: clock.now(), text: 'go' });
		const facts: WaitFacts = { context: { usedTokens: Math.round(share * limitTokens), limitTokens }, ...(compaction ? { compaction } : {}) };
		const injection = session.reminders.wait({ requestId: ids.next(), owner, phase: 'turn-start', messages: [userText('go')] }, undefined, facts);
		if (accepted) {
			await injection.commit();
		}
		return injection.record?.entries.find((entry) => entry.key === 'context.compaction')?.body;
	};
	const compacted = (): void => {
		session.append({ kind: 'compaction', id: ids.next(), at: clock.now(), cause: 'auto', summary: 'S.', tokensBefore: 1, tokensAfter: 1 });
		session.reminders.roster.reconcileObservations(session.selectedRecords.filter((record): record is InjectionRecord => record.kind === 'injected-reminders'));
	};
	return { session, store, at, compacted };
}

describe('context.compaction', () => {
	it('tells the model once when use crosses warnAt: use now, the threshold, the summary, and where to keep what must survive', async () => {
		const { at } = chat();
		assert.equal(await at(0.3), undefined);
		const body = await at(0.61);
		assert.equal(
			body,
			[
				'Context window: 122,000 of 200,000 tokens in use (61%).',
				'At 80% this chat will be compacted: the earlier turns are replaced by a summary that you write, and only that summary and the latest messages stay in your context.',
				'Keep what must survive in the task list (TaskWrite) or the plan file: open work, decisions and their reasons, the files that matter and their state.',
			].join('\n'),
		);
		assert.equal(await at(0.65), undefined, 'not again while above');
		assert.equal(await at(0.79), undefined);
	});

	it('fires again only after use fell below warnAt and crossed it again', async () => {
		const { at } = chat();
		const fired: number[] = [];
		for (const [index, share] of [0.2, 0.6, 0.7, 0.75, 0.1, 0.3, 0.62, 0.7, 0.59, 0.6].entries()) {
			if ((await at(share)) !== undefined) {
				fired.push(index);
			}
		}
		assert.deepEqual(fired, [1, 6, 9]);
	});

	it('a compaction re-arms it: use still past warnAt right after one is a new crossing', async () => {
		const { at, compacted } = chat();
		assert.ok(await at(0.7));
		assert.equal(await at(0.75), undefined);
		compacted();
		assert.ok(await at(0.65), 'the warning left the history with the compacted part');
		assert.equal(await at(0.7), undefined);
	});

	it('the first evaluation of a chat past warnAt is a crossing, but not in a reopened chat whose history holds the warning', async () => {
		const first = chat();
		assert.ok(await first.at(0.7));
		first.session.dispose();
		const reopened = chat(DEFAULT_REMINDER_CONFIG, first.store);
		assert.equal(await reopened.at(0.72), undefined);
		assert.ok(await chat().at(0.9), 'a chat seen first past the threshold');
	});

	it('a failed request (no commit) leaves it due', async () => {
		const { at } = chat();
		assert.ok(await at(0.7, { accepted: false }));
		assert.ok(await at(0.7), 'still due');
		assert.equal(await at(0.7), undefined);
	});

	it('never without automatic compaction, with warnAt at or past autoCompactAt, without a known window, or turned off', async () => {
		const { at } = chat();
		assert.equal(await at(0.7, { compaction: null }), undefined, 'auto-compaction off');
		assert.equal(await at(0.85, { compaction: { autoCompactAt: 0.8, warnAt: 0.8 } }), undefined);
		assert.equal(await at(0.95, { compaction: { autoCompactAt: 0.8, warnAt: 0.9 } }), undefined);
		assert.equal(await at(0.7, { limitTokens: 0 }), undefined, 'no window');
		const off = chat({ isEnabled: (type) => type !== 'contextCompaction', intervalOf: () => undefined });
		assert.equal(await off.at(0.7), undefined);
		assert.ok(await at(0.7), 'each of those left it armed');
	});
});
