// A child agent's loop compacts its own conversation: the same turn code, the invocation's roster
// and transcript; the root's conversation is not touched.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { Emitter } from '../../base/event';
import { scriptedModels, testPorts } from '../../testing/agentPorts';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { ScriptedProvider } from '../../testing/scriptedProvider';
import { testSessions } from '../../testing/sessions';
import { type Tool, touchesNothing } from '../../tools/tool';
import { replayHistory } from '../../transcript/replay';
import { Agent } from '../agent';
import { invocationLoop } from '../loopOwner';
import { Turn } from '../turn';

const lookupTool: Tool<{ name: string }> = {
	name: 'Lookup',
	description: 'Finds where a name is defined.',
	kind: 'read',
	input: z.object({ name: z.string() }),
	touches: touchesNothing,
	run: ({ name }) => Promise.resolve({ content: `${name} is defined in src/greet.ts:3.` }),
};

describe('compaction in a child agent\'s loop', () => {
	it('compacts the child\'s own conversation past the threshold; the root\'s stays whole', async () => {
		const provider = new ScriptedProvider({ text: 'I will ask a helper.' });
		const models = scriptedModels(provider);
		const sessions = testSessions(new FakeClock(), new SequentialIds('s'));
		const ports = testPorts(models, { tools: () => [lookupTool] });
		const agent = new Agent({ sessions, models, settings: { current: { maxOutputTokens: 100, maxSteps: 10, permissionMode: 'ask' }, onDidChange: new Emitter<unknown>().event }, system: () => 'You are Aside.' }, ports);
		assert.equal((await agent.startTurn('Where is greet defined?')).outcome, 'done');
		const session = sessions.current;
		const path = 'root/explore#1';
		const loop = new Turn(
			ports,
			{
				engine: session.reminders,
				transcript: session.agentTranscript(path),
				permissions: { ask: () => Promise.resolve({ granted: true }) },
				settings: () => ({ maxOutputTokens: 100, maxSteps: 5, permissionMode: 'plan', contextWindow: 1000, autoCompact: { at: 0.8, warnAt: 0.6 } }),
				system: () => 'You are a helper agent.',
			},
			'inv-1',
			invocationLoop(session.reminders.spawnAgent(path)),
		);
		provider.script({ toolCalls: [{ id: 'c1', name: 'Lookup', input: { name: 'greet' } }], usage: [900, 10] }, { text: 'The helper looked greet up.' }, { text: 'greet is in src/greet.ts.' });
		assert.equal((await loop.run('Find where greet is defined.', new AbortController().signal)).outcome, 'done');

		const child = session.agentRecords(path);
		const compaction = child.find((record) => record.kind === 'compaction');
		assert.equal(compaction?.kind === 'compaction' ? compaction.agent : undefined, path);
		assert.equal(compaction?.kind === 'compaction' ? compaction.cause : undefined, 'auto');
		assert.ok(!session.records.some((record) => record.kind === 'compaction'), 'the root conversation is not compacted');
		const last = provider.requests.at(-1)?.messages ?? [];
		assert.match(JSON.stringify(last[0]), /The helper looked greet up\./);
		assert.ok(!JSON.stringify(last).includes('Find where greet is defined.'));
		assert.deepEqual(replayHistory(session.records).slice(0, 1), [{ role: 'user', content: [{ type: 'text', text: 'Where is greet defined?' }] }]);
		agent.dispose();
	});
});
