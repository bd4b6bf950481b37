// The reminder files of one `.aside/reminders/` folder together: a key two files declare is a
// problem on each (naming the other), and neither is registered, since the person has to say
// which one they meant. Everything else about a file is its own (reminderFile.ts).
import { parseReminderFile, type AnalyzedReminderFile } from './reminderFile';
import type { ReminderFileProblem } from './spec';
import { BUILTIN_VOCABULARY, type ReminderVocabulary } from './vocabulary';

export interface ReminderFileEntry {
	/** The file's name in the folder (`migrations.md`), as messages name it. */
	readonly name: string;
	readonly parsed: AnalyzedReminderFile;
}

/** The collision problems of each file (by name) whose key another file of the folder also declares. */
export function keyCollisions(files: readonly ReminderFileEntry[]): Map<string, ReminderFileProblem[]> {
	const byKey = new Map<string, ReminderFileEntry[]>();
	for (const file of files) {
		const key = file.parsed.keyField?.key;
		if (key !== undefined) {
			byKey.set(key, [...(byKey.get(key) ?? []), file]);
		}
	}
	const problems = new Map<string, ReminderFileProblem[]>();
	for (const [key, sharing] of byKey) {
		if (sharing.length < 2) {
			continue;
		}
		for (const file of sharing) {
			const others = sharing.filter((other) => other !== file).map((other) => other.name);
			const range = file.parsed.keyField?.range;
			if (range === undefined) {
				continue;
			}
			problems.set(file.name, [
				...(problems.get(file.name) ?? []),
				{ severity: 'error', code: 'key-collision', message: `key: "${key}" is also the key of ${others.join(', ')} in this folder; each reminder needs its own key.`, range },
			]);
		}
	}
	return problems;
}

/** Every file of a folder parsed, its collisions added; a colliding file has no spec. */
export function parseReminderFolder(
	files: readonly { readonly name: string; readonly text: string }[],
	vocabulary: ReminderVocabulary = BUILTIN_VOCABULARY,
): ReminderFileEntry[] {
	return withCollisions(files.map((file) => ({ name: file.name, parsed: parseReminderFile(file.text, vocabulary) })));
}

/** The files with their collisions added (each file parsed already); a colliding file has no spec. */
export function withCollisions(parsed: readonly ReminderFileEntry[]): ReminderFileEntry[] {
	const collisions = keyCollisions(parsed);
	return parsed.map((file) => {
		const extra = collisions.get(file.name);
		if (extra === undefined) {
			return file;
		}
		const { keyField } = file.parsed;
		return { name: file.name, parsed: { problems: [...file.parsed.problems, ...extra], ...(keyField ? { keyField } : {}) } };
	});
}
