// Every Aside setting, defined once: key, zod schema, default. `package.json`
// `contributes.configuration` must say the same (settings.spec.ts holds them equal). Reading
// them from VS Code happens in configuration.ts; this module stays pure so Node tests can load it.
import * as z from 'zod';
import { PERMISSION_MODES } from '../vocabulary/permissionModes';
import { parsePermissionRules, PermissionRulesSetting } from '../agent/permissions/rules';
import { SendShortcut, type ViewSettings } from '../protocol/messages';
import { PROVIDER_IDS } from '../providers/provider';
import { redactText } from '../providers/redact';
import type { ReminderConfig } from '../reminders/config';
import { EDIT_TOOL_NAMES, type EditToolName } from '../tools/toolFacts';
import { INSTRUCTION_KINDS, type InstructionKind } from '../observe/instructionSources';
import { DEFAULT_INSTRUCTION_BOUND } from '../observe/instructionBound';
import { BUILTIN_REMINDER_TYPES } from '../reminders/builtin/catalog';
import { DEFAULT_MENTION_LIMITS, type MentionLimits } from '../mentions/limits';

interface SettingDefinition<T> {
	readonly key: string;
	readonly schema: z.ZodType<T>;
	readonly default: T;
}

function define<T>(key: string, schema: z.ZodType<T>, defaultValue: T): SettingDefinition<T> {
	return { key, schema, default: defaultValue };
}

export const SETTINGS = {
	sendShortcut: define('aside.chat.sendShortcut', SendShortcut, 'enter'),
	maxMessageLength: define('aside.chat.maxMessageLength', z.number().int().min(1000).max(1_000_000), 100_000),
	provider: define('aside.provider', z.enum(PROVIDER_IDS), 'vscode-lm'),
	model: define('aside.model', z.string().max(200), ''),
	baseUrl: define(
		'aside.baseUrl',
		z
			.string()
			.refine((value) => value === '' || (/^https?:\/\/\S+$/.test(value) && URL.canParse(value)), 'expected an http:// or https:// URL, or nothing')
			// Credentials in the URL would go out with every request and show in every network error.
			.refine((value) => !/^https?:\/\/[^/?#]*@/i.test(value), 'a user name or password is not allowed in the URL: store the key with "Aside: Set API Key"'),
		'',
	),
	maxOutputTokens: define('aside.maxOutputTokens', z.number().int().min(256).max(200_000), 8192),
	contextWindow: define('aside.contextWindow', z.number().int().min(0).max(100_000_000), 0),
	requestTimeoutSeconds: define('aside.requestTimeoutSeconds', z.number().int().min(10).max(3600), 120),
	editTools: define<readonly EditToolName[]>(
		'aside.tools.edit',
		z.array(z.enum(EDIT_TOOL_NAMES)).refine((names) => new Set(names).size === names.length, 'each tool at most once'),
		EDIT_TOOL_NAMES,
	),
	permissionMode: define('aside.permissions.mode', z.enum(PERMISSION_MODES), 'ask'),
	// An object here; each rule in it is checked on its own below (a bad one is dropped, named).
	// The three lists, empty: the Settings UI shows them as the setting's rows, and settings.json starts from them.
	permissionRules: define<PermissionRulesSetting>('aside.permissions.rules', PermissionRulesSetting, { allow: [], ask: [], deny: [] }),
	maxSteps: define('aside.agent.maxSteps', z.number().int().min(1).max(500), 50),
	planReferenceMaxChars: define('aside.plan.referenceMaxChars', z.number().int().min(200).max(100_000), 4000),
	editedMaxFileBytes: define('aside.editedFiles.maxFileBytes', z.number().int().min(1024).max(64 * 1024 * 1024), 1024 * 1024),
	editedMaxCacheBytes: define('aside.editedFiles.maxCacheBytes', z.number().int().min(1024 * 1024).max(1024 * 1024 * 1024), 16 * 1024 * 1024),
	editedMaxDiffLines: define('aside.editedFiles.maxDiffLines', z.number().int().min(10).max(5000), 200),
	diagnosticsTimeoutMs: define('aside.diagnostics.timeoutMs', z.number().int().min(1000).max(120_000), 30_000),
	diagnosticsMaxPerFile: define('aside.diagnostics.maxPerFile', z.number().int().min(1).max(100), 10),
	diagnosticsMaxTotal: define('aside.diagnostics.maxTotal', z.number().int().min(1).max(500), 30),
	diagnosticsOpenEditedFiles: define('aside.diagnostics.openEditedFiles', z.boolean(), true),
	editedMaxDiffBytes: define('aside.editedFiles.maxDiffBytes', z.number().int().min(1024).max(16 * 1024 * 1024), 256 * 1024),
	runTerminal: define<'visible' | 'hidden' | 'off'>('aside.run.terminal', z.enum(['visible', 'hidden', 'off']), 'visible'),
	runShellIntegrationTimeoutMs: define('aside.run.shellIntegrationTimeoutMs', z.number().int().min(500).max(60_000), 5000),
	runWakeOnExit: define('aside.run.wakeOnExit', z.boolean(), false),
	agentsMaxSteps: define('aside.agents.maxSteps', z.number().int().min(1).max(500), 30),
	agentsMaxConcurrent: define('aside.agents.maxConcurrent', z.number().int().min(1).max(16), 3),
	agentsMaxTurnsWarningAt: define('aside.agents.maxTurnsWarningAt', z.number().min(0.1).max(1), 0.8),
	autoCompact: define('aside.context.autoCompact', z.boolean(), true),
	autoCompactAt: define('aside.context.autoCompactAt', z.number().min(0.2).max(0.98), 0.8),
	warnAt: define('aside.context.warnAt', z.number().min(0.1).max(0.98), 0.6),
	// Read by src/vscode/hooks.ts from the user settings alone, and checked there entry by entry (src/hooks/config.ts).
	hooks: define<Record<string, unknown>>('aside.hooks', z.record(z.string(), z.unknown()), {}),
	// Read by src/vscode/mcp/ from the user settings alone, and checked there server by server (src/mcp/serverConfig.ts).
	mcpServers: define<Record<string, unknown>>('aside.mcp.servers', z.record(z.string(), z.unknown()), {}),
	mcpStartupTimeoutMs: define('aside.mcp.startupTimeoutMs', z.number().int().min(1000).max(600_000), 30_000),
	mcpRequestTimeoutMs: define('aside.mcp.requestTimeoutMs', z.number().int().min(1000).max(3_600_000), 120_000),
	mcpDeferAt: define<number | string>('aside.mcp.deferAt', z.union([z.number().int().min(0).max(10_000_000), z.string().regex(/^\s*\d+(\.\d+)?\s*%\s*$/)]), '10%'),
	mcpSampling: define<'ask' | 'off' | 'allow'>('aside.mcp.sampling', z.enum(['ask', 'off', 'allow']), 'ask'),
	instructionFiles: define<readonly InstructionKind[]>(
		'aside.instructions.files',
		z.array(z.enum(INSTRUCTION_KINDS)).refine((names) => new Set(names).size === names.length, 'each kind at most once'),
		INSTRUCTION_KINDS,
	),
	// The total bound on the root instruction files (src/observe/instructionBound.ts).
	instructionsMaxFiles: define('aside.instructions.maxFiles', z.number().int().min(1).max(1000), DEFAULT_INSTRUCTION_BOUND.maxFiles),
	instructionsMaxTotalBytes: define('aside.instructions.maxTotalBytes', z.number().int().min(1024).max(16 * 1024 * 1024), DEFAULT_INSTRUCTION_BOUND.maxTotalBytes),
	// The workspace's `.aside/reminders/*.md` (docs/workspace-reminders.md): all of them, then each by its key.
	workspaceReminders: define('aside.reminders.workspace.enabled', z.boolean(), true),
	workspaceReminderSettings: define<Readonly<Record<string, { readonly enabled?: boolean }>>>('aside.reminders.workspace.reminders', z.record(z.string(), z.object({ enabled: z.boolean().optional() })), {}),
	// Other extensions' reminders (src/api.ts), by wire key: package.json cannot list keys registered at run time.
	contributedReminders: define<Readonly<Record<string, boolean>>>('aside.reminders.contributed', z.record(z.string(), z.boolean()), {}),
	// The bounds of @-mentions (src/mentions/limits.ts, DEFAULT_MENTION_LIMITS), read at each send.
	mentionsMaxFileBytes: define('aside.mentions.maxFileBytes', z.number().int().min(1024).max(64 * 1024 * 1024), DEFAULT_MENTION_LIMITS.maxFileBytes),
	mentionsMaxLines: define('aside.mentions.maxLines', z.number().int().min(10).max(20_000), DEFAULT_MENTION_LIMITS.maxLines),
	mentionsMaxBytes: define('aside.mentions.maxBytes', z.number().int().min(1024).max(1024 * 1024), DEFAULT_MENTION_LIMITS.maxBytes),
	mentionsMaxFolderEntries: define('aside.mentions.maxFolderEntries', z.number().int().min(10).max(5000), DEFAULT_MENTION_LIMITS.maxFolderEntries),
	mentionsMaxProblems: define('aside.mentions.maxProblems', z.number().int().min(1).max(1000), DEFAULT_MENTION_LIMITS.maxProblems),
	mentionsMaxDiffBytes: define('aside.mentions.maxDiffBytes', z.number().int().min(1024).max(4 * 1024 * 1024), DEFAULT_MENTION_LIMITS.maxDiffBytes),
	// The checkpoint store's bound (src/checkpoints/bound.ts), read at each pass.
	checkpointsMaxBytes: define('aside.checkpoints.maxBytes', z.number().int().min(16 * 1024 * 1024).max(64 * 1024 * 1024 * 1024), 512 * 1024 * 1024),
} as const;

/** The @-mention bounds the settings say now. */
export function mentionLimitsOf(settings: AsideSettings): MentionLimits {
	return {
		maxFileBytes: settings.mentionsMaxFileBytes,
		maxLines: settings.mentionsMaxLines,
		maxBytes: settings.mentionsMaxBytes,
		maxFolderEntries: settings.mentionsMaxFolderEntries,
		maxProblems: settings.mentionsMaxProblems,
		maxDiffBytes: settings.mentionsMaxDiffBytes,
	};
}

/** An interval in turns: whole, at least 1, at most 1000. */
const Interval = z.number().int().min(1).max(1000);

interface ReminderSettingDefinition extends SettingDefinition<boolean | number> {
	readonly type: string;
	readonly field: 'enabled' | 'interval';
}

/**
 * `aside.reminders.<type>.enabled` for every configurable built-in reminder, and `.interval` for
 * those whose declared policy is an interval (its turns the default): generated from the
 * declarations (src/reminders/builtin/catalog.ts), so a new reminder cannot forget them.
 */
export function reminderSettings(): readonly ReminderSettingDefinition[] {
	// Made when first asked after a registration: the chat features' types are registered as the feature list loads.
	if (made?.count !== BUILTIN_REMINDER_TYPES.length) {
		made = {
			count: BUILTIN_REMINDER_TYPES.length,
			settings: BUILTIN_REMINDER_TYPES.filter((type) => type.configurable).flatMap((type) => [
				{ type: type.type, field: 'enabled' as const, ...define<boolean | number>(`aside.reminders.${type.type}.enabled`, z.boolean(), true) },
				...(type.interval === undefined ? [] : [{ type: type.type, field: 'interval' as const, ...define<boolean | number>(`aside.reminders.${type.type}.interval`, Interval, type.interval) }]),
			]),
		};
	}
	return made.settings;
}
let made: { readonly count: number; readonly settings: readonly ReminderSettingDefinition[] } | undefined;

export interface ReminderSettings {
	/** Types turned off (absent means on). */
	readonly disabled: readonly string[];
	/** Interval overrides by type, for every type that has an interval setting. */
	readonly intervals: Readonly<Record<string, number>>;
}

type Definitions = typeof SETTINGS;
export type AsideSettings = { readonly [K in keyof Definitions]: Definitions[K]['default'] } & { readonly reminders: ReminderSettings };
export type SettingName = keyof Definitions;

export interface SettingProblem {
	readonly key: string;
	/** One sentence naming the setting, what is wrong, and the value used instead. */
	readonly message: string;
}

function describeValue(value: unknown): string {
	// JSON.stringify gives undefined for undefined and functions, whatever its declared type says.
	const json = JSON.stringify(value) as string | undefined;
	const text = redactText(json ?? String(value), []);
	return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/**
 * Reads every setting through `get` (VS Code's merged value, or undefined when unset). A bad
 * value never throws: it falls back to the default and comes back as a problem to show.
 */
export function readSettings(get: (key: string) => unknown): { settings: AsideSettings; problems: SettingProblem[] } {
	const problems: SettingProblem[] = [];
	const read = <T>(definition: SettingDefinition<T>): T => {
		const raw = get(definition.key);
		if (raw === undefined) {
			return definition.default;
		}
		const parsed = definition.schema.safeParse(raw);
		if (parsed.success) {
			return parsed.data;
		}
		const reason = parsed.error.issues[0]?.message ?? 'invalid value';
		problems.push({
			key: definition.key,
			message: `The setting "${definition.key}" has an invalid value ${describeValue(raw)} (${reason}); using the default, ${describeValue(definition.default)}.`,
		});
		return definition.default;
	};
	const settings: Record<string, unknown> = {};
	for (const [name, definition] of Object.entries(SETTINGS) as [SettingName, SettingDefinition<unknown>][]) {
		settings[name] = read(definition);
	}
	const disabled: string[] = [];
	const intervals: Record<string, number> = {};
	for (const definition of reminderSettings()) {
		const value = read(definition);
		if (definition.field === 'enabled' && value === false) {
			disabled.push(definition.type);
		} else if (definition.field === 'interval' && typeof value === 'number') {
			intervals[definition.type] = value;
		}
	}
	settings.reminders = { disabled, intervals } satisfies ReminderSettings;
	// Each bad permission rule is named and dropped; the valid ones still apply.
	for (const problem of parsePermissionRules(settings.permissionRules).problems) {
		problems.push({ key: SETTINGS.permissionRules.key, message: `The setting "${SETTINGS.permissionRules.key}" ${problem}.` });
	}
	return { settings: settings as AsideSettings, problems };
}

/** Whether a contributed reminder (by its wire key) may fire now: on unless the setting says `false`. */
export function contributedReminderSwitch(current: () => AsideSettings): (key: string) => boolean {
	return (key) => current().contributedReminders[key] !== false;
}

/** The reminder engine's view of the settings, read afresh at every WAIT. */
export function reminderConfigOf(current: () => AsideSettings): ReminderConfig {
	return {
		isEnabled: (type) => !current().reminders.disabled.includes(type),
		intervalOf: (type) => current().reminders.intervals[type],
	};
}

export function viewSettingsOf(settings: AsideSettings): ViewSettings {
	return { sendShortcut: settings.sendShortcut, maxMessageLength: settings.maxMessageLength };
}
