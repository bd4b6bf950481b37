// Reading a workspace's reminder files, and deciding which may fire, without the editor: the
// editor side (src/vscode/workspaceReminders.ts) brings the folders, the file system, trust and
// the settings. docs/workspace-reminders.md, "Trust and settings".
import { join } from 'node:path';
import type { LoadedReminderFile, UnregisteredFile } from './registry';
import type { ParsedReminderFile } from './spec';

/** Where a workspace folder keeps its reminder files. */
export const REMINDERS_DIR = '.aside/reminders';

/** The file system as loading needs it: a folder's file names, a file's text (undefined when gone). */
export interface ReminderFolderReader {
	list(folder: string): readonly string[];
	read(path: string): string | undefined;
}

/** Parses one folder's files together (the parser's `parseReminderFolder`: a key two files share is a problem on both). */
export type FolderParser = (
	files: readonly { readonly name: string; readonly text: string }[],
) => readonly { readonly name: string; readonly parsed: ParsedReminderFile }[];

/** Every `.aside/reminders/*.md` of each folder, in folder order then by name, as parsed. */
export function readReminderFiles(folders: readonly string[], reader: ReminderFolderReader, parse: FolderParser): LoadedReminderFile[] {
	const files: LoadedReminderFile[] = [];
	for (const folder of folders) {
		const texts: { name: string; text: string }[] = [];
		const names = reader
			.list(join(folder, REMINDERS_DIR))
			.filter((name) => name.endsWith('.md'))
			.sort();
		for (const name of names) {
			const text = reader.read(join(folder, REMINDERS_DIR, name));
			if (text !== undefined) {
				texts.push({ name, text });
			}
		}
		for (const { name, parsed } of parse(texts)) {
			files.push({ folder, file: `${REMINDERS_DIR}/${name}`, parsed });
		}
	}
	return files;
}

/** What decides whether a workspace reminder may fire, read at every WAIT. */
export interface ReminderSwitches {
	readonly trusted: boolean;
	/** `aside.reminders.workspace.enabled`. */
	readonly all: boolean;
	/** `aside.reminders.workspace.reminders`, by the file's key. */
	readonly each: Readonly<Record<string, { readonly enabled?: boolean }>>;
}

export function isReminderOn(switches: ReminderSwitches, key: string): boolean {
	return switches.trusted && switches.all && switches.each[key]?.enabled !== false;
}

/**
 * Says each unregistered file once: a message already said is not said again while it stands
 * (a file saved again with the same error), and is said again after it went away and came back.
 */
export class ProblemsOnce {
	private said = new Set<string>();

	/** Of `problems`, those not said yet. */
	fresh(problems: readonly UnregisteredFile[]): readonly UnregisteredFile[] {
		const now = new Set(problems.map((problem) => problem.message));
		const fresh = problems.filter((problem) => !this.said.has(problem.message));
		this.said = now;
		return fresh;
	}
}
