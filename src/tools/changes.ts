// The write tools' contract: a call is first planned — every file it would change, with its text
// before and after (null: does not exist, or deleted) — and the plan is then applied by the one
// all-or-nothing applyChanges below, whether it runs straight away (auto-edit) or after the person
// reviewed it (ask), possibly with their own revision of the proposed text.
import { errorMessage } from '../base/errors';
import { unifiedDiff } from './diff';
import { ToolError } from './errors';
import { changedSinceReadMessage, StaleTextError } from './staleWrite';
import { plural } from '../base/words';
import type * as z from 'zod';
import type { Confirmation, Tool, ToolContext, ToolResult, ToolTouches, TouchedFile } from './tool';

/** One file a call would change. */
export interface FileChange {
	/** Absolute, confined by resolveInWorkspace. */
	readonly path: string;
	/** As the model and the person see it (relative to the workspace folder). */
	readonly shown: string;
	/** The text now; null when the file does not exist (the call creates it). */
	readonly before: string | null;
	/** The text the call proposes; null when it deletes the file. */
	readonly after: string | null;
}

/** Everything a write call would do, before it does it. */
export interface ChangePlan {
	/** What the person is asked to accept, e.g. "Edit src/a.ts". */
	readonly title: string;
	readonly changes: readonly FileChange[];
	/** What the model reads once the plan was applied as proposed, e.g. "Edited a.ts: replaced 1 occurrence." */
	readonly summary: string;
	/** Why it must be confirmed in every permission mode (a file with several hard links). */
	readonly alwaysAsk?: string;
}

export type ChangeKind = 'create' | 'modify' | 'delete';

export function changeKind(change: Pick<FileChange, 'before' | 'after'>): ChangeKind {
	return change.before === null ? 'create' : change.after === null ? 'delete' : 'modify';
}

/** The unified diff of one change, `/dev/null` on the side that does not exist. */
export function changeDiff(change: FileChange): string {
	return unifiedDiff(change.before === null ? '/dev/null' : change.shown, change.after === null ? '/dev/null' : change.shown, change.before ?? '', change.after ?? '');
}

/** Every file's diff, one after another: what the chat shows of a change set. */
export function combinedDiff(changes: readonly FileChange[]): string {
	return changes.map(changeDiff).join('');
}

/** What the person confirms: the plan's title, its files, and the diff of them all. */
export function confirmationOf(plan: ChangePlan): Confirmation {
	return {
		title: plan.title,
		target: plan.changes.map((change) => change.shown).join(', '),
		diff: combinedDiff(plan.changes),
		changes: plan.changes,
		...(plan.alwaysAsk === undefined ? {} : { alwaysAsk: plan.alwaysAsk }),
	};
}

export interface ApplyOptions {
	/** The tool's name, for messages ("appeared while the Write was being made"). */
	readonly tool: string;
	/** The message for a file whose text is no longer the plan's `before`; the stale-write guard's own by default. */
	readonly stale?: (shown: string) => string;
}

/** A file that is there now, as a file or as a document open in the editor. */
async function exists(path: string, context: ToolContext): Promise<boolean> {
	return (await context.fs.stat(path)) !== undefined || (await context.writer.readText(path)) !== undefined;
}

/** Throws a ToolError unless every file is still as the plan found it; writes nothing. */
async function requireUnchanged(changes: readonly FileChange[], context: ToolContext, options: ApplyOptions): Promise<void> {
	for (const change of changes) {
		if (change.before === null) {
			if (await exists(change.path, context)) {
				throw new ToolError(appeared(change.shown, options.tool));
			}
		} else if ((await context.writer.readText(change.path)) !== change.before) {
			throw new ToolError((options.stale ?? changedSinceReadMessage)(change.shown));
		}
	}
}

function appeared(shown: string, tool: string): string {
	return `${shown} appeared while the ${tool} was being made; it was left as it is and nothing was written. Read it, then use Edit to change it.`;
}

async function write(change: FileChange, context: ToolContext): Promise<void> {
	const { writer } = context;
	if (change.before === null) {
		await writer.create(change.path, change.after ?? '');
	} else if (change.after === null) {
		await writer.delete(change.path, change.before);
	} else {
		await writer.replace(change.path, change.after, change.before);
	}
}

/** Puts back what `write` did: the change the other way round, guarded by its own `before`. */
async function undo(change: FileChange, context: ToolContext): Promise<void> {
	await write({ ...change, before: change.after, after: change.before }, context);
}

/**
 * Applies every change or none: the stale-write guard for every file first (each text is still
 * the plan's `before`, each new file still absent), then each write through the editor's
 * documents, each guarded once more by the writer. Between the two, the chat's checkpoint keeps
 * every file's previous text (none kept, nothing written). When a write fails, the ones already made are
 * undone, last first, and the error says so (and names any file that could not be put back).
 * The chat's guard learns each written text; the result lists every file touched.
 */
export async function applyChanges(changes: readonly FileChange[], context: ToolContext, options: ApplyOptions): Promise<readonly TouchedFile[]> {
	await requireUnchanged(changes, context, options);
	await keepCheckpoint(changes, context, options);
	const done: FileChange[] = [];
	for (const change of changes) {
		try {
			await write(change, context);
		} catch (error) {
			throw await rollBack(done, change, error, context, options);
		}
		done.push(change);
	}
	return changes.map((change) => {
		if (change.after !== null) {
			context.seen.saw(change.path, change.after);
		}
		return { path: change.path, access: change.after === null ? 'deleted' : 'written', text: change.after ?? '' };
	});
}

/**
 * Keeps what the call is about to change (src/checkpoints/) before the first write. A keep that
 * fails refuses the whole call: a write whose previous text could not be kept could never be
 * restored, and the person would learn that only when they try (docs/checkpoints.md).
 */
async function keepCheckpoint(changes: readonly FileChange[], context: ToolContext, options: ApplyOptions): Promise<void> {
	if (!context.checkpoint) {
		return;
	}
	try {
		await context.checkpoint.keep(changes);
	} catch (error) {
		throw new ToolError(
			`Aside could not keep a checkpoint before the ${options.tool} (${errorMessage(error)}), so nothing was written: a change it cannot restore is not made. Tell the user; the storage folder may be full or not writable.`,
		);
	}
}

async function rollBack(done: readonly FileChange[], failed: FileChange, error: unknown, context: ToolContext, options: ApplyOptions): Promise<unknown> {
	const stuck: string[] = [];
	for (const change of [...done].reverse()) {
		try {
			await undo(change, context);
		} catch {
			stuck.push(change.shown);
		}
	}
	let why: string | undefined;
	if (error instanceof StaleTextError) {
		why = (options.stale ?? changedSinceReadMessage)(failed.shown);
	} else if (failed.before === null && (await exists(failed.path, context).catch(() => false))) {
		// The writers never overwrite: a file that appeared since the check stays as it is.
		why = appeared(failed.shown, options.tool);
	} else if (error instanceof ToolError) {
		why = error.message;
	}
	if (done.length === 0) {
		return why === undefined ? error : new ToolError(why);
	}
	const reason = why ?? `${options.tool} could not write ${failed.shown}: ${errorMessage(error)}.`;
	const undone = done.length - stuck.length;
	return new ToolError(
		stuck.length === 0
			? `${reason} The ${plural(undone, 'file')} this call had already changed ${undone === 1 ? 'was' : 'were'} put back: nothing was applied.`
			: `${reason} Some files this call had already changed could not be put back and now hold the proposed text: ${stuck.join(', ')}. Read them before you go on.`,
	);
}

/** The result of a plan applied as proposed: its summary, the diff for the chat, the files touched. */
export async function applyPlan(plan: ChangePlan, context: ToolContext, options: ApplyOptions): Promise<ToolResult> {
	const touched = await applyChanges(plan.changes, context, options);
	return { content: plan.summary, detail: diffDetail(plan.changes), touched };
}

/** The chat's diff of a change set: the file's own path for one file, "N files" for several. */
export function diffDetail(changes: readonly FileChange[]): NonNullable<ToolResult['detail']> {
	return { kind: 'diff', path: changes.length === 1 ? (changes[0]?.shown ?? '') : plural(changes.length, 'file'), diff: combinedDiff(changes) };
}

/** What a change tool declares: its name, description, input, how it plans. */
export interface ChangeToolSpec<I> {
	readonly name: string;
	readonly description: string;
	readonly input: z.ZodType<I>;
	plan(input: I, context: ToolContext): Promise<ChangePlan>;
	/** The files it will write, cheaper than planning; by default the plan's files. */
	touches?(input: I, context: ToolContext): Promise<ToolTouches>;
}

/** A write tool made of its plan: confirmed as the plan, run as the plan applied (all or nothing). */
export function changeTool<I>(spec: ChangeToolSpec<I>): Tool<I> {
	return {
		name: spec.name,
		description: spec.description,
		kind: 'write',
		input: spec.input,
		plan: (input, context) => spec.plan(input, context),
		touches: spec.touches
			? (input, context) => (spec.touches as NonNullable<typeof spec.touches>)(input, context)
			: async (input, context) => ({ reads: [], writes: (await spec.plan(input, context)).changes.map((change) => change.path) }),
		confirm: async (input, context) => confirmationOf(await spec.plan(input, context)),
		run: async (input, context) => applyPlan(await spec.plan(input, context), context, { tool: spec.name }),
	};
}
