// Path-scoped project instructions: after a Read of a file inside a workspace folder, the
// AGENTS.md / AGENTS.local.md and CLAUDE.md / CLAUDE.local.md on the way from the folder down to
// that file's directory, then the `.github/instructions/*.instructions.md` whose `applyTo` globs
// and the `.cursor/rules/*.mdc` whose `globs` match it, when new or changed since they were last
// given to the same context. Broad to narrow; acknowledged only in the event's commit, so a failed
// request gives them again.
//
// A context is what one history holds: the chat's root turns share one (every turn's history
// carries what earlier turns were given), so a file is given once per chat and content; an agent
// invocation has its own, gone when it ends. The chat's acknowledgements are restored from its own
// injection records (the subjects of the entries, never their text) when it is reopened.
import { createHash } from 'node:crypto';
import * as nodePath from 'node:path';
import type { Owner } from '../reminders/definition';
import { WORKSPACE_INSTRUCTIONS } from '../reminders/builtin/catalog/files';
import { entryOf } from '../reminders/declaration';
import { deliveredSubjects, type RecordLike } from '../reminders/history';
import { AccumulatingKind, type Rendering, type TurnEvent } from '../reminders/turnEvents';
import { displayPath, isInside } from '../tools/paths';
import { truncateUtf8 } from '../tools/text';
import type { WorkspaceFs } from '../tools/tool';
import { type InstructionScope, scopedBody } from './instructionScope';
import { bodyOf, type FoundInstructions, orderBroadToNarrow } from './foundInstructions';
import { folderFileNames, INSTRUCTION_KINDS, type InstructionKind, kindOf, type MalformedInstructions, SCOPED_SOURCES, type ScopedSource, scopedSourceOf } from './instructionSources';

/** As the root reminder caps them (src/vscode/instructions.ts). */
export const DEFAULT_MAX_INSTRUCTION_BYTES = 64 * 1024;

export interface InstructionFilesOptions {
	/**
	 * Also give the files at a workspace folder's root. Off by default: the roster's
	 * `workspace.instructions` reminder already gives those at turn starts and on change, and a
	 * second copy here would double them in context.
	 */
	readonly includeRoot?: boolean;
	readonly maxFileBytes?: number;
	/** `aside.instructions.files`, read at each Read. Absent: every kind. */
	readonly kinds?: () => readonly InstructionKind[];
	/** Where a malformed `.instructions.md` or Cursor rule is told of (once). Absent: skipped silently. */
	readonly malformed?: MalformedInstructions;
}

/** One file a Read brought into scope, for the owner whose context it is given to. */
interface Discovered {
	readonly owner: Owner;
	readonly file: FoundInstructions;
}

interface Loaded {
	readonly size: number;
	readonly mtimeMs: number;
	readonly file: LoadedFile | undefined;
}

type LoadedFile = Omit<FoundInstructions, 'shown' | 'depth' | 'updated' | 'applyTo'> & {
	/** A scoped rules file's scope; absent for a folder's file. */
	readonly scope?: InstructionScope;
};

export class InstructionFiles {
	private readonly includeRoot: boolean;
	private readonly maxFileBytes: number;
	private readonly kinds: () => readonly InstructionKind[];
	private readonly malformed: MalformedInstructions | undefined;
	// What the chat's root context was given, by path: the content hash.
	private readonly chat = new Map<string, string>();
	// The same for each running agent invocation, by its id.
	private readonly agents = new Map<string, Map<string, string>>();
	// Read results by path, reused while size and mtime stay the same.
	private readonly loaded = new Map<string, Loaded>();
	// Reads in one step add up to one event: a file read again replaces its older version.
	private readonly instructions: AccumulatingKind<Discovered>;

	constructor(
		private readonly fs: WorkspaceFs,
		private readonly roots: () => readonly string[],
		options: InstructionFilesOptions = {},
	) {
		this.includeRoot = options.includeRoot ?? false;
		this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_INSTRUCTION_BYTES;
		this.kinds = options.kinds ?? (() => INSTRUCTION_KINDS);
		this.malformed = options.malformed;
		this.instructions = new AccumulatingKind<Discovered>(entryOf(WORKSPACE_INSTRUCTIONS), {
			identity: ({ file }) => file.path,
			render: (discovered) => this.render(discovered),
		});
	}

	/** After a call by `owner` read (showed the model) `readPath`: the instructions it newly brings into scope. */
	async afterRead(owner: Owner, readPath: string): Promise<TurnEvent | undefined> {
		const path = nodePath.resolve(readPath);
		const roots = this.roots().map((root) => nodePath.resolve(root));
		// The broadest folder holding the file, so nested workspace folders are walked through.
		const root = roots.filter((candidate) => isInside(path, candidate)).sort((a, b) => a.length - b.length)[0];
		if (root === undefined || path === root || (await this.fs.stat(path))?.type !== 'file') {
			return undefined;
		}
		const given = this.givenTo(owner, false);
		const kinds = this.kinds();
		const names = folderFileNames(kinds);
		const found: FoundInstructions[] = [];
		const segments = nodePath.relative(root, nodePath.dirname(path)).split(nodePath.sep).filter((segment) => segment !== '');
		for (let depth = 0; depth <= segments.length; depth++) {
			const dir = nodePath.join(root, ...segments.slice(0, depth));
			if (!this.includeRoot && roots.includes(dir)) {
				continue;
			}
			for (const name of names) {
				const file = await this.load(nodePath.join(dir, name), roots);
				const before = given?.get(file?.path ?? '');
				if (file && before !== file.hash) {
					found.push({ ...file, shown: displayPath(file.path, roots), depth, updated: before !== undefined });
				}
			}
		}
		// Every workspace folder holding the file, broadest first: each one's globs are over paths from it.
		for (const scopeRoot of roots.filter((candidate) => isInside(path, candidate)).sort((a, b) => a.length - b.length)) {
			for (const source of SCOPED_SOURCES.filter(({ kind }) => kinds.includes(kind))) {
				for (const file of await this.scopedFor(source, scopeRoot, path, roots)) {
					const before = given?.get(file.path);
					if (before !== file.hash) {
						found.push({ ...file, updated: before !== undefined });
					}
				}
			}
		}
		return found.length > 0 ? this.instructions.event(found.map((file) => ({ owner, file }))) : undefined;
	}

	/**
	 * The owner finished. An agent invocation's context is gone with it, and so is what it was
	 * given; a root turn's context is the chat's and stays (only `restore` replaces it).
	 */
	forget(owner: Owner): void {
		if (owner.kind === 'agent') {
			this.agents.delete(owner.id);
		}
	}

	/**
	 * Replaces the chat's acknowledgements with what `records` show was delivered to its root
	 * context: a chat's own records when it is reopened, none for a new chat, and what compaction
	 * keeps (whatever was only in the summarized part is given again: `redeliver`).
	 */
	restore(records: Iterable<RecordLike>): void {
		this.chat.clear();
		for (const subjects of deliveredSubjects(records, WORKSPACE_INSTRUCTIONS.type)) {
			for (const { ref, hashes } of subjects) {
				const hash = hashes[0];
				if (hash !== undefined) {
					this.chat.set(ref, hash);
				}
			}
		}
	}

	/**
	 * After a compaction (once `restore` took what the kept history holds): the files `summarized`
	 * had delivered to the chat's root context that it no longer holds, in their current content,
	 * broad to narrow, as one event for `owner` (the next request's owner) — so they are back at
	 * once, without waiting for another Read. A file deleted or emptied since is left out.
	 */
	async redeliver(owner: Owner, summarized: Iterable<RecordLike>): Promise<TurnEvent | undefined> {
		const roots = this.roots().map((root) => nodePath.resolve(root));
		const dropped = new Set<string>();
		for (const subjects of deliveredSubjects(summarized, WORKSPACE_INSTRUCTIONS.type)) {
			for (const { ref } of subjects) {
				if (!this.chat.has(ref)) {
					dropped.add(ref);
				}
			}
		}
		const found: FoundInstructions[] = [];
		const kinds = this.kinds();
		for (const path of dropped) {
			const holding = roots.filter((candidate) => isInside(path, candidate)).sort((a, b) => a.length - b.length);
			const root = holding[0];
			// The kind's own folder decides: a scoped rules file belongs to the folder whose .github or .cursor holds it.
			const kind = holding.map((candidate) => kindOf(path, candidate)).find((candidate) => candidate !== undefined);
			const file = root === undefined || kind === undefined || !kinds.includes(kind) ? undefined : await this.load(path, roots);
			if (root === undefined || !file) {
				continue;
			}
			if (file.scope) {
				// Only while it is still path-scoped: otherwise the root observation gives it (or it is malformed now).
				if (file.scope.kind === 'paths') {
					found.push({ ...file, shown: displayPath(file.path, roots), depth: 0, updated: false, applyTo: file.scope.patterns });
				}
				continue;
			}
			const depth = nodePath.relative(root, nodePath.dirname(path)).split(nodePath.sep).filter((segment) => segment !== '').length;
			found.push({ ...file, shown: displayPath(file.path, roots), depth, updated: false });
		}
		return found.length > 0 ? this.instructions.event(orderBroadToNarrow(found).map((file) => ({ owner, file }))) : undefined;
	}

	/** The files of one rules folder of the workspace folder `root` whose globs match `path`, in name order. */
	private async scopedFor(source: ScopedSource, root: string, path: string, roots: readonly string[]): Promise<FoundInstructions[]> {
		const dir = nodePath.join(root, source.folder);
		if ((await this.fs.stat(dir))?.type !== 'directory') {
			return [];
		}
		const relative = nodePath.relative(root, path).split(nodePath.sep).join('/');
		const names = (await this.fs.readDirectory(dir))
			.filter((entry) => entry.type === 'file' && entry.name.endsWith(source.suffix) && entry.name !== source.suffix)
			.map((entry) => entry.name)
			.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
		const found: FoundInstructions[] = [];
		for (const name of names) {
			const file = await this.load(nodePath.join(dir, name), roots);
			const shown = file ? displayPath(file.path, roots) : '';
			if (file?.scope?.kind === 'malformed') {
				this.malformed?.note(shown, file.scope.reason);
			} else if (file?.scope?.kind === 'paths' && file.scope.matches(relative)) {
				found.push({ ...file, shown, depth: 0, updated: false, applyTo: file.scope.patterns });
			}
		}
		return found;
	}

	private givenTo(owner: Owner, create: true): Map<string, string>;
	private givenTo(owner: Owner, create: false): Map<string, string> | undefined;
	private givenTo(owner: Owner, create: boolean): Map<string, string> | undefined {
		if (owner.kind === 'root') {
			return this.chat;
		}
		let given = this.agents.get(owner.id);
		if (!given && create) {
			given = new Map();
			this.agents.set(owner.id, given);
		}
		return given;
	}

	private render(discovered: readonly Discovered[]): Rendering {
		// Broad to narrow across the reads; a file read again is there in the newer read's version.
		const files = orderBroadToNarrow(discovered.map(({ file }) => file));
		return {
			reason: 'a file you read is under folders with project instructions that are new or changed',
			body: bodyOf(files, this.maxFileBytes),
			// Recorded with the delivery: what `restore` reads back when the chat is reopened.
			subjects: files.map((file) => ({ ref: file.path, hashes: [file.hash] })),
			commit: () => {
				for (const { owner, file } of discovered) {
					this.givenTo(owner, true).set(file.path, file.hash);
				}
			},
		};
	}

	/** The file's capped text and hash, or undefined when it is missing, empty, or leads outside the workspace. */
	private async load(path: string, roots: readonly string[]): Promise<Loaded['file']> {
		const stat = await this.fs.stat(path);
		if (stat?.type !== 'file') {
			this.loaded.delete(path);
			return undefined;
		}
		const known = this.loaded.get(path);
		if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) {
			return known.file;
		}
		const file = await this.read(path, roots);
		this.loaded.set(path, { size: stat.size, mtimeMs: stat.mtimeMs, file });
		return file;
	}

	private async read(path: string, roots: readonly string[]): Promise<Loaded['file']> {
		// A symlinked AGENTS.md must not bring text from outside the workspace into context.
		const real = await this.fs.realPath(path);
		const realRoots = await Promise.all(roots.map(async (root) => (await this.fs.realPath(root)) ?? root));
		if (real === undefined || !realRoots.some((root) => isInside(real, root))) {
			return undefined;
		}
		const bytes = await this.fs.readFile(path);
		const decoded = new TextDecoder('utf-8').decode(bytes);
		const hash = createHash('sha256').update(bytes).digest('hex');
		// Its frontmatter says where it applies; the model is given what is below it.
		const scope = roots.map((root) => scopedSourceOf(path, root)).find((source) => source !== undefined)?.scopeOf(decoded);
		const whole = scope ? scopedBody(decoded) : decoded;
		if (whole.trim() === '') {
			return undefined;
		}
		const text = truncateUtf8(whole, this.maxFileBytes);
		return { path, text, truncated: text.length < whole.length, hash, ...(scope ? { scope } : {}) };
	}
}
