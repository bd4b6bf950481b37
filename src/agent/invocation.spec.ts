// A second turn loop from the root agent's own ports: an agent invocation (engine.spawnAgent)
// runs the same Turn code with its own owner, transcript, prompt and limits, while the tool box,
// the model dispatch and the runtime are the very objects the root turn used. Not yet a
// sub-agent feature (nothing in the product spawns one): the construction the next issues build on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { Emitter } from '../base/event';
import type { InjectionRecord } from '../reminders/record';
import { scriptedModels, testPorts } from '../testing/agentPorts';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { testSessions } from '../testing/sessions';
import { type Tool, touchesNothing } from '../tools/tool';
import type { AgentRecord } from '../transcript/records';
import { Agent } from './agent';
import { invocationLoop } from './loopOwner';
import { Turn } from './turn';

const lookups: string[] = [];
const lookupTool: Tool<{ name: string }> = {
	name: 'Lookup',
	description: 'Finds where a name is defined.',
	kind: 'read',
	input: z.object({ name: z.string() }),
	touches: touchesNothing,
	run: ({ name }, context) => {
		lookups.push(`${name} in ${context.roots.join(',')}`);
		return Promise.resolve({ content: `${name} is defined in src/greet.ts:3.` });
	},
};

function setup() {
	const provider = new ScriptedProvider();
	const models = scriptedModels(provider);
	const sessions = testSessions(new FakeClock(), new SequentialIds('s'));
	const ports = testPorts(models, { tools: () => [lookupTool] });
	const agent = new Agent(
		{ sessions, models, settings: { current: { maxOutputTokens: 1000, maxSteps: 10, permissionMode: 'ask' }, onDidChange: new Emitter<unknown>().event }, system: () => 'You are Aside.' },
		ports,
	);
	return { provider, sessions, ports, agent };
}

describe('an agent invocation\'s loop, built from the root agent\'s ports', () => {
	it('runs a tool call and an answer through the same tool box and dispatch, under its own owner, roster and transcript', async () => {
		lookups.length = 0;
		const { provider, sessions, ports, agent } = setup();
		provider.script({ text: 'I will ask a helper.' });
		assert.equal((await agent.startTurn('Where is greet defined?')).outcome, 'done');
		const session = sessions.current;
		const rootRecords = session.records.length;

		const invocation = session.reminders.spawnAgent('inv-1');
		const records: AgentRecord[] = [];
		const asked: string[] = [];
		const loop = new Turn(
			ports,
			{
				engine: session.reminders,
				transcript: { records, append: (record) => void records.push(record) },
				permissions: {
					ask: (request) => {
						asked.push(request.tool);
						return Promise.resolve({ granted: true });
					},
				},
				// Its own limits: two samples, so the second is its final step.
				settings: () => ({ maxOutputTokens: 500, maxSteps: 2, permissionMode: 'plan' }),
				system: () => 'You are a helper agent: find things, change nothing.',
			},
			'inv-1',
			invocationLoop(invocation),
		);
		provider.script({ toolCalls: [{ id: 'c1', name: 'Lookup', input: { name: 'greet' } }] }, { text: 'greet is in src/greet.ts.' });
		const outcome = await loop.run('Find where greet is defined.', new AbortController().signal);

		assert.deepEqual(outcome, { turnId: 'inv-1', outcome: 'done' });
		assert.deepEqual(lookups, ['greet in /ws'], 'the call ran with the context the shared tool box gives');
		assert.deepEqual(asked, [], 'a read asks nobody');
		assert.deepEqual(records.map((record) => record.kind), ['user', 'assistant', 'tool-result', 'assistant', 'turn-end']);
		const [, second, third] = provider.requests;
		assert.ok(second && third, 'the invocation sent two requests after the root turn\'s one');
		assert.equal(second.system, 'You are a helper agent: find things, change nothing.');
		assert.deepEqual(second.tools.map((tool) => tool.name), ['Lookup']);
		const last = third.messages.at(-1);
		assert.ok(last?.role === 'user' && last.content[0]?.type === 'text');
		assert.match(last.content[0].text, /<system-reminder key="agent\.nudge">\nThis is your final step for this request \(the step limit is 2\)/, "the invocation's roster counts its own steps");

		// What it was told is recorded in the session, under its own owner, in its own conversation.
		const injected = session.agentRecords('inv-1').filter((record): record is InjectionRecord => record.kind === 'injected-reminders');
		assert.deepEqual(injected.map((record) => [record.owner, record.turn, record.entries.map((entry) => entry.key)]), [
			[{ kind: 'agent', id: 'inv-1' }, 1, ['mode.constraints']],
			[{ kind: 'agent', id: 'inv-1' }, 2, ['agent.nudge']],
		], 'its first sample is told its mode (plan), its second is its final step, by its own count');
		assert.equal(session.records.length, rootRecords, "the root's conversation holds none of them");
		assert.equal(session.allRecords.length, rootRecords + injected.length);
		assert.equal(session.reminders.queueTurnEvent(invocation.owner, { type: 'editedFiles', key: 'files.edited', body: 'late' }), false, 'the loop ended its invocation');
	});
});
