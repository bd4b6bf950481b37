// A child's tools by its profile: never more than its parent was offered, and never one of the root
// loop's own (RunOutput, RunStop: the chat's background processes are not a sub-agent's; AskUserQuestion:
// a sub-agent cannot reach the person).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_TOOLS } from '../../tools/registry';
import { toolsForProfile } from './profileTools';

const names = (tools: readonly { readonly name: string }[]) => tools.map((tool) => tool.name);

describe('a child\'s tools by its profile', () => {
	it('inherits its parent\'s tools but RunOutput, RunStop and AskUserQuestion', () => {
		assert.deepEqual(names(toolsForProfile({ kind: 'inherit' }, BUILTIN_TOOLS)), ['Read', 'List', 'Glob', 'Grep', 'Edit', 'Write', 'ApplyPatch', 'Run', 'TaskWrite', 'TaskList', 'LSP', 'WebFetch']);
	});

	it('does not get them by naming them, nor as read tools', () => {
		assert.deepEqual(names(toolsForProfile({ kind: 'named', names: ['Run', 'RunOutput', 'RunStop', 'AskUserQuestion'] }, BUILTIN_TOOLS)), ['Run']);
		assert.deepEqual(names(toolsForProfile({ kind: 'read-only' }, BUILTIN_TOOLS)), ['Read', 'List', 'Glob', 'Grep', 'TaskWrite', 'TaskList', 'LSP']);
	});
});
