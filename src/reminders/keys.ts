// The reserved-key registry: every key Aside puts on the wire, once, with its purpose and the
// version that introduced it. docs/reminder-keys.md shows the same table (keys.spec.ts keeps
// them equal). Register a key here before any code uses it.
import { isValidReminderKey } from './envelope';

export interface ReservedKey {
	readonly key: string;
	/** The short text the chat shows for it, e.g. "edited files". */
	readonly label: string;
	readonly purpose: string;
	readonly introducedIn: string;
}

export const RESERVED_KEYS: readonly ReservedKey[] = [
	{
		key: 'steering.user',
		label: 'steering',
		purpose: 'A message the user typed while the agent was working; states that it carries the user\'s authority.',
		introducedIn: '0.1.0',
	},
	{
		key: 'permission.verdict',
		label: 'permission',
		purpose: 'The user\'s grant or denial of a tool call, naming the tool; binding for the next call.',
		introducedIn: '0.1.0',
	},
	{
		key: 'session.resume',
		label: 'session resumed',
		purpose: 'The session was reopened: after a reload or restart, from the chat list, or as a copy of a chat open in another window; says whether the last turn was interrupted.',
		introducedIn: '0.1.0',
	},
	{
		key: 'agent.nudge',
		label: 'nudge',
		purpose: 'The final-step nudge (step limit reached: answer now) and the no-tool nudge (an empty reply).',
		introducedIn: '0.1.0',
	},
	{
		key: 'session.date',
		label: 'date',
		purpose: 'Today\'s date, at the start of a session and whenever it changes.',
		introducedIn: '0.1.0',
	},
	{
		key: 'workspace.instructions',
		label: 'project instructions',
		purpose: 'The AGENTS.md / AGENTS.local.md at the workspace root, when new or changed.',
		introducedIn: '0.1.0',
	},
	{
		key: 'files.edited',
		label: 'edited files',
		purpose: 'Files the agent read or wrote that changed outside Aside\'s tools since, with a bounded diff or their new size.',
		introducedIn: '0.1.0',
	},
	{
		key: 'edit.diagnostics',
		label: 'diagnostics',
		purpose: 'After an edit by Aside\'s tools: the problems it introduced or changed, and those already there as context.',
		introducedIn: '0.1.0',
	},
	{
		key: 'read.truncated',
		label: 'truncated read',
		purpose: 'Rides a Read result that was cut short: which lines were shown and how to read the rest.',
		introducedIn: '0.1.0',
	},
	{
		key: 'read.empty',
		label: 'empty file',
		purpose: 'Rides a Read result of an empty file, so the empty content is not mistaken for a failed read.',
		introducedIn: '0.1.0',
	},
	{
		key: 'context.usage',
		label: 'context use',
		purpose: 'How much of the model\'s context window is in use, once it is at least half full.',
		introducedIn: '0.1.0',
	},
];

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
			throw new Error(`The reminder key "${key}" is not registered; add it to RESERVED_KEYS (src/reminders/keys.ts) and docs/reminder-keys.md.`);
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
