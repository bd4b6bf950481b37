// The plan workflow end to end in the real extension host and webview: plan mode with the scripted
// model server (the real OpenAI-compatible SSE protocol; every request recorded), the mode.plan
// template then its one-line reference on the wire, a proposal shown as the plan card, Approve
// clicked in the real webview writing the plan file beside the transcript and starting the
// implementation turn in the mode picked.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { waitForEvent } from '../../src/base/event';
import { parseReminders } from '../../src/reminders/envelope';
import { PLAN_REFERENCE_LINE, PLAN_TEMPLATE } from '../../src/reminders/builtin/modePlan';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, driver, hasDriver, until, useScriptedServer } from './support';

interface OpenAIMessage {
	readonly role: string;
	readonly content?: string | null;
}

function body(request: ReceivedRequest | undefined): { messages?: OpenAIMessage[]; tools?: { function: { name: string } }[] } {
	return (request?.body ?? {});
}

/** The bodies of the reminder blocks of `key` in the request's last message (the one its WAIT added). */
function blocksOf(request: ReceivedRequest | undefined, key: string): string[] {
	const last = body(request).messages?.at(-1);
	return last?.role === 'user' ? parseReminders(last.content ?? '').flatMap((block) => (block.key === key ? [block.body] : [])) : [];
}

const PLAN = ['## Goal', 'Say good morning.', '', '## Steps', '1. Change the greeting in `src/greeting.ts`.', '', '## How to verify', 'Run the tests.', '', '## Risks', 'None.'].join('\n');

describe('the plan workflow, with a scripted model server', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;

	before(async () => {
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'plan' });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await restore();
		await server.close();
	});

	it('plan mode: the full template, then the one-line reference; the proposal is the plan card; Approve writes the plan file and starts the implementation turn in the mode picked', async function () {
		if (!hasDriver) {
			this.skip();
		}
		const { api, hooks } = await activeAside();
		server.script({ text: 'I will read the greeting first.' }, { text: `Here is the plan.\n\n<proposed_plan>\n${PLAN}\n</proposed_plan>` }, { text: 'Implemented the plan.' });
		const before = chatRequests(server).length;

		const first = await api.sendMessage('Plan how to make the greeting say good morning.');
		assert.equal(first.outcome, 'done', first.error);
		const second = await api.sendMessage('Go on and propose.');
		assert.equal(second.outcome, 'done', second.error);
		const requests = chatRequests(server).slice(before);
		assert.deepEqual(blocksOf(requests[0], 'mode.plan'), [PLAN_TEMPLATE], 'the first request of the episode carries the full template');
		assert.deepEqual(blocksOf(requests[1], 'mode.plan'), [PLAN_REFERENCE_LINE], 'the next one the one-line reference');
		assert.equal(body(requests[0]).tools?.some((tool) => ['Edit', 'Write', 'Run'].includes(tool.function.name)), false, 'read-only tools in plan mode');

		await vscode.commands.executeCommand('aside.focusChat');
		const card = await driver<{ plan: string; modes: string[] }>('decidePlan', {
			decision: 'approve',
			mode: 'auto-edit',
			screenshot: { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/plan-card.png`, clip: { x: 0, y: 0, width: 1100, height: 720 } },
		});
		assert.match(card.plan, /Say good morning\./);
		assert.match(card.plan, /Change the greeting in src\/greeting\.ts\./);
		assert.ok(card.modes.includes('auto-edit') && !card.modes.includes('plan'), 'any mode but plan');

		const implementation = await until(() => chatRequests(server).slice(before)[2], (request) => request !== undefined, 'the implementation request');
		await until(() => hooks.currentSessionItems(), (items) => items.some((item) => item.kind === 'assistant' && item.text === 'Implemented the plan.'), 'the implementation answer');
		const file = join(hooks.sessionsDir, `${second.sessionId}.plans`, 'plan-1.md');
		assert.ok(existsSync(file), `the plan file ${file} was written`);
		assert.equal(readFileSync(file, 'utf8'), `${PLAN}\n`);

		const messages = body(implementation).messages ?? [];
		const prompt = messages.filter((message) => message.role === 'user').map((message) => message.content ?? '').find((text) => text.startsWith('Implement the approved plan below.'));
		assert.equal(prompt, `Implement the approved plan below. It is saved as ${file}.\n\n${PLAN}`, 'the implementation turn carries the plan as the person\'s message');
		assert.deepEqual(blocksOf(implementation, 'mode.plan'), [], 'out of plan mode');
		assert.ok(body(implementation).tools?.some((tool) => tool.function.name === 'Edit'), 'auto-edit offers the write tools');

		const lines = readFileSync(join(hooks.sessionsDir, `${second.sessionId}.jsonl`), 'utf8')
			.split('\n')
			.filter((line) => line !== '')
			.map((line) => JSON.parse(line) as { kind: string; decision?: string; mode?: string; file?: string });
		const decision = lines.find((line) => line.kind === 'plan-decision');
		assert.deepEqual([decision?.decision, decision?.mode, decision?.file], ['approved', 'auto-edit', file], 'the approval is recorded');
		const items = hooks.currentSessionItems();
		const approval = items.find((item) => item.kind === 'plan-decision' && item.decision === 'approved');
		assert.ok(approval, 'and shown as a row');
		const request = items.find((item) => item.kind === 'user' && item.text === prompt);
		assert.deepEqual(request?.kind === 'user' ? request.implementsPlan : undefined, { decision: approval.id, file }, 'the request shows as the approval\'s, not as a typed message');

		// The row's link opens the plan file (it is beside the transcript, outside the workspace).
		const opened = waitForEvent((listener: (editor: vscode.TextEditor | undefined) => void) => vscode.window.onDidChangeActiveTextEditor(listener), (editor) => editor?.document.uri.fsPath === file, 30_000, 'the plan file in an editor');
		await driver('clickInChat', { name: 'Open the plan, plan-1.md' });
		assert.equal((await opened)?.document.getText(), `${PLAN}\n`);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});
});
