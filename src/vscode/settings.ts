// Every Aside setting, defined once: key, zod schema, default. `package.json`
// `contributes.configuration` must say the same (settings.spec.ts holds them equal). Reading
// them from VS Code happens in configuration.ts; this module stays pure so Node tests can load it.
import * as z from 'zod';
import { SendShortcut, type ViewSettings } from '../protocol/messages';

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
} as const;

type Definitions = typeof SETTINGS;
export type AsideSettings = { readonly [K in keyof Definitions]: Definitions[K]['default'] };
export type SettingName = keyof Definitions;

export interface SettingProblem {
	readonly key: string;
	/** One sentence naming the setting, what is wrong, and the value used instead. */
	readonly message: string;
}

function describeValue(value: unknown): string {
	// JSON.stringify gives undefined for undefined and functions, whatever its declared type says.
	const json = JSON.stringify(value) as string | undefined;
	const text = json ?? String(value);
	return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/**
 * Reads every setting through `get` (VS Code's merged value, or undefined when unset). A bad
 * value never throws: it falls back to the default and comes back as a problem to show.
 */
export function readSettings(get: (key: string) => unknown): { settings: AsideSettings; problems: SettingProblem[] } {
	const problems: SettingProblem[] = [];
	const settings: Record<string, unknown> = {};
	for (const [name, definition] of Object.entries(SETTINGS) as [SettingName, SettingDefinition<unknown>][]) {
		const raw = get(definition.key);
		if (raw === undefined) {
			settings[name] = definition.default;
			continue;
		}
		const parsed = definition.schema.safeParse(raw);
		if (parsed.success) {
			settings[name] = parsed.data;
		} else {
			settings[name] = definition.default;
			const reason = parsed.error.issues[0]?.message ?? 'invalid value';
			problems.push({
				key: definition.key,
				message: `The setting "${definition.key}" has an invalid value ${describeValue(raw)} (${reason}); using the default, ${describeValue(definition.default)}.`,
			});
		}
	}
	return { settings: settings as AsideSettings, problems };
}

export function viewSettingsOf(settings: AsideSettings): ViewSettings {
	return { sendShortcut: settings.sendShortcut, maxMessageLength: settings.maxMessageLength };
}
