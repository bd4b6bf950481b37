import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PLAN_REFERENCE } from '../reminders/builtin/catalog/plans';
import { boundedPlan } from '../reminders/builtin/planReference';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { userText } from '../testing/history';
import { MemorySessionStore } from '../testing/memorySessionStore';
import { testEnvironment } from '../testing/sessions';
import { ChatSession } from './session';
import { DirectoryPlanFiles } from './planFiles';
import { ChatPlans, implementationPrompt, PlanDecisionError, type PlanFiles } from './plans';

const PLAN = ['## Goal', 'Rename the helper.', '', '## Steps', '1. Rename it.', '2. Update callers.', '', '## How to verify', 'Run `npm test`.', '', '## Risks', 'None.'].join('\n');
const ANSWER = `I looked at the code.\n\n<proposed_plan>\n${PLAN}\n</proposed_plan>\n\nTell me what you think.`;

const folders: string[] = [];
after(() => {
	for (const folder of folders) {
		rmSync(folder, { recursive: true, force: true });
	}
});

function tempDir(): string {
	const dir = mkdtempSync(join(tmpdir(), 'aside-plans-'));
	folders.push(dir);
	return dir;
}

/** A chat with its plans, and turns driven the way the agent drives them (records, then WAIT, then commit). */
function chat(options: { files?: PlanFiles; maxChars?: number; store?: MemorySessionStore; records?: ChatSession['records'] } = {}) {
	const clock = new FakeClock(Date.UTC(2026, 11, 1, 12));
	const ids = new SequentialIds('id');
	const store = options.store ?? new MemorySessionStore();
	const session = new ChatSession('s1', store, testEnvironment(clock, ids), options.records ?? []);
	let maxChars = options.maxChars ?? 4000;
	const plans = new ChatPlans(session, {
		clock,
		newId: () => ids.next(),
		...(options.files ? { files: options.files } : {}),
		referenceMaxChars: () => maxChars,
	});
	let turns = 0;
	/** A user turn in `mode`: the plan.reference body its first request carried, if any. */
	const userTurn = async (text: string, mode = 'ask'): Promise<string | undefined> => {
		const turnId = `t${++turns}`;
		session.append({ kind: 'user', id: ids.next(), turnId, at: clock.now(), text });
		const owner = session.reminders.beginUserTurn(turnId);
		const injection = session.reminders.wait({ requestId: ids.next(), owner, phase: 'turn-start', messages: [userText(text)] }, undefined, { step: 1, mode });
		await injection.commit();
		session.reminders.endUserTurn();
		return injection.record?.entries.find((entry) => entry.type === PLAN_REFERENCE.type)?.body;
	};
	const answer = (text: string): string => {
		const id = ids.next();
		session.append({ kind: 'assistant', id, turnId: `t${turns}`, requestId: ids.next(), at: clock.now(), text, toolCalls: [], stop: 'end' });
		return id;
	};
	return {
		session,
		plans,
		store,
		userTurn,
		answer,
		setMaxChars: (chars: number) => {
			maxChars = chars;
		},
	};
}

describe('a chat\'s plans', () => {
	it('an answer with a proposal makes it the pending plan, until a decision or the person writes again', async () => {
		const { plans, userTurn, answer } = chat();
		assert.equal(plans.pending(), undefined);
		await userTurn('Plan the rename.', 'plan');
		answer('Let me look first.');
		assert.equal(plans.pending(), undefined, 'an answer without a proposal proposes nothing');
		const id = answer(ANSWER);
		assert.deepEqual(plans.pending(), { proposalId: id, plan: PLAN });
		await userTurn('Actually, never mind.', 'plan');
		assert.equal(plans.pending(), undefined, 'a message instead of a decision sets the proposal aside');
	});

	it('Approve writes the plan file beside the transcript, records the decision and returns the implementation prompt in the picked mode', async () => {
		const dir = tempDir();
		const { plans, userTurn, answer, session } = chat({ files: new DirectoryPlanFiles(dir) });
		await userTurn('Plan the rename.', 'plan');
		const id = answer(ANSWER);
		const outcome = plans.decide(id, { decision: 'approve', mode: 'auto-edit', note: ' keep it small ' });
		const file = join(dir, 's1.plans', 'plan-1.md');
		assert.equal(readFileSync(file, 'utf8'), `${PLAN}\n`);
		assert.deepEqual(outcome, { mode: 'auto-edit', prompt: implementationPrompt(PLAN, file, 'keep it small') });
		assert.match(outcome.prompt, /^Implement the approved plan below\. It is saved as .*plan-1\.md\.\n\nMy note: keep it small\n\n## Goal/);
		const decision = session.records.at(-1);
		assert.deepEqual(decision, { kind: 'plan-decision', id: decision?.kind === 'plan-decision' ? decision.id : '', at: Date.UTC(2026, 11, 1, 12), proposal: id, decision: 'approved', mode: 'auto-edit', file, note: 'keep it small' });
		assert.equal(plans.pending(), undefined);
		assert.deepEqual(plans.current(), { file, text: PLAN, approvedAt: Date.UTC(2026, 11, 1, 12), howToVerify: 'Run `npm test`.' });
	});

	it('a plan file that cannot be written is a clear error, and loses nothing: no record, the plan still waits', async () => {
		const dir = tempDir();
		// Where the plans folder would go, a file: the folder cannot be made.
		writeFileSync(join(dir, 's1.plans'), 'in the way');
		const { plans, userTurn, answer, session, store } = chat({ files: new DirectoryPlanFiles(dir) });
		await userTurn('Plan the rename.', 'plan');
		const id = answer(ANSWER);
		const count = session.records.length;
		assert.throws(() => plans.decide(id, { decision: 'approve', mode: 'ask' }), (error: unknown) => {
			assert.ok(error instanceof PlanDecisionError);
			assert.match(error.message, /^Could not save the plan file \(.+\), so the plan was not approved and the mode is unchanged\. It is still waiting for your decision\.$/);
			return true;
		});
		assert.equal(session.records.length, count, 'nothing recorded');
		assert.equal(store.records.filter((record) => record.kind === 'plan-decision').length, 0);
		assert.deepEqual(plans.pending(), { proposalId: id, plan: PLAN }, 'the plan is still waiting');
		assert.equal(plans.current(), undefined);
	});

	it('a decision that cannot be recorded (a full disk) is a clear error, and the plan still waits', async () => {
		const { plans, userTurn, answer, store } = chat();
		await userTurn('Plan the rename.', 'plan');
		const id = answer(ANSWER);
		store.failNext = new Error('ENOSPC: no space left on device');
		assert.throws(() => plans.decide(id, { decision: 'reject', note: 'no' }), /^PlanDecisionError: Could not record the decision \(ENOSPC: no space left on device\), so nothing changed\./);
		assert.deepEqual(plans.pending(), { proposalId: id, plan: PLAN });
	});

	it('refuses a decision on a plan that is not pending, Approve in plan mode, Revise without feedback, and an approval with nowhere to save', async () => {
		const { plans, userTurn, answer } = chat();
		await userTurn('Plan the rename.', 'plan');
		const id = answer(ANSWER);
		assert.throws(() => plans.decide('other', { decision: 'reject' }), /no longer waiting for a decision/);
		assert.throws(() => plans.decide(id, { decision: 'approve', mode: 'plan' }), /Pick the mode/);
		assert.throws(() => plans.decide(id, { decision: 'revise', note: '  ' }), /Say what to change/);
		assert.throws(() => plans.decide(id, { decision: 'approve', mode: 'ask' }), /nowhere to save a plan file/);
		assert.deepEqual(plans.pending(), { proposalId: id, plan: PLAN }, 'each refusal left the plan waiting');
	});

	it('Revise records the feedback and returns it as the next prompt; Reject records the note and starts nothing', async () => {
		const { plans, userTurn, answer, session } = chat();
		await userTurn('Plan the rename.', 'plan');
		const first = answer(ANSWER);
		assert.deepEqual(plans.decide(first, { decision: 'revise', note: 'Also rename the tests.' }), { prompt: 'Please revise the proposed plan. My feedback:\n\nAlso rename the tests.' });
		assert.equal(plans.pending(), undefined);
		await userTurn('Please revise the proposed plan. My feedback:\n\nAlso rename the tests.', 'plan');
		const second = answer(ANSWER);
		assert.deepEqual(plans.decide(second, { decision: 'reject', note: 'Not now.' }), {});
		const decisions = session.records.flatMap((record) => (record.kind === 'plan-decision' ? [[record.proposal, record.decision, record.note]] : []));
		assert.deepEqual(decisions, [
			[first, 'revised', 'Also rename the tests.'],
			[second, 'rejected', 'Not now.'],
		]);
		assert.equal(plans.current(), undefined, 'nothing approved');
	});

	it('Reject tells the model once, with the person\'s note, at the next request; a chat reopened before that request still tells it, once', async () => {
		const rejections = (subject: ReturnType<typeof chat>): string[] =>
			subject.session.records.flatMap((record) => (record.kind === 'injected-reminders' ? record.entries.filter((entry) => entry.key === 'plan.rejected').map((entry) => entry.body) : []));
		const first = chat();
		await first.userTurn('Plan the rename.', 'plan');
		const id = first.answer(ANSWER);
		first.plans.decide(id, { decision: 'reject', note: 'Keep the old name </system-reminder> for now.' });
		const reopened = chat({ store: first.store, records: first.store.records.filter((record) => record.kind !== 'meta') });
		await reopened.userTurn('What now?', 'plan');
		const [told, ...more] = rejections(reopened);
		assert.equal(more.length, 0);
		assert.match(told ?? '', /^The user rejected the plan you proposed\./);
		assert.match(told ?? '', /Their note: Keep the old name \u2039\/system-reminder> for now\./);
		assert.doesNotMatch(told ?? '', /<\/system-reminder>/, 'the note is neutralised');
		await reopened.userTurn('And then?', 'plan');
		const again = chat({ store: first.store, records: first.store.records.filter((record) => record.kind !== 'meta') });
		await again.userTurn('Once more.', 'plan');
		assert.equal(rejections(again).length, 1, 'one-shot: neither the next turn nor another reopen tells it again');

		// Without a reopen, the very next request carries it.
		const direct = chat();
		await direct.userTurn('Plan it.', 'plan');
		direct.plans.decide(direct.answer(ANSWER), { decision: 'reject' });
		await direct.userTurn('Something else.', 'ask');
		assert.deepEqual(rejections(direct).map((body) => body.split('\n')[0]), ['The user rejected the plan you proposed. Do not carry it out; this carries the user\'s authority.']);
	});

	it('a reopened chat has its pending and approved plans again, from its records', async () => {
		const dir = tempDir();
		const first = chat({ files: new DirectoryPlanFiles(dir) });
		await first.userTurn('Plan the rename.', 'plan');
		const id = first.answer(ANSWER);
		const pendingAgain = chat({ records: first.store.records.filter((record) => record.kind !== 'meta') });
		assert.deepEqual(pendingAgain.plans.pending(), { proposalId: id, plan: PLAN });
		first.plans.decide(id, { decision: 'approve', mode: 'ask' });
		const reopened = chat({ records: first.store.records.filter((record) => record.kind !== 'meta') });
		assert.equal(reopened.plans.current()?.file, join(dir, 's1.plans', 'plan-1.md'));
		assert.equal(reopened.plans.current()?.text, PLAN);
	});
});

describe('plan.reference', () => {
	async function approved(options: { maxChars?: number } = {}) {
		const dir = tempDir();
		const subject = chat({ files: new DirectoryPlanFiles(dir), ...options });
		await subject.userTurn('Plan the rename.', 'plan');
		const id = subject.answer(ANSWER);
		const outcome = subject.plans.decide(id, { decision: 'approve', mode: 'auto-edit' });
		return { ...subject, id, file: join(dir, 's1.plans', 'plan-1.md'), prompt: outcome.prompt ?? '' };
	}

	it('is not sent with the implementation turn (which carries the plan), then once on a later turn, with the plan and its file', async () => {
		const { userTurn, prompt, file } = await approved();
		assert.equal(await userTurn(prompt, 'auto-edit'), undefined, 'the implementation turn');
		const body = await userTurn('Now the docs.', 'auto-edit');
		assert.ok(body);
		assert.ok(body.startsWith(`The person approved this plan at 2026-12-01T12:00Z; it still guides the work in this chat unless they say otherwise. Plan file: ${file}\n\n## Goal`));
		assert.ok(body.includes(PLAN));
		assert.doesNotMatch(body, /Cut:/);
		assert.equal(await userTurn('And the changelog.', 'auto-edit'), undefined, 'one-shot');
	});

	it('waits while the chat is in plan mode again (a new episode is about replacing the plan)', async () => {
		const { userTurn, prompt } = await approved();
		await userTurn(prompt, 'auto-edit');
		assert.equal(await userTurn('Plan the next part.', 'plan'), undefined);
		assert.ok(await userTurn('Go on.', 'ask'));
	});

	it('rearm() sends it once more (what compaction calls), and a new approval re-arms it for the new plan', async () => {
		const { userTurn, prompt, plans, answer } = await approved();
		await userTurn(prompt, 'auto-edit');
		assert.ok(await userTurn('Next.', 'auto-edit'));
		assert.equal(await userTurn('Next.', 'auto-edit'), undefined);
		plans.rearm('the history was compacted');
		assert.ok(await userTurn('Next.', 'auto-edit'), 're-armed');
		assert.equal(await userTurn('Next.', 'auto-edit'), undefined);
		await userTurn('Plan the next part.', 'plan');
		const second = answer(ANSWER.replace('Rename the helper.', 'Split the module.'));
		const { prompt: secondPrompt } = plans.decide(second, { decision: 'approve', mode: 'ask' });
		assert.ok(secondPrompt);
		await userTurn(secondPrompt, 'ask');
		const body = await userTurn('Next.', 'ask');
		assert.ok(body);
		assert.ok(body.includes('Split the module.'), 'the new plan');
		assert.ok(body.includes('plan-2.md'));
	});

	it('is bounded by the setting, cut at a line break, and says what was cut and where the whole plan is', async () => {
		const { userTurn, prompt, setMaxChars } = await approved();
		await userTurn(prompt, 'auto-edit');
		setMaxChars(40);
		const body = await userTurn('Next.', 'auto-edit');
		assert.ok(body);
		const shown = boundedPlan(PLAN, 40);
		assert.ok(shown.shown.length <= 40);
		assert.ok(PLAN.startsWith(shown.shown));
		assert.ok(body.includes(`\n\n${shown.shown}\n\n[Cut: the last ${shown.cutChars} characters (${shown.cutLines} lines) of the plan are not shown here. The whole plan is in the plan file and in the implementation request earlier in this conversation.]`));
		assert.ok(!body.includes('## Risks'));
	});

	it('a plan that quotes a reminder marker is sent neutralised, never refused and dropped', async () => {
		const dir = tempDir();
		const subject = chat({ files: new DirectoryPlanFiles(dir) });
		await subject.userTurn('Plan the parser.', 'plan');
		const quoting = ANSWER.replace('Rename the helper.', 'Teach the parser `<system-reminder key="x">` and `</system-reminder>`.');
		const { prompt } = subject.plans.decide(subject.answer(quoting), { decision: 'approve', mode: 'auto-edit' });
		await subject.userTurn(prompt ?? '', 'auto-edit');
		const body = await subject.userTurn('Next.', 'auto-edit');
		assert.ok(body, 'delivered');
		assert.ok(body.includes('Teach the parser `\u2039system-reminder key="x">` and `\u2039/system-reminder>`.'));
		assert.equal(await subject.userTurn('Next.', 'auto-edit'), undefined, 'one-shot, as any plan');
	});

	it('a reopened chat does not repeat a reference its history holds after the latest approval', async () => {
		const { userTurn, prompt, store } = await approved();
		await userTurn(prompt, 'auto-edit');
		assert.ok(await userTurn('Next.', 'auto-edit'));
		const reopened = chat({ records: store.records.filter((record) => record.kind !== 'meta') });
		assert.equal(await reopened.userTurn('After the restart.', 'auto-edit'), undefined);
	});
});

describe('boundedPlan', () => {
	it('keeps a plan within the cap whole, and cuts a longer one at a line break in its second half, else at the cap', () => {
		assert.deepEqual(boundedPlan('short', 10), { shown: 'short', cutChars: 0, cutLines: 0 });
		assert.deepEqual(boundedPlan('aaaa\nbbbb\ncccc', 12), { shown: 'aaaa\nbbbb', cutChars: 5, cutLines: 1 });
		assert.deepEqual(boundedPlan('a\nbbbbbbbbbbbbbbbbbbbb', 10), { shown: 'a\nbbbbbbbb', cutChars: 12, cutLines: 1 });
		const emoji = boundedPlan(`${'x'.repeat(9)}😀tail`, 10);
		assert.equal(emoji.shown, 'x'.repeat(9), 'never half a surrogate pair');
	});
});
