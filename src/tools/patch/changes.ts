// changesFromPatch: a parsed patch and the files' current texts → what each file becomes, all
// computed before anything is written, so a tool writes every file or none. Pure: the caller
// reads the files (patchPaths says which) and writes the result.
import { hunkSteps } from './hunks';
import { type Patch, PatchError, type PatchOperation } from './patch';
import { runToEnd, type Steps, Work } from './steps';

/** What one file becomes. `before` undefined: the patch creates it; `after` undefined: it deletes it. */
export interface FileChange {
	/** As in the patch: relative, `/`-separated, normalised (patchPath.ts). */
	readonly path: string;
	readonly before: string | undefined;
	readonly after: string | undefined;
	/**
	 * The file this one's text came from, when an update moved it (`*** Move to:`): a file that
	 * existed, and is deleted (its own FileChange, with `after` undefined).
	 */
	readonly movedFrom?: string;
}

/** Every path the patch names (its operations' and their move targets), once each, in order. */
export function patchPaths(patch: Patch): string[] {
	const paths = new Set<string>();
	for (const operation of patch.operations) {
		paths.add(operation.path);
		if (operation.kind === 'update' && operation.moveTo !== undefined) {
			paths.add(operation.moveTo);
		}
	}
	return [...paths];
}

/** The state of one path while the patch's operations run: its text, or absent, and who set it. */
interface Entry {
	readonly before: string | undefined;
	text: string | undefined;
	/** The operation that last set it, for messages. */
	by: PatchOperation | undefined;
	movedFrom: string | undefined;
}

function verb(operation: PatchOperation): string {
	return operation.kind === 'add' ? 'added' : operation.kind === 'delete' ? 'deleted' : operation.moveTo === undefined ? 'updated' : 'moved';
}

function fail(operation: PatchOperation, message: string): never {
	throw new PatchError(`${operation.path} (patch line ${operation.line}): ${message}`, { line: operation.line, path: operation.path });
}

/**
 * Applies the operations in order, each to the result of those before it (a file deleted and then
 * added is replaced; one updated twice gets the second update's hunks on the first one's text),
 * and returns each file whose text differs from `textOf`'s (undefined: the file does not exist),
 * in the order the patch first names them. Throws a PatchError for the first operation that
 * cannot apply: adding a file that exists, updating or deleting one that does not, moving onto an
 * existing file, a hunk that does not match.
 */
export function changesFromPatch(patch: Patch, textOf: (path: string) => string | undefined): FileChange[] {
	return runToEnd(changeSteps(patch, textOf, new Work()));
}

/** changesFromPatch, pausing every quantum of `work` (the tool runs it with runYielding, so Stop ends it). */
export function* changeSteps(patch: Patch, textOf: (path: string) => string | undefined, work: Work): Steps<FileChange[]> {
	const entries = new Map<string, Entry>();
	const entry = (path: string): Entry => {
		let found = entries.get(path);
		if (!found) {
			const before = textOf(path);
			found = { before, text: before, by: undefined, movedFrom: undefined };
			entries.set(path, found);
		}
		return found;
	};
	const since = (state: Entry) => (state.by ? ` (${verb(state.by)} by this patch at line ${state.by.line})` : '');
	const set = (state: Entry, text: string | undefined, by: PatchOperation, movedFrom?: string) => {
		state.text = text;
		state.by = by;
		state.movedFrom = movedFrom;
	};

	for (const operation of patch.operations) {
		const state = entry(operation.path);
		switch (operation.kind) {
			case 'add':
				if (state.text !== undefined) {
					fail(operation, `"*** Add File" creates a file, and this one exists${since(state)}: change it with "*** Update File", or delete it first.`);
				}
				set(state, operation.text, operation);
				break;
			case 'delete':
				if (state.text === undefined) {
					fail(operation, `"*** Delete File": there is no such file${since(state)}.`);
				}
				set(state, undefined, operation);
				break;
			case 'update': {
				if (state.text === undefined) {
					fail(operation, `"*** Update File": there is no such file${since(state)}; create a file with "*** Add File".`);
				}
				const text = yield* hunkSteps(operation.path, state.text, operation.hunks, work);
				const target = operation.moveTo === undefined || operation.moveTo === operation.path ? undefined : entry(operation.moveTo);
				if (!target) {
					set(state, text, operation, state.movedFrom);
					break;
				}
				if (target.text !== undefined) {
					fail(operation, `"*** Move to: ${operation.moveTo ?? ''}": that file exists${since(target)}, and a move does not overwrite one.`);
				}
				set(target, text, operation, state.movedFrom ?? operation.path);
				set(state, undefined, operation);
				break;
			}
		}
	}

	// A move is reported only from a file that existed and is deleted in the end: a file moved away
	// and back is no move, and neither is one whose source this patch added or put back.
	const isMovedAway = (source: string) => {
		const state = entries.get(source);
		return state !== undefined && state.before !== undefined && state.text === undefined;
	};
	const changes: FileChange[] = [];
	for (const [path, { before, text, movedFrom }] of entries) {
		if (text === before) {
			continue;
		}
		changes.push(
			movedFrom === undefined || movedFrom === path || !isMovedAway(movedFrom) ? { path, before, after: text } : { path, before, after: text, movedFrom },
		);
	}
	return changes;
}
