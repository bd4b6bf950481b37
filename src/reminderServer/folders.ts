// The server's view of the reminder folders: each file's text from its open editor when there is
// one, from disk otherwise, parsed together so collisions show on every file of the folder.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnalyzedReminderFile } from '../workspaceReminders/reminderFile';
import { parseReminderFile } from '../workspaceReminders/reminderFile';
import { withCollisions } from '../workspaceReminders/reminderFolder';
import type { ReminderVocabulary } from '../workspaceReminders/vocabulary';

/** `<folder>/.aside/reminders/<name>.md`, with either separator. */
const REMINDER_FILE = /[\\/]\.aside[\\/]reminders[\\/][^\\/]+\.md$/;

export function reminderPathOf(uri: string): string | undefined {
	if (!uri.startsWith('file:')) {
		return undefined;
	}
	try {
		const path = fileURLToPath(uri);
		return REMINDER_FILE.test(path) ? path : undefined;
	} catch {
		return undefined;
	}
}

export interface FolderFile {
	readonly path: string;
	/** The open editor's URI, or one made from the path for a file only on disk. */
	readonly uri: string;
	readonly parsed: AnalyzedReminderFile;
}

/** Each file's last parse, by path: a keystroke in one file re-parses that one only (the folder's collisions are cheap). */
export class ParseCache {
	private readonly entries = new Map<string, { readonly text: string; readonly vocabulary: ReminderVocabulary; readonly parsed: AnalyzedReminderFile }>();

	parse(path: string, text: string, vocabulary: ReminderVocabulary): AnalyzedReminderFile {
		const cached = this.entries.get(path);
		if (cached && cached.text === text && cached.vocabulary === vocabulary) {
			return cached.parsed;
		}
		const parsed = parseReminderFile(text, vocabulary);
		this.entries.set(path, { text, vocabulary, parsed });
		return parsed;
	}

	/** Forgets the files of `folder` not in `kept`. */
	prune(folder: string, kept: ReadonlySet<string>): void {
		for (const path of this.entries.keys()) {
			if (dirname(path) === folder && !kept.has(path)) {
				this.entries.delete(path);
			}
		}
	}
}

/** The folder's `.md` files (sorted), each from `open` when the editor has it. A file that cannot be read is left out. */
export function analyzeFolder(
	folder: string,
	open: ReadonlyMap<string, { readonly uri: string; readonly text: string }>,
	vocabulary: ReminderVocabulary,
	cache = new ParseCache(),
): FolderFile[] {
	const paths = new Set<string>();
	try {
		for (const name of readdirSync(folder)) {
			if (name.endsWith('.md')) {
				paths.add(join(folder, name));
			}
		}
	} catch {
		// The folder is gone (deleted, renamed): only the open editors are left.
	}
	for (const path of open.keys()) {
		if (dirname(path) === folder) {
			paths.add(path);
		}
	}
	const files: { path: string; uri: string; text: string }[] = [];
	for (const path of [...paths].sort()) {
		const editor = open.get(path);
		if (editor) {
			files.push({ path, uri: editor.uri, text: editor.text });
			continue;
		}
		try {
			files.push({ path, uri: pathToFileURL(path).href, text: readFileSync(path, 'utf8') });
		} catch {
			// Deleted between the listing and the read.
		}
	}
	cache.prune(folder, new Set(files.map((file) => file.path)));
	const entries = withCollisions(files.map((file) => ({ name: basename(file.path), parsed: cache.parse(file.path, file.text, vocabulary) })));
	return files.map((file, index) => ({ path: file.path, uri: file.uri, parsed: entries[index]?.parsed ?? { problems: [] } }));
}
