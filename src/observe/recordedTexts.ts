// What the agent last saw of each file, as a chat's records tell it: the text a complete Read
// showed (its numbered rows), carried forward through the diffs of the chat's own Edit, Write and
// ApplyPatch results, and forgotten where a record says the file went or was put back. A reopened
// chat rebuilds its stale-write guard and its edited-files cache from this (reopenedFiles.ts).
// Where the records cannot say for certain, the file is left out: it is then read again.
import * as nodePath from 'node:path';
import { parsePatch, applyPatch, type StructuredPatch } from 'diff';
import type { AgentRecord } from '../transcript/records';
import type { ToolResultRecord } from '../transcript/toolResultRecord';

/** The texts the file may have, line endings as LF: a Read's rows do not say whether the last line ends with one. */
export type RecordedText = readonly string[];

const NUMBERED_ROW = /^ *(\d+)\t/;
const DEV_NULL = '/dev/null';

/** A path as the tools showed it, back to absolute (displayPath's inverse). */
export function absoluteOf(shown: string, roots: readonly string[]): string {
	const [first] = roots;
	return nodePath.isAbsolute(shown) || first === undefined ? nodePath.resolve(shown) : nodePath.resolve(first, shown);
}

/** The whole text a Read showed, or undefined when it showed part of the file (or no numbered text: a PDF). */
function shownText(result: ToolResultRecord): RecordedText | undefined {
	const detail = result.detail as { kind?: unknown; truncated?: unknown; lines?: unknown } | undefined;
	if (detail?.kind !== 'file' || detail.truncated !== false || result.content === null) {
		return undefined;
	}
	if (result.content === '') {
		return detail.lines === 0 ? ['', '\n'] : undefined;
	}
	const rows = result.content.split('\n');
	const lines: string[] = [];
	for (const [index, row] of rows.entries()) {
		const match = NUMBERED_ROW.exec(row);
		if (match?.[1] === undefined || Number(match[1]) !== index + 1) {
			return undefined;
		}
		lines.push(row.slice(match[0].length));
	}
	if (lines.length !== detail.lines) {
		return undefined;
	}
	const text = lines.join('\n');
	return [text, `${text}\n`];
}

/** Each file's patch in a change result's diff, by absolute path; undefined when the diff cannot be read. */
function patchesOf(result: ToolResultRecord, roots: readonly string[]): Map<string, StructuredPatch | 'deleted'> | undefined {
	const detail = result.detail as { kind?: unknown; diff?: unknown } | undefined;
	if (detail?.kind !== 'diff' || typeof detail.diff !== 'string') {
		return undefined;
	}
	let patches: StructuredPatch[];
	try {
		patches = parsePatch(detail.diff.replace(/\r\n?/g, '\n'));
	} catch {
		return undefined;
	}
	const files = new Map<string, StructuredPatch | 'deleted'>();
	for (const patch of patches) {
		const name = patch.newFileName === DEV_NULL ? patch.oldFileName : patch.newFileName;
		if (name === undefined || name === DEV_NULL || name === '') {
			return undefined;
		}
		files.set(absoluteOf(name, roots), patch.newFileName === DEV_NULL ? 'deleted' : patch);
	}
	return files.size > 0 ? files : undefined;
}

/** The texts `patch` makes of each candidate; a new file starts from nothing. */
function patched(known: RecordedText | undefined, patch: StructuredPatch): RecordedText | undefined {
	const sources = patch.oldFileName === DEV_NULL ? [''] : (known ?? []);
	const results = new Set<string>();
	for (const source of sources) {
		const result = applyPatch(source, patch);
		if (typeof result === 'string') {
			results.add(result);
		}
	}
	return results.size > 0 ? [...results] : undefined;
}

/** Every file the records say the agent last saw, with the texts it may have had then. */
export function recordedTexts(records: readonly AgentRecord[], roots: readonly string[]): Map<string, RecordedText> {
	const known = new Map<string, RecordedText>();
	const forget = (paths: Iterable<string>): void => {
		for (const path of paths) {
			known.delete(path);
		}
	};
	for (const record of records) {
		if (record.kind === 'restore') {
			// What a restore wrote back must be read again (as the live chat's observers say).
			forget(record.files.filter((file) => file.done).map((file) => nodePath.resolve(file.path)));
			continue;
		}
		if (record.kind !== 'tool-result' || record.isError) {
			continue;
		}
		const detail = record.detail as { kind?: unknown; path?: unknown } | undefined;
		if (detail?.kind === 'file' && typeof detail.path === 'string') {
			const text = shownText(record);
			const path = absoluteOf(detail.path, roots);
			if (text) {
				known.set(path, text);
			} else if (record.content !== null && NUMBERED_ROW.test(record.content)) {
				// Part of the file: what the agent saw of the rest is not recorded.
				known.delete(path);
			}
			continue;
		}
		if (detail?.kind !== 'diff') {
			continue;
		}
		const patches = patchesOf(record, roots);
		if (!patches) {
			// A diff too large to show, or one that cannot be read: no file it names is known any more.
			forget(typeof detail.path === 'string' && !/^\d+ files$/.test(detail.path) ? [absoluteOf(detail.path, roots)] : [...known.keys()]);
			continue;
		}
		for (const [path, patch] of patches) {
			const next = patch === 'deleted' || record.cutOff === true ? undefined : patched(known.get(path), patch);
			if (next) {
				known.set(path, next);
			} else {
				known.delete(path);
			}
		}
	}
	return known;
}
