import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as z from 'zod';
import { BUILTIN_REMINDER_TYPES } from '../reminders/builtin/catalog';
import { DEFAULT_MENTION_LIMITS } from '../mentions/limits';
import { contributedReminderSwitch, mentionLimitsOf, readSettings, reminderConfigOf, reminderSettings, SETTINGS } from './settings';
import '../testing/chatFeatures';
import { categories, contributed, declared } from '../testing/contributedSettings';

describe('settings', () => {
	it('package.json contributes exactly the settings defined in code', () => {
		assert.deepEqual(Object.keys(contributed).sort(), [...Object.values(SETTINGS), ...reminderSettings()].map((s) => s.key).sort());
	});

	it('groups them in the Settings UI: provider, model and server first, then permissions, MCP servers, reminders, context, checkpoints, advanced; each setting in exactly one, in its own order', () => {
		assert.deepEqual(
			categories.map((category) => [category.order, category.title]),
			[
				[1, 'Provider'],
				[2, 'Permissions'],
				[3, 'MCP Servers'],
				[4, 'Reminders'],
				[5, 'Context'],
				[6, 'Checkpoints'],
				[7, 'Advanced'],
			],
		);
		assert.equal(new Set(categories.map((category) => category.id)).size, categories.length, 'each category its own id');
		const keys = categories.flatMap((category) => Object.keys(category.properties));
		assert.equal(keys.length, new Set(keys).size, 'no setting in two categories');
		assert.deepEqual(
			Object.keys(categories[0]?.properties ?? {}),
			[
				SETTINGS.provider.key,
				SETTINGS.model.key,
				SETTINGS.baseUrl.key,
				SETTINGS.contextWindow.key,
				SETTINGS.maxOutputTokens.key,
				SETTINGS.requestTimeoutSeconds.key,
			],
		);
		for (const category of categories) {
			const orders = Object.values(category.properties).map((property) => property.order);
			assert.deepEqual(orders, orders.map((_, index) => index + 1), `${category.title}: each setting has its place, in the order written`);
		}
		for (const key of Object.keys(categories[3]?.properties ?? {})) {
			assert.match(key, /^aside\.reminders\./, 'the reminders category holds the reminder switches');
		}
	});

	for (const definition of [...Object.values(SETTINGS), ...reminderSettings()]) {
		it(`${definition.key}: type, bounds, enum and default match the zod schema`, () => {
			const property = contributed[definition.key];
			assert.ok(property, `${definition.key} is not in package.json`);
			const schema = declared(definition.schema as z.ZodType);
			assert.deepEqual(property.type, schema.type);
			assert.deepEqual(property.enum, schema.enum);
			assert.equal(property.minimum, schema.minimum);
			assert.equal(property.maximum, schema.maximum);
			assert.deepEqual(property.default, definition.default);
			assert.ok(definition.schema.safeParse(definition.default).success, 'the default must be valid');
			assert.ok((property.markdownDescription ?? property.description ?? '').length > 20, 'every setting needs a real description');
		});
	}

	it('reads valid values and uses defaults for unset ones', () => {
		const values: Record<string, unknown> = { 'aside.chat.sendShortcut': 'ctrlEnter' };
		const { settings, problems } = readSettings((key) => values[key]);
		assert.deepEqual(settings, {
			sendShortcut: 'ctrlEnter',
			maxMessageLength: 100_000,
			provider: 'vscode-lm',
			model: '',
			baseUrl: '',
			maxOutputTokens: 8192,
			contextWindow: 0,
			requestTimeoutSeconds: 120,
			editTools: ['Edit', 'Write', 'ApplyPatch'],
			permissionMode: 'ask',
			permissionRules: { allow: [], ask: [], deny: [] },
			maxSteps: 50,
			planReferenceMaxChars: 4000,
			editedMaxFileBytes: 1024 * 1024,
			editedMaxCacheBytes: 16 * 1024 * 1024,
			editedMaxDiffLines: 200,
			diagnosticsTimeoutMs: 30_000,
			diagnosticsMaxPerFile: 10,
			diagnosticsMaxTotal: 30,
			diagnosticsOpenEditedFiles: true,
			editedMaxDiffBytes: 256 * 1024,
			runTerminal: 'visible',
			runShellIntegrationTimeoutMs: 5000,
			runWakeOnExit: false,
			agentsMaxSteps: 30,
			agentsMaxConcurrent: 3,
			agentsMaxTurnsWarningAt: 0.8,
			autoCompact: true,
			autoCompactAt: 0.8,
			warnAt: 0.6,
			hooks: {},
			mcpServers: {},
			mcpStartupTimeoutMs: 30_000,
			mcpRequestTimeoutMs: 120_000,
			mcpDeferAt: '10%',
			mcpSampling: 'ask',
			instructionFiles: ['AGENTS.md', 'CLAUDE.md', 'copilot-instructions', '.instructions.md', '.clinerules', '.cursorrules', '.cursor/rules', '.roo/rules'],
			instructionsMaxFiles: 50,
			instructionsMaxTotalBytes: 262144,
			workspaceReminders: true,
			workspaceReminderSettings: {},
			contributedReminders: {},
			mentionsMaxFileBytes: 4 * 1024 * 1024,
			mentionsMaxLines: 500,
			mentionsMaxBytes: 32 * 1024,
			mentionsMaxFolderEntries: 200,
			mentionsMaxProblems: 50,
			mentionsMaxDiffBytes: 64 * 1024,
			checkpointsMaxBytes: 512 * 1024 * 1024,
			reminders: { disabled: [], intervals: { contextUsage: 10, editsVerify: 10, tasksNudge: 8, sessionFork: 20 } },
		});
		assert.deepEqual(problems, []);
	});

	it('a checkpoint bound under 16 MiB is refused with a message naming the setting, and the default is used', () => {
		const { settings, problems } = readSettings((key) => (key === 'aside.checkpoints.maxBytes' ? 1000 : undefined));
		assert.equal(settings.checkpointsMaxBytes, 512 * 1024 * 1024);
		assert.equal(problems.length, 1);
		assert.match(problems[0]?.message ?? '', /aside\.checkpoints\.maxBytes/);
	});

	it('reads the workspace reminders map, and refuses one whose entry is not { enabled }', () => {
		const good = readSettings((key) => (key === 'aside.reminders.workspace.reminders' ? { migrations: { enabled: false } } : undefined));
		assert.deepEqual(good.settings.workspaceReminderSettings, { migrations: { enabled: false } });
		const bad = readSettings((key) => (key === 'aside.reminders.workspace.reminders' ? { migrations: false } : undefined));
		assert.deepEqual(bad.settings.workspaceReminderSettings, {});
		assert.match(bad.problems[0]?.message ?? '', /aside\.reminders\.workspace\.reminders/);
	});

	it('reads the contributed reminders map by wire key: false is off, anything unnamed on; a non-boolean entry is refused', () => {
		let raw: unknown = { 'acme.todo.todos': false, 'acme.todo.other': true };
		const switchOf = contributedReminderSwitch(() => readSettings((key) => (key === 'aside.reminders.contributed' ? raw : undefined)).settings);
		assert.deepEqual([switchOf('acme.todo.todos'), switchOf('acme.todo.other'), switchOf('acme.lint.rules')], [false, true, true]);
		raw = { 'acme.todo.todos': 'off' };
		assert.equal(switchOf('acme.todo.todos'), true);
		assert.match(readSettings((key) => (key === 'aside.reminders.contributed' ? raw : undefined)).problems[0]?.message ?? '', /aside\.reminders\.contributed/);
	});

	it('falls back to the default for a bad value and names the setting, value and default', () => {
		const values: Record<string, unknown> = {
			'aside.chat.sendShortcut': 'shift',
			'aside.chat.maxMessageLength': '5000',
		};
		const { settings, problems } = readSettings((key) => values[key]);
		assert.equal(settings.sendShortcut, 'enter');
		assert.equal(settings.maxMessageLength, 100_000);
		assert.equal(problems.length, 2);
		assert.match(problems[0]?.message ?? '', /"aside\.chat\.sendShortcut" has an invalid value "shift" \(Invalid option.*\); using the default, "enter"\./);
		assert.match(problems[1]?.message ?? '', /"aside\.chat\.maxMessageLength" has an invalid value "5000" .*using the default, 100000\./);
	});

	it('aside.mentions.*: the mention bounds, their defaults those of DEFAULT_MENTION_LIMITS, a value out of bounds named and replaced by the default', () => {
		assert.deepEqual(mentionLimitsOf(readSettings(() => undefined).settings), DEFAULT_MENTION_LIMITS);
		const values: Record<string, unknown> = { 'aside.mentions.maxLines': 40, 'aside.mentions.maxBytes': 2048, 'aside.mentions.maxFolderEntries': 3, 'aside.mentions.maxDiffBytes': 8192 };
		const { settings, problems } = readSettings((key) => values[key]);
		assert.deepEqual(mentionLimitsOf(settings), { ...DEFAULT_MENTION_LIMITS, maxLines: 40, maxBytes: 2048, maxDiffBytes: 8192 });
		assert.deepEqual(problems.map((problem) => problem.key), ['aside.mentions.maxFolderEntries']);
		assert.match(problems[0]?.message ?? '', /using the default, 200\./);
	});

	it('aside.instructions.files: takes the kinds it names, and names an unknown one as a problem (all kinds read meanwhile)', () => {
		assert.deepEqual(readSettings((key) => (key === 'aside.instructions.files' ? ['CLAUDE.md', '.roo/rules'] : undefined)).settings.instructionFiles, ['CLAUDE.md', '.roo/rules']);
		const { settings, problems } = readSettings((key) => (key === 'aside.instructions.files' ? ['CLAUDE.md', 'GEMINI.md'] : undefined));
		assert.equal(settings.instructionFiles.length, 8);
		assert.equal(problems.length, 1);
		assert.match(problems[0]?.message ?? '', /"aside\.instructions\.files" has an invalid value \["CLAUDE\.md","GEMINI\.md"\] \(Invalid option.*\); using the default/);
	});

	it('takes an http(s) base URL or nothing, and names anything else', () => {
		for (const good of ['', 'http://localhost:11434/v1', 'https://models.example.test/api']) {
			assert.deepEqual(readSettings((key) => (key === 'aside.baseUrl' ? good : undefined)).problems, [], good);
		}
		for (const bad of ['localhost:11434', 'ftp://host/x', 'http://', 'http://a b', 42]) {
			const { settings, problems } = readSettings((key) => (key === 'aside.baseUrl' ? bad : undefined));
			assert.equal(settings.baseUrl, '');
			assert.match(problems[0]?.message ?? '', /"aside\.baseUrl" has an invalid value/, String(bad));
		}
	});

	it('refuses a base URL with a user name or password, and never repeats them', () => {
		for (const bad of ['http://gateway-user:hunter2-pass@localhost:11434/v1', 'https://gateway-user@models.example.test/api', 'https://:hunter2-pass@models.example.test']) {
			const { settings, problems } = readSettings((key) => (key === 'aside.baseUrl' ? bad : undefined));
			assert.equal(settings.baseUrl, '', bad);
			assert.match(problems[0]?.message ?? '', /"aside\.baseUrl" .*user name or password/, bad);
			assert.ok(!/hunter2-pass|gateway-user/.test(problems[0]?.message ?? ''), problems[0]?.message);
		}
	});

	it('a permission rule that does not parse is named, with why; the other rules still apply', () => {
		const value = { allow: ['Run(npm test*)', 'Run(npm test'], deny: ['Edit(**/*.lock)', 'Frobnicate(x)'] };
		const { settings, problems } = readSettings((key) => (key === 'aside.permissions.rules' ? value : undefined));
		assert.deepEqual(settings.permissionRules, value, 'nothing of the setting is lost');
		assert.deepEqual(problems.map((problem) => problem.key), ['aside.permissions.rules', 'aside.permissions.rules']);
		assert.equal(problems[0]?.message, 'The setting "aside.permissions.rules" has a bad rule in "allow": "Run(npm test" (the pattern has no closing ")"); that rule is ignored, the others apply.');
		assert.match(problems[1]?.message ?? '', /^The setting "aside\.permissions\.rules" has a bad rule in "deny": "Frobnicate\(x\)" \(there is no tool named "Frobnicate"/);
		const notAnObject = readSettings((key) => (key === 'aside.permissions.rules' ? ['Run(ls)'] : undefined));
		assert.deepEqual(notAnObject.settings.permissionRules, SETTINGS.permissionRules.default);
		assert.match(notAnObject.problems[0]?.message ?? '', /^The setting "aside\.permissions\.rules" has an invalid value \["Run\(ls\)"\]/);
	});

	it('aside.tools.edit: any of Edit, Write and ApplyPatch, each once; anything else names the setting and offers all three', () => {
		assert.deepEqual(readSettings((key) => (key === 'aside.tools.edit' ? ['ApplyPatch'] : undefined)).settings.editTools, ['ApplyPatch']);
		assert.deepEqual(readSettings((key) => (key === 'aside.tools.edit' ? [] : undefined)).settings.editTools, []);
		for (const bad of [['Edit', 'Edit'], ['Patch'], 'Edit', [1]]) {
			const { settings, problems } = readSettings((key) => (key === 'aside.tools.edit' ? bad : undefined));
			assert.deepEqual(settings.editTools, ['Edit', 'Write', 'ApplyPatch'], JSON.stringify(bad));
			assert.match(problems[0]?.message ?? '', /"aside\.tools\.edit" has an invalid value .*; using the default, \["Edit","Write","ApplyPatch"\]\./, JSON.stringify(bad));
		}
	});

	it('rejects out-of-range and fractional numbers', () => {
		for (const bad of [999, 1_000_001, 1500.5, -1, Number.NaN]) {
			const { problems } = readSettings((key) => (key === 'aside.chat.maxMessageLength' ? bad : undefined));
			assert.equal(problems.length, 1, String(bad));
		}
	});
});

describe('reminder settings', () => {
	it('every configurable built-in reminder has an enabled setting, and an interval setting when it has an interval', () => {
		for (const type of BUILTIN_REMINDER_TYPES) {
			const enabled = contributed[`aside.reminders.${type.type}.enabled`];
			const interval = contributed[`aside.reminders.${type.type}.interval`];
			if (!type.configurable) {
				assert.equal(enabled, undefined, `${type.type} carries the user's own words and cannot be turned off`);
				continue;
			}
			assert.equal(enabled?.default, true, type.type);
			assert.ok(enabled.markdownDescription?.startsWith(type.description), `${type.type}: the setting describes the reminder as the catalog does`);
			assert.ok((enabled.markdownDescription ?? '').includes(`\`${type.key}\``), `${type.type}: the setting names its wire key`);
			assert.equal(interval?.default, type.interval, type.type);
		}
	});

	it('turns types off and overrides intervals through the engine\'s interface, read afresh each time', () => {
		const values: Record<string, unknown> = { 'aside.reminders.agentNudge.enabled': false, 'aside.reminders.contextUsage.interval': 3 };
		let current = readSettings((key) => values[key]).settings;
		const config = reminderConfigOf(() => current);
		assert.equal(config.isEnabled('agentNudge'), false);
		assert.equal(config.isEnabled('contextUsage'), true);
		assert.equal(config.isEnabled('userSteering'), true);
		assert.equal(config.intervalOf('contextUsage'), 3);
		assert.equal(config.intervalOf('agentNudge'), undefined);
		values['aside.reminders.agentNudge.enabled'] = true;
		current = readSettings((key) => values[key]).settings;
		assert.equal(config.isEnabled('agentNudge'), true);
	});

	it('the reminders that carry the user\'s authority cannot be turned off by any setting: the model always learns a call was refused', () => {
		for (const type of ['permissionVerdict', 'userSteering', 'hookOutcome']) {
			assert.equal(BUILTIN_REMINDER_TYPES.find((candidate) => candidate.type === type)?.configurable, false, type);
			const { settings } = readSettings((key) => (key === `aside.reminders.${type}.enabled` ? false : undefined));
			assert.equal(reminderConfigOf(() => settings).isEnabled(type), true, `${type} stays on with aside.reminders.${type}.enabled: false`);
		}
	});

	it('a bad reminder value names the setting and falls back to its default', () => {
		for (const [key, bad] of [
			['aside.reminders.contextUsage.interval', 0],
			['aside.reminders.contextUsage.interval', 2.5],
			['aside.reminders.contextUsage.interval', '10'],
			['aside.reminders.contextUsage.interval', 5000],
			['aside.reminders.sessionResume.enabled', 'no'],
		] as const) {
			const { settings, problems } = readSettings((k) => (k === key ? bad : undefined));
			assert.equal(problems.length, 1, `${key} = ${String(bad)}`);
			assert.equal(problems[0]?.key, key);
			assert.match(problems[0].message, new RegExp(`"${key.replaceAll('.', '\\.')}" has an invalid value .*; using the default, (10|true)\\.`));
			assert.deepEqual(settings.reminders, { disabled: [], intervals: { contextUsage: 10, editsVerify: 10, tasksNudge: 8, sessionFork: 20 } });
		}
	});
});
