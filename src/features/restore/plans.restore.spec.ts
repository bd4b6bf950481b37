// A chat restore that rolls back a plan approval takes back the mode that approval set, when the
// chat is still in it: back to the mode before the approval, recorded (a reopened chat keeps it)
// and said on the restored row; a mode the person chose since stays, and a files-only restore
// changes nothing. The real Agent over a temporary workspace (src/testing/restoreChat.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keysIn, restoreChat } from '../../testing/restoreChat';
import { decidePlan } from '../../testing/agentPorts';
import { lastText } from '../../testing/turnHarness';
import { itemsOfSession, viewOfAgent } from '../../testing/views';
import type { RestoreRecord } from '../../transcript/restoreRecord';
import type { RestoreScope } from '../../vocabulary/restore';

const PROPOSAL = 'Here is my plan.\n\n<proposed_plan>\n## Goal\nRename it.\n\n## Steps\n1. Rename.\n</proposed_plan>';

type Chat = ReturnType<typeof restoreChat>;

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A plan proposed in plan mode and approved in auto-edit (its implementation turn run), from `from` (the mode the chat is in when the person approves). */
async function approvePlan(chat: Chat, from: 'plan' | 'ask' = 'plan'): Promise<void> {
	const { agent, turn } = chat;
	agent.selectMode('plan');
	await turn('Plan the rename', [{ text: PROPOSAL }]);
	if (from !== 'plan') {
		agent.selectMode(from);
	}
	const card = viewOfAgent(agent).plan;
	assert.ok(card, 'the plan waits for a decision');
	chat.provider.script({ text: 'Renamed.' });
	assert.equal(decidePlan(agent, chat.sessions, card.proposalId, { decision: 'approve', mode: 'auto-edit' }), undefined);
	for (let i = 0; i < 50 && agent.isRunning; i++) {
		await tick();
	}
	assert.equal(agent.state.mode, 'auto-edit');
}

async function restoreTo(chat: Chat, to: string, scope: RestoreScope = 'chat'): Promise<RestoreRecord> {
	const preview = await chat.restorer.preview(to, scope);
	assert.ok(preview.ok, preview.ok ? '' : preview.message);
	const restored = await chat.restorer.apply(preview.value, false);
	assert.ok(restored.ok, restored.ok ? '' : restored.message);
	return restored.value;
}

/** What the restored row of restore `id` says of the mode. */
function rowMode(chat: Chat, id: string): string | undefined {
	const row = itemsOfSession(chat.session).find((item) => item.id === id);
	return row?.kind === 'restore' ? row.mode : undefined;
}

describe('a chat restore and the mode a rolled-back plan approval set', () => {
	it('goes back to Plan mode with the approval, says so on the restored row, and a reopened chat keeps it', async (t) => {
		const chat = restoreChat(t);
		const { agent, sessions, session, users } = chat;
		await chat.turn('Hello', [{ text: 'Hi.' }]);
		await approvePlan(chat);
		assert.ok(agent.approvedPlans.current());

		const record = await restoreTo(chat, users()[1]?.id ?? '');
		assert.equal(agent.approvedPlans.current(), undefined, 'the approval is rolled back');
		assert.equal(record.mode, 'plan');
		assert.equal(agent.state.mode, 'plan', 'the toolbar shows Plan');
		assert.equal(viewOfAgent(agent).mode, 'plan');
		assert.equal(rowMode(chat, record.id), 'plan', 'the restored row says the mode went back');
		await chat.turn('Plan it differently', [{ text: 'ok' }]);
		const told = keysIn(lastText(chat.provider.requests.at(-1)?.messages ?? []));
		assert.ok(told.includes('mode.plan') && told.includes('mode.constraints'), 'the model is told it is in plan mode again');

		const id = session.id;
		sessions.newSession();
		const reopened = sessions.open(id);
		assert.equal(reopened.mode, 'plan', 'recorded: a reopened chat is in Plan mode');
		assert.equal(agent.state.mode, 'plan');
	});

	it('goes back to the mode the chat was in when the plan was approved', async (t) => {
		const chat = restoreChat(t);
		await approvePlan(chat, 'ask');
		const record = await restoreTo(chat, chat.users()[0]?.id ?? '');
		assert.equal(record.mode, 'ask');
		assert.equal(chat.agent.state.mode, 'ask');
	});

	it('keeps a mode the person chose since the approval, and a files-only restore keeps the mode', async (t) => {
		const chat = restoreChat(t);
		const { agent, users } = chat;
		await approvePlan(chat);
		const files = await restoreTo(chat, users()[0]?.id ?? '', 'files');
		assert.equal(files.mode, undefined);
		assert.equal(agent.state.mode, 'auto-edit', 'files only: the approval and its mode stay');

		agent.selectMode('full-access');
		const record = await restoreTo(chat, users()[0]?.id ?? '');
		assert.equal(agent.approvedPlans.current(), undefined);
		assert.equal(record.mode, undefined);
		assert.equal(agent.state.mode, 'full-access', 'the person\'s own choice stays');
	});

	it('a restore to the implementation message keeps the approval, so the mode stays', async (t) => {
		const chat = restoreChat(t);
		await approvePlan(chat);
		const implementation = chat.users().at(-1);
		assert.match(implementation?.text ?? '', /^Implement the approved plan below/);
		const record = await restoreTo(chat, implementation?.id ?? '');
		assert.ok(chat.agent.approvedPlans.current(), 'the approval was recorded before that message');
		assert.equal(record.mode, undefined);
		assert.equal(chat.agent.state.mode, 'auto-edit');
	});
});
