// The reserved-key registry: every key Aside puts on the wire, once, with its label, its purpose
// and the version that introduced it. The built-in keys are the declarations of the built-in
// types (builtin/catalog.ts); docs/reminder-keys.md shows the same table (keys.spec.ts keeps them
// equal); contributed reminders add theirs at run time.
import { addReminderTypes, BUILTIN_REMINDER_TYPES } from './builtin/catalog';
import type { ReminderDeclaration, ReservedKey } from './declaration';

export type { ReservedKey } from './declaration';
import { isValidReminderKey } from './envelope';


/**
 * The built-in keys: the declarations of the built-in types, in the order docs/reminder-keys.md shows
 * (the chat features' once the feature list registered them).
 */
export const RESERVED_KEYS: readonly ReservedKey[] = BUILTIN_REMINDER_TYPES;

/** Which keys may be put on the wire. The built-in registry, or one extended for contributed keys. */
export class KeyRegistry {
	private readonly byKey = new Map<string, ReservedKey>();

	constructor(entries: Iterable<ReservedKey>) {
		for (const entry of entries) {
			if (!isValidReminderKey(entry.key)) {
				throw new Error(`Cannot register reminder key ${JSON.stringify(entry.key)}: keys must match [A-Za-z0-9._-]+.`);
			}
			if (this.byKey.has(entry.key)) {
				throw new Error(`The reminder key "${entry.key}" is registered twice.`);
			}
			this.byKey.set(entry.key, entry);
		}
	}

	has(key: string): boolean {
		return this.byKey.has(key);
	}

	get(key: string): ReservedKey | undefined {
		return this.byKey.get(key);
	}

	/** Throws a message naming the key when it is not registered. */
	require(key: string): ReservedKey {
		const entry = this.byKey.get(key);
		if (!entry) {
			throw new Error(`The reminder key "${key}" is not registered; declare its type in src/reminders/builtin/catalog.ts and add it to docs/reminder-keys.md.`);
		}
		return entry;
	}

	/** Registers one more key (a reminder contributed by another extension). Throws for a duplicate. */
	add(entry: ReservedKey): void {
		if (!isValidReminderKey(entry.key)) {
			throw new Error(`Cannot register reminder key ${JSON.stringify(entry.key)}: keys must match [A-Za-z0-9._-]+.`);
		}
		if (this.byKey.has(entry.key)) {
			throw new Error(`The reminder key "${entry.key}" is already registered.`);
		}
		this.byKey.set(entry.key, entry);
	}

	remove(key: string): void {
		this.byKey.delete(key);
	}

	/** A registry with these entries added (for contributed reminders and tests). */
	with(entries: Iterable<ReservedKey>): KeyRegistry {
		return new KeyRegistry([...this.byKey.values(), ...entries]);
	}

	entries(): readonly ReservedKey[] {
		return [...this.byKey.values()];
	}
}

export const BUILTIN_KEYS = new KeyRegistry(RESERVED_KEYS);

/** The chat features' reminder types (the feature list registers them as it loads): built-in from then on, keys and settings included. */
export function registerReminderTypes(declarations: readonly ReminderDeclaration[]): void {
	addReminderTypes(declarations);
	for (const declaration of declarations) {
		BUILTIN_KEYS.add(declaration);
	}
}
