// The stale-write guard is kept per agent: what one agent (the root or a sub-agent) has read says
// nothing about what another has, so an agent never writes over a change another agent made after
// it read the file. Real Read and Edit on a real folder, through a real Agent and its children.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SeenTexts } from '../../observe/seenTexts';
import { nodeToolContext, tempWorkspace } from '../../testing/nodeWorkspace';
import { profile, subagentSetup } from '../../testing/subagents';
import { editTool } from '../../tools/edit';
import { readTool } from '../../tools/read';

const CHILD = 'You are the worker agent.';

describe('what each agent has read', () => {
	const workspace = tempWorkspace();
	after(() => {
		workspace.dispose();
	});

	it('an agent whose read is older than another agent\'s edit cannot write over that edit; the agent that made it can go on', async () => {
		writeFileSync(join(workspace.root, 'a.ts'), 'export const a = 1;\n');
		const seen = new SeenTexts();
		const { provider, agent, sessions } = subagentSetup({
			profiles: [profile('worker', { kind: 'inherit' })],
			workspace: { tools: [readTool, editTool], context: (signal) => nodeToolContext([workspace.root], signal, seen) },
		});
		provider.script(
			{ toolCalls: [{ id: 'r1', name: 'Read', input: { path: 'a.ts' } }] },
			{ toolCalls: [{ id: 'c1', name: 'Agent', input: { agent: 'worker', prompt: 'Make a two.', description: 'edit a' } }] },
			{ match: CHILD, toolCalls: [{ id: 'k1', name: 'Read', input: { path: 'a.ts' } }] },
			{ match: CHILD, toolCalls: [{ id: 'k2', name: 'Edit', input: { path: 'a.ts', old_string: '= 1', new_string: '= 2' } }] },
			{ match: CHILD, toolCalls: [{ id: 'k3', name: 'Edit', input: { path: 'a.ts', old_string: 'const a', new_string: 'const alpha' } }] },
			{ match: CHILD, text: 'a is two.' },
			{ toolCalls: [{ id: 'e1', name: 'Edit', input: { path: 'a.ts', old_string: '= 2', new_string: '= 3' } }] },
			{ text: 'done' },
		);
		assert.equal((await agent.startTurn('Go.')).outcome, 'done');
		const results = sessions.current.allRecords.flatMap((record) => (record.kind === 'tool-result' ? [[record.callId, record.isError, record.content] as const] : []));
		const result = (id: string) => results.find(([callId]) => callId === id);
		assert.equal(result('k2')?.[1], false, 'the child edits the file it read');
		assert.equal(result('k3')?.[1], false, 'and goes on editing what it wrote');
		assert.deepEqual(result('e1'), ['e1', true, 'a.ts changed since you last read it (in the editor or on disk), so the edit was not made and nothing was written. Read it again, then make the edit against its current text.']);
		assert.equal(readFileSync(join(workspace.root, 'a.ts'), 'utf8'), 'export const alpha = 2;\n', 'the child\'s change stands');
	});
});
