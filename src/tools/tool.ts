// A tool the agent can call: one zod schema (checked on invoke, turned into the JSON Schema the
// model sees), its kind (read, write, run), the files a call will touch, and its run function.
// Tools reach the workspace only through the interfaces below, implemented for VS Code in
// src/vscode/ and over the real file system for tests.
import type { CheckpointRecorder } from '../checkpoints/types';
import type { ImagePart } from '../providers/messages';
import type * as z from 'zod';
import type { FeatureAccess } from './featureAccess';
import type { ChangePlan, FileChange } from './changes';
import type { KeptOutputs } from './keptOutputs';
import type { FallbackReason } from '../terminal/shellExecution';

/** `fetch`: reaches the network and changes no file (WebFetch): the modes ask for it, plan mode too, and an untrusted workspace has none. */
export type ToolKind = 'read' | 'write' | 'run' | 'fetch';

/** A harness notice that rides a tool result (a Read truncation notice): stored as structure,
 * wrapped as a `<system-reminder>` after the result's content when sent to the model. */
export interface ToolNotice {
	readonly key: string;
	readonly body: string;
}

export interface ToolResult {
	/** What the model reads: file text with line numbers, matches, command output, or an error. */
	readonly content: string;
	readonly isError?: boolean;
	readonly notices?: readonly ToolNotice[];
	/** Images the model is shown after `content` (Read of a PNG, an MCP tool's image): kept out of line in the transcript. */
	readonly images?: readonly ImagePart[];
	/** For the view and the transcript: a unified diff for edits, the command's exit code, … */
	readonly detail?: ToolDetail;
	/**
	 * For the observers, never recorded: each file this call showed the model or wrote, with its
	 * whole text as shown or written (the editor's text, unsaved changes included).
	 */
	readonly touched?: readonly TouchedFile[];
}

/**
 * What a call declares, before it runs, about the files it will touch: absolute paths, confined
 * by resolveInWorkspace. `reads` are files whose text it will show the model; `writes` are files
 * it may create or change (each gets a diagnostics baseline before the call runs). A command
 * (Run) declares nothing: what it changes is seen as a change outside Aside's tools.
 */
export interface ToolTouches {
	readonly reads: readonly string[];
	readonly writes: readonly string[];
}

export const NO_TOUCHES: ToolTouches = { reads: [], writes: [] };

/** `touches` for a tool that shows or writes no named file (List, Glob, Grep, Run). */
export function touchesNothing(): Promise<ToolTouches> {
	return Promise.resolve(NO_TOUCHES);
}

/** A file a call actually read (showed the model), wrote or deleted, with that whole text. */
export interface TouchedFile {
	/** Absolute, confined. */
	readonly path: string;
	readonly access: 'read' | 'written' | 'deleted';
	/** The text the model was shown (read) or that Aside wrote (written); '' for a deleted file. */
	readonly text: string;
}

export type ToolDetail =
	| { readonly kind: 'diff'; readonly path: string; readonly diff: string }
	| { readonly kind: 'command'; readonly command: string; readonly exitCode: number | null; readonly timedOut: boolean }
	| { readonly kind: 'file'; readonly path: string; readonly lines: number; readonly truncated: boolean };

/** What a person confirms before a write or a command runs (ask mode). */
export interface Confirmation {
	readonly title: string;
	/** A path or a command line. */
	readonly target: string;
	/** The unified diff a write would make, when there is one (every file's, one after another). */
	readonly diff?: string;
	/** What `diff` shows, when it is not the change the call makes ("Proposed change" otherwise). */
	readonly diffTitle?: string;
	/** A write's files, each with its text before and after: what the review opens in the diff editor. */
	readonly changes?: readonly FileChange[];
	/**
	 * Why this call must be confirmed in every permission mode, auto-edit included (a file with
	 * more than one hard link may also be a file outside the workspace). Undefined for the usual
	 * rule.
	 */
	readonly alwaysAsk?: string;
}

export interface FileStat {
	readonly type: 'file' | 'directory' | 'other';
	readonly size: number;
	readonly mtimeMs: number;
	/** How many names (hard links) the file has; undefined when the file system does not say. */
	readonly nlink?: number;
}

/** The workspace as tools see it. Paths are absolute, already confined by WorkspacePaths. */
export interface WorkspaceFs {
	stat(path: string): Promise<FileStat | undefined>;
	readFile(path: string): Promise<Uint8Array>;
	readDirectory(path: string): Promise<readonly { readonly name: string; readonly type: FileStat['type'] }[]>;
	/** The real path with symlinks resolved, or undefined when it does not exist. */
	realPath(path: string): Promise<string | undefined>;
}

/** Writes go through the editor's document model (undo, dirty state, diagnostics). */
export interface DocumentWriter {
	/** The text as the editor has it (an open, unsaved document wins over the disk). */
	readText(path: string): Promise<string | undefined>;
	/**
	 * Replaces the whole text of an existing file and saves it. With `expected`, only if the text
	 * is still that when the edit is applied; otherwise it throws StaleTextError and changes nothing.
	 */
	replace(path: string, text: string, expected?: string): Promise<void>;
	/** Creates a new file (and missing parent folders) with this text and saves it; never overwrites. */
	create(path: string, text: string): Promise<void>;
	/** Deletes a file, only if its text is still `expected`; otherwise it throws StaleTextError and deletes nothing. */
	delete(path: string, expected: string): Promise<void>;
}

export interface CommandOutcome {
	readonly output: string;
	readonly exitCode: number | null;
	readonly timedOut: boolean;
	/** True when output past the cap was dropped. */
	readonly truncated: boolean;
	/** The shell reported no exit code (a terminal's shell integration may not): `exitCode` is null, and unknown, not a signal's. */
	readonly exitUnknown?: boolean;
	/** The terminal it ran in ("Aside"), when it ran in one. */
	readonly terminal?: string;
	/** Why it ran as a child process instead of in the chat's terminal, when it did (run.shell-integration says so). */
	readonly fallback?: FallbackReason;
}

export interface CommandRunner {
	run(
		command: string,
		options: { readonly cwd: string; readonly timeoutMs: number; readonly maxOutputBytes: number; readonly signal: AbortSignal },
	): Promise<CommandOutcome>;
}

export interface TextSearchMatch {
	readonly path: string;
	readonly line: number;
	readonly text: string;
}

/** Files a search left out, by reason: how many, and the first few paths (absolute). */
export interface SkippedFiles {
	readonly count: number;
	readonly paths: readonly string[];
}

/** Why a search stopped before it had covered everything (the match cap is `truncated`). */
export type SearchCutShort =
	| { readonly reason: 'time-budget'; readonly budgetMs: number; readonly searching?: string }
	| { readonly reason: 'entry-limit'; readonly limit: number }
	| { readonly reason: 'cancelled' };

export interface TextSearchResult {
	readonly matches: readonly TextSearchMatch[];
	/** True when there were more matches than maxResults. */
	readonly truncated: boolean;
	/** What was not searched, as far as the search knows (ripgrep reports only unreadable files). */
	readonly skipped?: {
		readonly tooLarge?: SkippedFiles;
		readonly unreadable?: SkippedFiles;
		readonly unlistedFolders?: number;
		readonly binary?: number;
	};
	readonly cutShort?: SearchCutShort;
}

export interface TextSearch {
	search(
		pattern: string,
		options: {
			readonly roots: readonly string[];
			readonly glob?: string;
			readonly caseSensitive: boolean;
			readonly maxResults: number;
			readonly signal: AbortSignal;
		},
	): Promise<TextSearchResult>;
}

/** How a file's text now compares with what the agent last saw of it in this chat. */
export type SeenState = 'same' | 'changed' | 'unseen';

/**
 * The stale-write guard: what the agent last saw of each file in this chat (per chat and agent;
 * see src/observe/seenTexts.ts). Read tells it what it showed, Edit and Write what they wrote; Edit
 * and Write ask it before they change a file.
 */
export interface SeenFiles {
	saw(path: string, text: string): void;
	compare(path: string, text: string): SeenState;
	/** A sub-agent's own memory, by its owner path: the context of its calls carries this one. */
	agent(path: string): SeenFiles;
}

/** How far a running call is (an MCP server's `notifications/progress`): for the view only, never the model. */
export interface ToolProgress {
	readonly progress: number;
	readonly total?: number;
	readonly message?: string;
}

export interface ToolContext {
	/** The workspace folders, absolute. The first is where relative paths start. */
	readonly roots: readonly string[];
	readonly fs: WorkspaceFs;
	readonly writer: DocumentWriter;
	readonly runner: CommandRunner;
	readonly search: TextSearch;
	readonly seen: SeenFiles;
	readonly signal: AbortSignal;
	/** What the chat features hand the caller's tools, by key (the task list as TaskWrite and TaskList reach it); absent where there are none. */
	readonly features?: FeatureAccess;
	/** The chat's approved plan file, absolute: the one file outside the workspace folders Read, Edit, Write and ApplyPatch reach. */
	readonly planFile?: string;
	/** Keeps what a write call is about to change (src/checkpoints/): the running root turn's; absent where nothing is kept. */
	readonly checkpoint?: CheckpointRecorder;
	/** Where a running call says how far it is: its row in the chat shows it; absent where nothing shows it. */
	readonly progress?: (update: ToolProgress) => void;
	/** Where an output too big for the context is kept whole, for Read to open (keptOutputs.ts); absent where nothing is kept. */
	readonly outputs?: KeptOutputs;
}

export interface Tool<I = unknown> {
	readonly name: string;
	/** What the model reads about the tool; the contract, said once. */
	readonly description: string;
	readonly kind: ToolKind;
	readonly input: z.ZodType<I>;
	/**
	 * The JSON Schema the model is shown instead of `input`'s, for a tool whose schema comes from
	 * elsewhere (an MCP server's); `input` still checks each call.
	 */
	readonly inputSchema?: Readonly<Record<string, unknown>>;
	/** For ask mode: what the person is asked to allow. Read tools have none. */
	confirm?(input: I, context: ToolContext): Promise<Confirmation>;
	/**
	 * A tool that changes files plans the change first (changes.ts): every file, its text before
	 * and after. `confirm` and `run` are that plan shown and applied; a reviewed call applies the
	 * plan the person saw, with their revision of it.
	 */
	plan?(input: I, context: ToolContext): Promise<ChangePlan>;
	/**
	 * The files this call will show the model or write, asked once per call right before it runs
	 * (after any permission was granted; see declareTouches). Every file `run` reports in `touched`
	 * must be declared here; a tool that touches no named file uses `touchesNothing`.
	 */
	touches(input: I, context: ToolContext): Promise<ToolTouches>;
	run(input: I, context: ToolContext): Promise<ToolResult>;
	/**
	 * A stand-in (McpCall: an MCP tool called by server and name while the MCP tools are deferred):
	 * each call is hooked, decided, asked and run as the tool it names, with that tool's input.
	 */
	readonly standsFor?: StandIn;
}

/** What a stand-in tool calls: the tool a call names, or why there is none. */
export interface StandIn {
	resolve(input: unknown): { readonly tool: Tool; readonly input: unknown } | string;
	/** The same stand-in, resolving only to the tools `keep` lets through (plan mode, a profile's tools); undefined when none does now. */
	narrow(keep: (tool: Tool) => boolean): Tool | undefined;
}

/** The tools `keep` lets through; a stand-in is narrowed to the tools it stands for that `keep` lets through. */
export function keepTools(tools: readonly Tool[], keep: (tool: Tool) => boolean): Tool[] {
	return tools.flatMap((tool) => {
		const narrowed = tool.standsFor ? tool.standsFor.narrow(keep) : keep(tool) ? tool : undefined;
		return narrowed ? [narrowed] : [];
	});
}
