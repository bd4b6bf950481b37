// The approved plan file lies in the chat's storage, outside the workspace, and the model is told
// its path: Read and Edit reach exactly that file — nothing else in storage, not another chat's
// plan, not an earlier plan of the same chat. Real Read and Edit, a real Agent, real plan files.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Emitter } from '../base/event';
import { SeenTexts } from '../observe/seenTexts';
import { decidePlan, scriptedModels, testFeatures, testPorts } from '../testing/agentPorts';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { testSessions } from '../testing/sessions';
import { viewOfAgent } from '../testing/views';
import { editTool } from '../tools/edit';
import { readTool } from '../tools/read';
import { Agent } from './agent';
import { DirectoryPlanFiles } from './planFiles';

const PLAN = '## Goal\nRename it.\n\n## Steps\n1. Rename.';

describe('the approved plan file', () => {
	const storage = mkdtempSync(join(tmpdir(), 'aside-plan-access-'));
	const workspace = tempWorkspace();
	after(() => {
		rmSync(storage, { recursive: true, force: true });
		workspace.dispose();
	});

	it('Read and Edit reach the current chat\'s plan file, and nothing else in storage', async () => {
		const provider = new ScriptedProvider({ text: `<proposed_plan>\n${PLAN}\n</proposed_plan>` });
		const sessions = testSessions(new FakeClock(), new SequentialIds('s'));
		const models = scriptedModels(provider);
		const seen = new SeenTexts();
		const agent = new Agent(
			{ features: testFeatures(), sessions, models, settings: { current: { maxOutputTokens: 1000, maxSteps: 10, permissionMode: 'full-access' }, onDidChange: new Emitter<unknown>().event }, system: () => 'system', planFiles: new DirectoryPlanFiles(storage) },
			testPorts(models, { tools: () => [readTool, editTool], context: (signal) => nodeToolContext([workspace.root], signal, seen) }),
		);
		agent.onDidChange((state) => {
			if (state.approval) {
				agent.approve(state.approval.callId, true, undefined);
			}
		});
		await agent.startTurn('Plan the rename.', { mode: 'plan' });
		const card = viewOfAgent(agent).plan;
		assert.ok(card);
		const plans = join(storage, `${sessions.current.id}.plans`);
		const file = join(plans, 'plan-1.md');
		const transcript = join(plans, 'notes.md');
		mkdirSync(plans, { recursive: true });
		writeFileSync(transcript, 'not the plan\n');
		provider.script(
			{ toolCalls: [{ id: 'r1', name: 'Read', input: { path: file } }] },
			{ toolCalls: [{ id: 'e1', name: 'Edit', input: { path: file, old_string: '1. Rename.', new_string: '1. Rename. (done)' } }] },
			{ toolCalls: [{ id: 'r2', name: 'Read', input: { path: transcript } }] },
			{ toolCalls: [{ id: 'r3', name: 'Read', input: { path: join(plans, '..', `${sessions.current.id}.plans`, 'plan-1.md', '..', 'notes.md') } }] },
			{ text: 'done' },
		);
		assert.equal(decidePlan(agent, sessions, card.proposalId, { decision: 'approve', mode: 'full-access' }), undefined);
		// Real reads and an edit on disk: under load they can outlast any fixed number of event-loop rounds.
		for (const until = Date.now() + 30_000; (agent.isRunning || provider.requests.length < 6) && Date.now() < until; ) {
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
		const results = new Map(sessions.current.records.flatMap((record) => (record.kind === 'tool-result' ? [[record.callId, record] as const] : [])));
		assert.equal(results.get('r1')?.isError, false, String(results.get('r1')?.content));
		assert.match(results.get('r1')?.content ?? '', /1\t## Goal/);
		assert.equal(results.get('e1')?.isError, false, String(results.get('e1')?.content));
		assert.equal(readFileSync(file, 'utf8'), `${PLAN} (done)\n`);
		for (const id of ['r2', 'r3']) {
			assert.equal(results.get(id)?.isError, true, id);
			assert.match(results.get(id)?.content ?? '', /is outside the workspace folders/, id);
		}
	});
});
