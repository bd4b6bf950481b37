import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InjectionRecord } from '../reminders/record';
import { ContextUseTracker } from '../view/contextUse';
import { keyLenses, previewBlock, statsTitle, workspaceReminderStats } from './lenses';
import { parseReminderFile } from './reminderFile';
import { AGENT_TOOL_NAME } from '../agent/subagents/agentTool';
import { BUILTIN_TOOLS } from '../tools/registry';
import { BUILTIN_TOOL_NAMES } from '../tools/toolFacts';
import { BUILTIN_VOCABULARY, vocabularyOf } from './vocabulary';

const file = (frontmatter: string, body = 'Body for {{mode}} on {{date}}: {{files}}.') => `---\n${frontmatter}\n---\n${body}\n`;

describe('the code lenses of a reminder file', () => {
	it('count the current chat\'s deliveries of workspace reminders as the context line does', () => {
		const tracker = new ContextUseTracker();
		const entry = (key: string, body: string) => ({ type: 'workspace', key, label: key, body, reason: 'test' });
		const injection = (requestId: string, entries: ReturnType<typeof entry>[]): InjectionRecord => ({ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner: { kind: 'root', id: 't1' }, requestId, at: 1, turn: 1, entries });
		tracker.take(injection('r1', [entry('workspace.migrations', 'x'.repeat(100)), entry('files.edited', 'y')]));
		tracker.take(injection('r2', [entry('workspace.migrations', 'x'.repeat(100))]));
		const stats = workspaceReminderStats(tracker.view(undefined).reminders);
		assert.deepEqual(Object.keys(stats), ['workspace.migrations']);
		const block = `<system-reminder key="workspace.migrations">\n${'x'.repeat(100)}\n</system-reminder>`;
		assert.deepEqual(stats['workspace.migrations'], { sent: 2, tokens: Math.ceil((2 * block.length) / 4) });
	});

	it('say sent N times · ~T tokens on the key, and Preview only for a reminder that would be sent', () => {
		const parsed = parseReminderFile(file('key: migrations'));
		const lenses = keyLenses(parsed, { 'workspace.migrations': { sent: 3, tokens: 120 } });
		assert.deepEqual(lenses.map((lens) => lens.title), ['sent 3 times in this chat · ~120 tokens', 'Preview']);
		assert.deepEqual(lenses[0]?.range, { start: { line: 1, character: 5 }, end: { line: 1, character: 15 } });
		assert.deepEqual(keyLenses(parseReminderFile(file('key: migrations', '{{nope}}')), {}).map((lens) => lens.title), ['not sent in this chat']);
		assert.deepEqual(keyLenses(parseReminderFile(file('key: a b')), {}), []);
		assert.equal(statsTitle({ sent: 1, tokens: 9 }), 'sent 1 time in this chat · ~9 tokens');
	});

	it('Preview is the block as it goes on the wire: workspace.<key>, placeholders expanded, escaped', () => {
		const spec = parseReminderFile(file('key: sql\nwhen:\n  edited: "src/**/*.sql"', 'In {{mode}} on {{date}}, {{files}} & <more>.')).spec;
		assert.ok(spec);
		assert.equal(previewBlock(spec, { date: '2026-12-01', mode: 'plan' }), '<system-reminder key="workspace.sql">\nIn plan on 2026-12-01, src/**/*.sql &amp; &lt;more&gt;.\n</system-reminder>');
		assert.equal(previewBlock(spec, { date: '2026-12-01', mode: 'ask', files: ['a.sql'] }), '<system-reminder key="workspace.sql">\nIn ask on 2026-12-01, a.sql &amp; &lt;more&gt;.\n</system-reminder>');
	});
});

describe('the vocabulary of a running Aside', () => {
	it('knows the tools of the registry before Aside answers (the server bundle does not carry the registry)', () => {
		assert.deepEqual([...BUILTIN_TOOL_NAMES].sort(), [...BUILTIN_TOOLS.map((tool) => tool.name), AGENT_TOOL_NAME].sort());
	});

	it('reserves built-in and contributed keys, not the workspace reminders\' own', () => {
		const vocabulary = vocabularyOf([...BUILTIN_VOCABULARY.reservedKeys, 'acme.lint.style', 'workspace.migrations']);
		assert.ok(vocabulary.reservedKeys.includes('workspace.instructions'));
		assert.ok(vocabulary.reservedKeys.includes('acme.lint.style'));
		assert.ok(!vocabulary.reservedKeys.includes('workspace.migrations'));
		assert.ok(parseReminderFile(file('key: migrations'), vocabulary).spec);
		assert.equal(parseReminderFile(file('key: instructions'), vocabulary).problems[0]?.code, 'reserved-key');
	});
});
