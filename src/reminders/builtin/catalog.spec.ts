import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BUILTIN_PROFILES } from '../../agent/subagents/builtinProfiles';
import { fixedEnvironment } from '../../testing/environment';
import { FakeClock } from '../../testing/fakeClock';
import { BUILTIN_KEYS } from '../keys';
import { noToolNudge } from './agentNudge';
import { BUILTIN_REMINDER_TYPES } from './catalog';
import { builtinReminders } from './defaults';
import { NOTHING_OBSERVED } from './editsVerify';
import { hookOutcome } from './hookOutcome';
import { permissionVerdict } from './permissionVerdict';
import { sessionResume } from './sessionResume';
import { userSteering } from './userSteering';
import '../../testing/chatFeatures';

const declared = (type: string) => BUILTIN_REMINDER_TYPES.find((declaration) => declaration.type === type) ?? assert.fail(`"${type}" is not declared`);

/** The `type` and `key` cells of the table of built-in reminders in docs/reminders.md. */
function reminderTableRows(): { type: string; key: string; setting: string }[] {
	const text = readFileSync(join(process.cwd(), 'docs', 'reminders.md'), 'utf8');
	const table = text.slice(text.indexOf('## The reminders in this version'));
	return table
		.split('\n')
		.filter((line) => /^\| `/.test(line))
		.map((line) => line.split('|').map((cell) => cell.trim()))
		.map((cells) => ({ type: /^`(\w+)`/.exec(cells[1] ?? '')?.[1] ?? '', key: (cells[2] ?? '').replaceAll('`', ''), setting: cells[4] ?? '' }));
}

describe('the built-in declarations', () => {
	it('declare each type and each key once', () => {
		const types = BUILTIN_REMINDER_TYPES.map((declaration) => declaration.type);
		assert.equal(new Set(types).size, types.length);
		assert.deepEqual(BUILTIN_KEYS.entries().map((entry) => entry.key), BUILTIN_REMINDER_TYPES.map((declaration) => declaration.key));
	});

	it('keep always-on to the user\'s own words and policy (their hooks\' decisions), to notices that ride a tool result, and to what Aside sends in place of a message (aside.run.wakeOnExit is its switch)', () => {
		assert.deepEqual(BUILTIN_REMINDER_TYPES.filter((declaration) => !declaration.configurable).map((declaration) => declaration.key), [
			'steering.user',
			'permission.verdict',
			'read.truncated',
			'read.empty',
			'context.summary',
			'hook.outcome',
			'read.pdf-pages',
			'run.background.wake',
		]);
	});

	it('give an interval only to configurable types, since its setting needs one', () => {
		for (const declaration of BUILTIN_REMINDER_TYPES.filter((candidate) => candidate.interval !== undefined)) {
			assert.ok(declaration.configurable, declaration.type);
		}
	});

	it('are what the roster reminders and the other producers put on their entries', () => {
		const definitions = builtinReminders(new FakeClock(), () => ({ files: [] }), NOTHING_OBSERVED, { current: () => BUILTIN_PROFILES }, fixedEnvironment());
		assert.ok(definitions.length > 0);
		for (const definition of definitions) {
			const declaration = declared(definition.type);
			assert.deepEqual([definition.key, definition.label, definition.policy], [declaration.key, declaration.label, declaration.policy], definition.type);
		}
		for (const entry of [noToolNudge(), sessionResume({ cause: 'restart', lastActivity: 0 }), userSteering('x'), permissionVerdict({ granted: true, tool: 'Edit' }), hookOutcome({ event: 'PreToolUse', tool: 'Run', kind: 'blocked', text: 'no' })]) {
			const declaration = declared(entry.type);
			assert.deepEqual([entry.key, entry.label], [declaration.key, declaration.label], entry.type);
		}
	});

	it('are the ones docs/reminders.md lists, each configurable one with its settings', () => {
		const rows = reminderTableRows();
		assert.ok(rows.length > 0, 'the table was found');
		for (const row of rows) {
			assert.equal(declared(row.type).key, row.key, `${row.type}: the key in docs/reminders.md`);
		}
		for (const declaration of BUILTIN_REMINDER_TYPES.filter((candidate) => candidate.configurable)) {
			const row = rows.find((candidate) => candidate.type === declaration.type);
			assert.ok(row, `${declaration.type} is in the table of docs/reminders.md`);
			assert.ok(row.setting.includes(`aside.reminders.${declaration.type}.enabled`), `${declaration.type}: its setting is named`);
			assert.equal(row.setting.includes('.interval'), declaration.interval !== undefined, `${declaration.type}: its interval setting is named when it has one`);
		}
	});
});
