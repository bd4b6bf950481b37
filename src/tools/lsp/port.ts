// What the LSP tool asks of the editor's language features (VS Code's `vscode.execute*` commands,
// its call hierarchy, its diagnostics): a port the tool reaches through its context's features
// (LANGUAGE_FEATURES, granted by src/features/lsp/), implemented in src/vscode/languageFeatures.ts
// and by a fake beside the specs. Paths are absolute file paths; lines and characters 0-based, as
// the editor counts them (characters in UTF-16 code units).
import type { DiagnosticEntry } from '../../observe/diagnostics';
import { featureAccessKey } from '../featureAccess';

export interface CodePosition {
	readonly line: number;
	readonly character: number;
}

export interface CodeRange {
	readonly start: CodePosition;
	readonly end: CodePosition;
}

/** A place in a file. `path` is absolute; a place in no file on disk (an `untitled:` document, a virtual one) keeps its URI there. */
export interface CodeLocation {
	readonly path: string;
	readonly range: CodeRange;
}

/** A symbol as a document or the workspace lists it: where its name is (`location`), what kind, inside what. */
export interface CodeSymbol {
	readonly name: string;
	/** The editor's word for its kind: "Function", "Class", "Method" … */
	readonly kind: string;
	readonly container?: string;
	readonly location: CodeLocation;
	/** How deep in its document's outline (0: top level); undefined for a workspace symbol. */
	readonly depth?: number;
}

/** A caller (incoming) or a callee (outgoing) in the call hierarchy, with the places of the calls. */
export interface CodeCall {
	readonly symbol: CodeSymbol;
	/** Where the calls are: in the caller's file for an incoming call, in the asked function's file for an outgoing one. */
	readonly calls: readonly CodeLocation[];
}

/** One file's text edits of a rename (ranges in the text the provider saw). */
export interface CodeFileEdit {
	readonly path: string;
	readonly edits: readonly { readonly range: CodeRange; readonly newText: string }[];
}

/** What a rename provider answered: the edits, or why there are none (the provider's own message). */
export type CodeRename = { readonly ok: true; readonly files: readonly CodeFileEdit[] } | { readonly ok: false; readonly reason: string };

/** A file's language, and the installed extensions with code that activate on it. */
export interface CodeLanguage {
	/** The language id ("typescript", "plaintext"). */
	readonly id: string;
	/** Its name as the extension contributing it says ("TypeScript"), else the id. */
	readonly name: string;
	/** Extensions with code that activate on it (explicitly, or implicitly by contributing it); empty when none does. */
	readonly providers: readonly string[];
}

export interface FileProblems {
	readonly path: string;
	readonly problems: readonly DiagnosticEntry[];
}

export interface LanguageFeatures {
	/** The file's language as the editor opens it; undefined when it cannot be opened as text. */
	language(path: string): Promise<CodeLanguage | undefined>;
	/** The file's lines as the editor has them (unsaved changes included); undefined when it cannot be read. */
	lines(path: string): Promise<readonly string[] | undefined>;
	definition(path: string, at: CodePosition): Promise<readonly CodeLocation[]>;
	references(path: string, at: CodePosition): Promise<readonly CodeLocation[]>;
	implementation(path: string, at: CodePosition): Promise<readonly CodeLocation[]>;
	/** Each hover's contents as markdown text. */
	hover(path: string, at: CodePosition): Promise<readonly string[]>;
	/** The document's outline, flattened in order (parents before their children, with `depth`). */
	documentSymbols(path: string): Promise<readonly CodeSymbol[]>;
	workspaceSymbols(query: string): Promise<readonly CodeSymbol[]>;
	incomingCalls(path: string, at: CodePosition): Promise<readonly CodeCall[]>;
	outgoingCalls(path: string, at: CodePosition): Promise<readonly CodeCall[]>;
	/** The current problems of one file, or of every file that has any. */
	diagnostics(path?: string): Promise<readonly FileProblems[]>;
	rename(path: string, at: CodePosition, newName: string): Promise<CodeRename>;
}

/** The key under which the lsp feature hands the tool the window's language features. */
export const LANGUAGE_FEATURES = featureAccessKey<LanguageFeatures>('lsp');
