// One declaration per reminder type: everything Aside says about a kind of reminder outside its
// own code — its wire key and chat label, what it is for and since when, whether the person may
// turn it off, how it fires by default, and the sentence the settings UI shows. The key registry,
// the `aside.reminders.*` settings and the docs/reminder-keys.md check are all derived from the
// list of declarations (builtin/catalog.ts), so a new reminder is declared once.
import type { ReminderDefinition } from './definition';
import type { FiringPolicy } from './policy';

/** A key Aside puts on the wire (the registry of them: keys.ts). */
export interface ReservedKey {
	readonly key: string;
	/** The short text the chat shows for it, e.g. "edited files". */
	readonly label: string;
	readonly purpose: string;
	readonly introducedIn: string;
}

export interface ReminderDeclaration extends ReservedKey {
	/** Stable id, e.g. `editedFiles`: records carry it, settings use it (`aside.reminders.<type>.*`). */
	readonly type: string;
	/**
	 * Gives it an `aside.reminders.<type>.enabled` setting. False only for types that carry the
	 * user's own words or decisions (they are always delivered), and for notices riding a tool
	 * result, which are not deliveries.
	 */
	readonly configurable: boolean;
	/**
	 * How its roster reminder fires unless the person says otherwise; none for types delivered as
	 * turn events, staged entries or pending items only. An interval policy on a configurable type
	 * gives it an `aside.reminders.<type>.interval` setting with the policy's turns as default.
	 */
	readonly policy?: FiringPolicy;
	/** One sentence for the settings UI (the setting's description starts with it). */
	readonly description: string;
	/** The turns of an interval policy, read off `policy` by `declareReminder` (never written). */
	readonly interval?: number;
}

/** The fields every entry of a declared type carries: its type, key and label. */
export interface DeclaredEntry {
	readonly type: string;
	readonly key: string;
	readonly label: string;
}

export function entryOf(declaration: ReminderDeclaration): DeclaredEntry {
	return { type: declaration.type, key: declaration.key, label: declaration.label };
}

/** A declaration, with what follows from it filled in (the default interval of an interval policy). */
export function declareReminder(declaration: Omit<ReminderDeclaration, 'interval'>): ReminderDeclaration {
	const { policy } = declaration;
	return policy?.kind === 'interval' ? { ...declaration, interval: policy.turns } : declaration;
}

/**
 * A roster definition of a declared type: type, key, label and policy come from the declaration,
 * the rest (scope, trigger, content) from the reminder's own file. Throws for a declaration that
 * says no policy: such a type is not a roster reminder.
 */
export function rosterDefinition(declaration: ReminderDeclaration, parts: Pick<ReminderDefinition, 'scope' | 'trigger' | 'content'>): ReminderDefinition {
	const { policy } = declaration;
	if (policy === undefined) {
		throw new Error(`The reminder type "${declaration.type}" declares no firing policy, so it cannot be a roster reminder; give its declaration one.`);
	}
	return { ...entryOf(declaration), policy, ...parts };
}
