import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Emitter } from '../base/event';
import type { ChatRequest } from '../providers/provider';
import { parseReminders } from '../reminders/envelope';
import { PLAN_REFERENCE_LINE, PLAN_TEMPLATE } from '../reminders/builtin/modePlan';
import { compactChat, decidePlan, scriptedModels, testFeatures, testPorts } from '../testing/agentPorts';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { testSessions } from '../testing/sessions';
import { viewOfAgent } from '../testing/views';
import { Agent, type AgentSettings } from './agent';
import { DirectoryPlanFiles } from './planFiles';
import { verificationInputs } from './verification';

const PLAN = '## Goal\nRename it.\n\n## How to verify\nRun `npm test`.';
const PROPOSAL = `Here is my plan.\n\n<proposed_plan>\n${PLAN}\n</proposed_plan>`;

const folders: string[] = [];
after(() => {
	for (const folder of folders) {
		rmSync(folder, { recursive: true, force: true });
	}
});

function setup(provider: ScriptedProvider, planFiles = true) {
	const dir = mkdtempSync(join(tmpdir(), 'aside-agent-plan-'));
	folders.push(dir);
	const sessions = testSessions(new FakeClock(), new SequentialIds('s'));
	const settings: AgentSettings = { maxOutputTokens: 1000, maxSteps: 10, permissionMode: 'ask' };
	const models = scriptedModels(provider);
	const agent = new Agent(
		{ features: testFeatures(), sessions, models, settings: { current: settings, onDidChange: new Emitter<unknown>().event }, system: () => 'system', ...(planFiles ? { planFiles: new DirectoryPlanFiles(dir) } : {}) },
		testPorts(models, { tools: () => [] }),
	);
	return { agent, sessions, dir };
}

/** The reminder blocks the request's last message carried, as key → body. */
function remindersOf(request: ChatRequest | undefined): Map<string, string> {
	const last = request?.messages.at(-1);
	const text = last?.role === 'user' ? last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n') : '';
	return new Map(parseReminders(text).map((block) => [block.key ?? '', block.body]));
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

async function idle(agent: Agent): Promise<void> {
	for (let i = 0; i < 50 && agent.isRunning; i++) {
		await tick();
	}
	assert.equal(agent.isRunning, false);
}

describe('the agent\'s plan workflow', () => {
	it('plan mode: the full template first, the reference next; a proposal is the plan card; Approve saves it, switches the mode and starts the implementation turn', async () => {
		const provider = new ScriptedProvider({ text: 'Looking around.' }, { text: PROPOSAL }, { text: 'Implemented.' }, { text: 'Docs too.' });
		const { agent, sessions, dir } = setup(provider);
		agent.selectMode('auto-edit');
		agent.selectMode('plan');
		await agent.startTurn('Plan the rename.');
		assert.equal(remindersOf(provider.requests[0]).get('mode.plan'), PLAN_TEMPLATE);
		await agent.startTurn('Go on.');
		assert.equal(remindersOf(provider.requests[1]).get('mode.plan'), PLAN_REFERENCE_LINE);

		const card = viewOfAgent(agent).plan;
		assert.ok(card, 'the proposal waits for a decision');
		assert.equal(card.plan, PLAN);
		assert.deepEqual(card.modes, ['ask', 'auto-edit', 'full-access'], 'any mode but plan');
		assert.equal(card.mode, 'auto-edit', 'the mode before plan mode is offered first');

		assert.equal(decidePlan(agent, sessions, card.proposalId, { decision: 'approve', mode: 'auto-edit', note: 'small steps' }), undefined);
		assert.equal(agent.state.mode, 'auto-edit');
		await idle(agent);
		const file = join(dir, `${sessions.current.id}.plans`, 'plan-1.md');
		assert.equal(readFileSync(file, 'utf8'), `${PLAN}\n`);
		const implementation = provider.requests[2];
		const userMessages = sessions.current.records.flatMap((record) => (record.kind === 'user' ? [record.text] : []));
		assert.equal(userMessages.at(-1), `Implement the approved plan below. It is saved as ${file}.\n\nMy note: small steps\n\n${PLAN}`, 'recorded as the person\'s message');
		assert.equal(remindersOf(implementation).has('mode.plan'), false, 'out of plan mode');
		assert.equal(remindersOf(implementation).has('plan.reference'), false, 'the implementation turn carries the plan itself');
		assert.equal(viewOfAgent(agent).plan, undefined, 'decided: no card');
		assert.equal(agent.approvedPlans.current()?.howToVerify, 'Run `npm test`.');
		const verification = verificationInputs({ writes: () => undefined, records: () => sessions.current.records, plans: agent.approvedPlans });
		assert.deepEqual(verification.pendingPlan(), { file, howToVerify: 'Run `npm test`.' }, 'edits.verify reads the approved plan\'s "how to verify"');

		await agent.startTurn('Update the docs.');
		assert.match(remindersOf(provider.requests[3]).get('plan.reference') ?? '', /^The person approved this plan at .*Plan file: .*plan-1\.md\n\n## Goal/);
	});

	it('a compaction re-arms plan.reference: the next turn carries the approved plan again, once', async () => {
		const provider = new ScriptedProvider({ text: PROPOSAL }, { text: 'Implemented.' }, { text: 'Docs too.' }, { text: 'Summary of the work.' }, { text: 'More.' }, { text: 'Again.' });
		const { agent, sessions } = setup(provider);
		agent.selectMode('plan');
		await agent.startTurn('Plan the rename.');
		const card = viewOfAgent(agent).plan;
		assert.ok(card);
		assert.equal(decidePlan(agent, sessions, card.proposalId, { decision: 'approve', mode: 'auto-edit' }), undefined);
		await idle(agent);
		await agent.startTurn('Update the docs.');
		assert.ok(remindersOf(provider.requests[2]).has('plan.reference'));
		assert.equal(await compactChat(agent, sessions.current), undefined);
		await agent.startTurn('And now?');
		assert.match(remindersOf(provider.requests[4]).get('plan.reference') ?? '', /^The person approved this plan at /);
		await agent.startTurn('Anything else?');
		assert.equal(remindersOf(provider.requests[5]).has('plan.reference'), false, 'once');
	});

	it('Revise sends the feedback in plan mode, and the episode goes on: the reference, not the template again', async () => {
		const provider = new ScriptedProvider({ text: PROPOSAL }, { text: 'Revised.' });
		const { agent, sessions } = setup(provider);
		agent.selectMode('plan');
		await agent.startTurn('Plan the rename.');
		const card = viewOfAgent(agent).plan;
		assert.ok(card);
		assert.equal(decidePlan(agent, sessions, card.proposalId, { decision: 'revise', note: 'Rename the tests too.' }), undefined);
		await idle(agent);
		assert.equal(agent.state.mode, 'plan');
		assert.equal(remindersOf(provider.requests[1]).get('mode.plan'), PLAN_REFERENCE_LINE);
		const last = sessions.current.records.flatMap((record) => (record.kind === 'user' ? [record.text] : [])).at(-1);
		assert.equal(last, 'Please revise the proposed plan. My feedback:\n\nRename the tests too.');
	});

	it('leaving plan mode and entering it again starts a new episode with the full template', async () => {
		const provider = new ScriptedProvider({ text: 'a' }, { text: 'b' }, { text: 'c' });
		const { agent } = setup(provider);
		agent.selectMode('plan');
		await agent.startTurn('one');
		agent.selectMode('ask');
		await agent.startTurn('two');
		agent.selectMode('plan');
		await agent.startTurn('three');
		assert.deepEqual(provider.requests.map((request) => remindersOf(request).get('mode.plan')), [PLAN_TEMPLATE, undefined, PLAN_TEMPLATE]);
	});

	it('a decision that cannot be taken is said, and changes nothing', async () => {
		const provider = new ScriptedProvider({ text: PROPOSAL });
		const { agent, sessions } = setup(provider, false);
		agent.selectMode('plan');
		await agent.startTurn('Plan the rename.');
		const card = viewOfAgent(agent).plan;
		assert.ok(card);
		assert.match(decidePlan(agent, sessions, card.proposalId, { decision: 'approve', mode: 'ask' }) ?? '', /nowhere to save a plan file/);
		assert.equal(agent.state.mode, 'plan', 'the mode is unchanged');
		assert.equal(agent.isRunning, false, 'no turn started');
		assert.equal(viewOfAgent(agent).plan?.proposalId, card.proposalId, 'the card is still there');
		assert.match(decidePlan(agent, sessions, 'gone', { decision: 'reject' }) ?? '', /no longer waiting/);
	});
});
