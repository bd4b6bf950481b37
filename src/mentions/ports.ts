// What expanding a message's mentions reads, as plain data behind small functions: the workspace
// files, the chat's kept records, and the editor's and the git extension's state now. Their VS Code
// side is src/vscode/mentionPorts.ts; apart from expand.ts so each kind of mention reads only these.
import type { DiagnosticEntry } from '../observe/diagnostics';
import type { ChangesResult } from '../reminders/builtin/mentions';
import type { RecordLike } from '../reminders/history';
import type { WorkspaceFs } from '../tools/tool';
import type { WindowMentionKind } from './kinds';

/** The editor's selection, as plain data. */
export interface EditorSelection {
	/** Absolute. */
	readonly path: string;
	/** 1-based, inclusive. */
	readonly startLine: number;
	readonly endLine: number;
	readonly text: string;
}

/** The problems of one file. */
export interface FileProblems {
	/** Absolute. */
	readonly path: string;
	readonly entries: readonly DiagnosticEntry[];
}

/** What mentions read beside files: the editor's and the git extension's state now. */
export interface MentionPorts {
	readonly fs: WorkspaceFs;
	readonly roots: () => readonly string[];
	/** The current chat's kept records (what a request replays): what it was given. */
	readonly records: () => Iterable<RecordLike>;
	readonly problems: () => readonly FileProblems[];
	readonly selection: () => EditorSelection | undefined;
	/** The working tree's diff per repository, unbounded (bounded here), or why there is none. */
	readonly changes: (signal: AbortSignal) => Promise<ChangesResult>;
	/** `aside.reminders.<type>.enabled`: a kind turned off expands to nothing, and marks nothing as given. */
	readonly isEnabled?: (type: string) => boolean;
	/** The chat features' kinds of mention (`@mcp:server/uri`), in this window. */
	readonly kinds?: readonly WindowMentionKind[];
}
