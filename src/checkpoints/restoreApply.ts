// Applying a restore plan through the editor's documents (the DocumentWriter the tools use, so
// undo, dirty state and diagnostics stay right), all or nothing as applyChanges is: every file is
// first checked to be still as the preview found it, then written; when a write fails, the ones
// already made are put back, last first, and the report says what could not be done. Each file's
// real place is checked again just before the writes (a folder may have become a symbolic link
// that leads out since the preview): one that is outside now is skipped and listed as outside.
import { errorMessage } from '../base/errors';
import { realPlaceInside } from '../tools/realPlace';
import type { DocumentWriter, WorkspaceFs } from '../tools/tool';
import type { CheckpointRecorder } from './types';
import { type PlannedFile, type RestoreAction, type RestorePlan, writes } from './restorePlan';

/** What became of one file of the plan. */
export interface RestoredFile {
	readonly path: string;
	readonly shown: string;
	readonly action: RestoreAction;
	/** True when the restore wrote it (changed back, recreated or deleted). */
	readonly done: boolean;
}

export type RestoreApplyResult =
	| { readonly ok: true; readonly files: readonly RestoredFile[] }
	| {
			readonly ok: false;
			/** In words, for the person: what went wrong, and what state the files are in. */
			readonly message: string;
	  };

interface Write {
	readonly file: PlannedFile;
	readonly before: string | null;
	readonly after: string | null;
}

async function write(writer: DocumentWriter, path: string, before: string | null, after: string | null): Promise<void> {
	if (before === null) {
		await writer.create(path, after ?? '');
	} else if (after === null) {
		await writer.delete(path, before);
	} else {
		await writer.replace(path, after, before);
	}
}

/** The first file that is no longer as the preview found it, or undefined. */
async function changedSincePreview(writer: DocumentWriter, planned: readonly Write[]): Promise<string | undefined> {
	for (const { file, before } of planned) {
		if (((await writer.readText(file.path)) ?? null) !== before) {
			return file.shown;
		}
	}
	return undefined;
}

/** The workspace folders and their real paths: where a restore may write. */
export interface RestoreConfinement {
	readonly roots: readonly string[];
	readonly fs: Pick<WorkspaceFs, 'realPath' | 'readDirectory'>;
}

/**
 * Applies `plan`; person-changed files are written only with `overwriteChanged`. Never throws.
 * `checkpoint` keeps what the restore is about to overwrite, before its first write (so the restore
 * can itself be undone); when it cannot, nothing is written, as a tool's write is not made then.
 */
export async function applyRestore(
	plan: RestorePlan,
	writer: DocumentWriter,
	overwriteChanged: boolean,
	confinement: RestoreConfinement,
	checkpoint?: CheckpointRecorder,
): Promise<RestoreApplyResult> {
	const outside = new Set<string>();
	let planned: Write[] = plan.files.filter((file) => writes(file, overwriteChanged)).map((file) => ({ file, before: file.now, after: file.target }));
	try {
		for (const { file } of planned) {
			if (!(await realPlaceInside(file.path, confinement.roots, confinement.fs))) {
				outside.add(file.path);
			}
		}
		planned = planned.filter(({ file }) => !outside.has(file.path));
		const moved = await changedSincePreview(writer, planned);
		if (moved !== undefined) {
			return { ok: false, message: `${moved} changed since the preview was made, so nothing was restored. Open Restore… again to see the files as they are now.` };
		}
	} catch (error) {
		return { ok: false, message: `The files could not be read before restoring them (${errorMessage(error)}); nothing was restored.` };
	}
	try {
		await checkpoint?.keep(planned.map(({ file, before, after }) => ({ path: file.path, shown: file.shown, before, after })));
	} catch (error) {
		return { ok: false, message: `Aside could not keep a checkpoint of the files before restoring them (${errorMessage(error)}), so nothing was restored: a restore that could not be undone is not made. The storage folder may be full or not writable.` };
	}
	const done: Write[] = [];
	for (const change of planned) {
		try {
			await write(writer, change.file.path, change.before, change.after);
		} catch (error) {
			return { ok: false, message: await rollBack(writer, done, change.file, error) };
		}
		done.push(change);
	}
	const written = new Set(planned.map((change) => change.file.path));
	return { ok: true, files: plan.files.map((file) => ({ path: file.path, shown: file.shown, action: outside.has(file.path) ? 'outside' : file.action, done: written.has(file.path) })) };
}

async function rollBack(writer: DocumentWriter, done: readonly Write[], failed: PlannedFile, error: unknown): Promise<string> {
	const stuck: string[] = [];
	for (const change of [...done].reverse()) {
		try {
			await write(writer, change.file.path, change.after, change.before);
		} catch {
			stuck.push(change.file.shown);
		}
	}
	const why = errorMessage(error);
	const reason = `Could not restore ${failed.shown}: ${/[.!?]$/.test(why) ? why : `${why}.`}`;
	if (done.length === 0) {
		return `${reason} Nothing was restored.`;
	}
	return stuck.length === 0
		? `${reason} The files already restored were put back as they were: nothing was restored.`
		: `${reason} These files were restored and could not be put back as they were: ${stuck.join(', ')}. The rest are as they were.`;
}
