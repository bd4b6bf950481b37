// The workspace's reminders as the sessions install them: the valid files' definitions, their keys
// in the window's key registry, kept in step with the files (docs/workspace-reminders.md, "Trust
// and settings"). `update` takes every file as now parsed, in folder order; a file with errors, a
// key a reserved (or another extension's) key already holds, or a key an earlier file (or folder)
// took is not registered, and says why in `problems`. A reminder whose file changed keeps its
// definition, and so its firing state in every roster, unless its policy or label changed (a new
// definition then, fresh state); one whose file is gone leaves the rosters at the next `sync`.
import type { Clock } from '../base/clock';
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { ReminderDefinition } from '../reminders/definition';
import type { KeyRegistry } from '../reminders/keys';
import type { ReminderRoster } from '../reminders/roster';
import type { TurnActivity } from './activity';
import { declarationOf, type Held, wireKeyOf, workspaceDefinition, type WorkspaceReminderSource } from './definitions';
import { type ParsedReminderFile, WORKSPACE_KEY_PREFIX } from './spec';
import { type ReminderVocabulary, vocabularyOf } from './vocabulary';

/** One `.aside/reminders/*.md` file as parsed: its folder (absolute), its path there, what parsing gave. */
export interface LoadedReminderFile {
	readonly folder: string;
	readonly file: string;
	readonly parsed: ParsedReminderFile;
}

/** Why a file is not registered, in words (the language server shows the details on the file). */
export interface UnregisteredFile {
	readonly folder: string;
	readonly file: string;
	readonly message: string;
}

interface Entry {
	readonly held: Held;
	readonly definition: ReminderDefinition;
}

export interface WorkspaceRemindersOptions {
	readonly keys: KeyRegistry;
	readonly activity: TurnActivity;
	readonly clock: Clock;
	/** Read at every WAIT: trust and `aside.reminders.workspace.enabled` (`all`), a key's own `enabled` (`key`, the file's key without the prefix). */
	readonly enabled: (key: string) => boolean;
}

export class WorkspaceReminders extends Disposable {
	private readonly entries = new Map<string, Entry>();
	private _problems: readonly UnregisteredFile[] = [];
	private readonly _onDidChange = this._register(new Emitter<void>());
	/** The set of definitions changed (one added, replaced or gone): rosters want a `sync`. */
	readonly onDidChange: Event<void> = this._onDidChange.event;

	constructor(private readonly options: WorkspaceRemindersOptions) {
		super();
	}

	/** The definitions each new session installs, as of now. */
	get current(): readonly ReminderDefinition[] {
		return [...this.entries.values()].map((entry) => entry.definition);
	}

	/**
	 * What the parser checks a file against: the keys taken by Aside and other extensions (not
	 * those of workspace reminders, whose clashes are the folders' own), Aside's tools and modes.
	 */
	vocabulary(): ReminderVocabulary {
		return vocabularyOf(this.options.keys.entries().map((entry) => entry.key));
	}

	/** The files the last `update` did not register, and why. */
	get problems(): readonly UnregisteredFile[] {
		return this._problems;
	}

	/** Takes the workspace's files as they are now (an untrusted or disabled workspace: none). */
	update(files: readonly LoadedReminderFile[]): void {
		const { keys } = this.options;
		const problems: UnregisteredFile[] = [];
		const taken = new Map<string, LoadedReminderFile>();
		const next = new Map<string, WorkspaceReminderSource>();
		for (const loaded of files) {
			const { spec, problems: found } = loaded.parsed;
			if (!spec) {
				const errors = found.filter((problem) => problem.severity === 'error').length;
				problems.push({ ...where(loaded), message: `${loaded.file} has ${errors === 1 ? 'an error' : `${errors} errors`} and is not used (open it to see ${errors === 1 ? 'it' : 'them'}).` });
				continue;
			}
			const key = wireKeyOf(spec);
			const earlier = taken.get(key);
			if (earlier) {
				problems.push({ ...where(loaded), message: `${loaded.file} in ${loaded.folder} is not used: the key "${spec.key}" is already used by ${earlier.file} in ${earlier.folder}.` });
				continue;
			}
			if (keys.has(key) && !this.entries.has(key)) {
				problems.push({ ...where(loaded), message: `${loaded.file} is not used: the key "${key}" is reserved by Aside or another extension; choose another key.` });
				continue;
			}
			taken.set(key, loaded);
			next.set(key, { spec, folder: loaded.folder, file: loaded.file });
		}
		let changed = false;
		for (const key of [...this.entries.keys()]) {
			if (!next.has(key)) {
				this.entries.delete(key);
				keys.remove(key);
				changed = true;
			}
		}
		for (const [key, source] of next) {
			const entry = this.entries.get(key);
			if (entry && samePolicyAndLabel(entry.held.source, source)) {
				entry.held.source = source;
				continue;
			}
			if (entry) {
				keys.remove(key);
			}
			const held: Held = { source, enabled: () => this.options.enabled(source.spec.key) };
			keys.add(declarationOf(source));
			this.entries.set(key, { held, definition: workspaceDefinition(held, this.options.activity, this.options.clock) });
			changed = true;
		}
		this._problems = problems;
		if (changed) {
			this._onDidChange.fire();
		}
	}

	/**
	 * Brings a roster in step: workspace reminders gone or replaced leave it, new ones join (their
	 * records stay in the chat's history as sent).
	 */
	sync(roster: ReminderRoster): void {
		for (const type of roster.types()) {
			if (type.startsWith(WORKSPACE_KEY_PREFIX) && roster.definitionOf(type) !== this.entries.get(type)?.definition) {
				roster.unregister(type);
			}
		}
		roster.installDefaults(this.current);
	}
}

function where(loaded: LoadedReminderFile): { readonly folder: string; readonly file: string } {
	return { folder: loaded.folder, file: loaded.file };
}

function samePolicyAndLabel(a: WorkspaceReminderSource, b: WorkspaceReminderSource): boolean {
	return a.spec.label === b.spec.label && JSON.stringify(a.spec.policy) === JSON.stringify(b.spec.policy);
}
