import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AGENT_TOOL_NAME } from '../agent/subagents/agentTool';
import { parseProfileFile } from '../agent/subagents/profileFile';
import { claudeToolCalls } from '../hooks/claudeInput';
import { toolMatcher } from '../hooks/config';
import { filesReadBefore } from '../reminders/builtin/compactFileReferences';
import { sessionRecovery } from '../reminders/builtin/sessionRecovery';
import { nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import type { AgentRecord } from '../transcript/records';
import { BUILTIN_VOCABULARY } from '../workspaceReminders/vocabulary';
import { BUILTIN_TOOLS, declareTouches } from './registry';
import { touchesNothing } from './tool';
import { BUILTIN_TOOL_NAMES, builtinToolFacts, CLAUDE_FILE_TOOLS, TOOL_FACTS, type ToolFacts } from './toolFacts';

const rows = BUILTIN_TOOL_NAMES.map((name) => ({ name, facts: TOOL_FACTS[name] }));

function facts(name: string): ToolFacts {
	const found = builtinToolFacts(name);
	assert.ok(found, `${name} has a row`);
	return found;
}

function profileTools(tools: readonly string[]) {
	const text = `---\nname: probe\ndescription: Names tools.\ntools: ${JSON.stringify(tools)}\n---\nProbe.\n`;
	const parsed = parseProfileFile(new TextEncoder().encode(text), { kind: 'file', path: '/ws/.aside/agents/probe.md', scope: 'workspace' });
	assert.ok(parsed.ok && parsed.profile.tools.kind === 'named');
	return { names: parsed.profile.tools.names, canSpawn: parsed.profile.canSpawn, warnings: parsed.warnings };
}

describe('the tool facts', () => {
	it('have a row for each tool of the registry, in its order, and one for the Agent tool the loop runs', () => {
		assert.deepEqual(
			BUILTIN_TOOL_NAMES.filter((name) => name !== AGENT_TOOL_NAME),
			BUILTIN_TOOLS.map((tool) => tool.name),
		);
		assert.ok(BUILTIN_TOOL_NAMES.includes(AGENT_TOOL_NAME));
	});

	it('agree with what each tool of the registry is: file changes for hooks and aside.tools.edit are its writes, left processes its commands', () => {
		for (const tool of BUILTIN_TOOLS) {
			const row = facts(tool.name);
			assert.equal(row.hooksSeeFileChange, tool.kind === 'write', `${tool.name}: hooks guarding file changes see it exactly when it writes`);
			assert.ok(!row.editChoice || tool.kind === 'write', `${tool.name}: an edit tool writes`);
			assert.ok(!row.ruleCoversWrites || tool.kind === 'write', `${tool.name}: the rule that covers writes names a tool that writes`);
			assert.equal(row.leavesProcesses, tool.kind === 'run', `${tool.name}: a command may leave processes`);
		}
		assert.equal(rows.filter((row) => row.facts.ruleCoversWrites).length, 1);
	});

	it('name, for a tool that shows a file, the input field its touches declares as read', async () => {
		const workspace = tempWorkspace();
		try {
			writeFileSync(join(workspace.root, 'notes.txt'), 'x\n');
			const context = nodeToolContext([workspace.root]);
			for (const tool of BUILTIN_TOOLS) {
				const field = facts(tool.name).readsFileNamedBy;
				const mayRead = tool.kind === 'read' && tool.touches !== touchesNothing;
				assert.equal(field !== undefined, mayRead, `${tool.name}: a read tool that declares files says which field names it`);
				if (field !== undefined) {
					const touches = await declareTouches(tool, { [field]: 'notes.txt' }, context);
					assert.deepEqual(touches, { reads: [join(workspace.root, 'notes.txt')], writes: [] }, tool.name);
				}
			}
		} finally {
			workspace.dispose();
		}
	});

	it('reach every place that takes a tool by name: profiles, hook matchers, a hook\'s tool_name, the reminder vocabulary', () => {
		assert.deepEqual(BUILTIN_VOCABULARY.tools, BUILTIN_TOOL_NAMES);
		for (const { name, facts } of rows) {
			const named = profileTools([name.toLowerCase(), facts.claudeName, ...facts.claudeAliases]);
			assert.deepEqual(named.names, [name], `a profile names ${name} by Aside's name or Claude Code's`);
			assert.deepEqual(named.warnings, [], name);
			assert.equal(named.canSpawn, facts.inProfiles === 'spawns', `${name}: naming it lets a child spawn`);
			for (const claudeName of [facts.claudeName, ...facts.claudeAliases]) {
				assert.equal(toolMatcher(claudeName)?.(name), true, `a hook matcher on ${claudeName} guards ${name}`);
			}
			assert.equal(toolMatcher(CLAUDE_FILE_TOOLS.join('|'))?.(name), facts.hooksSeeFileChange, `${name}: Claude Code's file-tool matchers`);
			assert.equal(claudeToolCalls(name, {}, '/ws')[0]?.name, facts.claudeName, `${name}'s tool_name`);
		}
	});

	it('decide what the reminders say of recorded calls: processes left running, files read before a compaction', () => {
		const at = Date.UTC(2026, 0, 1);
		for (const { name, facts } of rows) {
			const body = sessionRecovery({ cause: 'stopped', calls: [{ name }], answerCut: false })?.body ?? '';
			assert.equal(body.includes('Processes a command started may still be running.'), facts.leavesProcesses, name);
			const field = facts.readsFileNamedBy ?? 'path';
			const records: AgentRecord[] = [
				{ kind: 'assistant', id: 'a', turnId: 't', requestId: 'r', at, text: '', toolCalls: [{ id: 'c', name, input: { [field]: 'src/a.ts' } }], stop: 'tool-use' },
				{ kind: 'tool-result', id: 'res', turnId: 't', callId: 'c', name, at, content: 'ok', isError: false },
			];
			assert.deepEqual(filesReadBefore(records, []), facts.readsFileNamedBy === undefined ? [] : [{ path: 'src/a.ts', at }], name);
		}
	});
});
