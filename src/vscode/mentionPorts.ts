// What `@problems`, `@selection` and `@changes` read in VS Code: the languages' diagnostics, the
// active editor's selection, and the working tree's diff through the built-in git extension's API
// (`vscode.git`, API version 1), never by running git ourselves.
import * as vscode from 'vscode';
import { rankCandidates } from '../mentions/candidates';
import type { MentionCandidate } from '../protocol/mentions';
import type { EditorSelection, FileProblems } from '../mentions/ports';
import type { ChangesResult } from '../reminders/builtin/mentions';
import { toDiagnosticEntry } from './diagnosticsSource';
import { workspaceRoots } from './toolHost';

/** The part of the git extension's API (its `git.d.ts`) that `@changes` uses. */
interface GitChange {
	readonly uri: vscode.Uri;
	readonly status: number;
}
interface GitRepository {
	readonly rootUri: vscode.Uri;
	readonly state: { readonly workingTreeChanges: readonly GitChange[] };
	diff(cached?: boolean): Promise<string>;
	/** Refreshes `state` (it otherwise follows the file watcher, a moment late). */
	status(): Promise<void>;
}
interface GitApi {
	readonly state: 'uninitialized' | 'initialized';
	readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
	getRepository(uri: vscode.Uri): GitRepository | null;
	openRepository?(root: vscode.Uri): Promise<GitRepository | null>;
}
interface GitExtension {
	readonly enabled: boolean;
	getAPI(version: 1): GitApi;
}

/** `Status.UNTRACKED` in the git extension's API. */
const UNTRACKED = 7;

export function workspaceProblems(): FileProblems[] {
	return vscode.languages
		.getDiagnostics()
		.filter(([uri]) => uri.scheme === 'file')
		.map(([uri, diagnostics]) => ({ path: uri.fsPath, entries: diagnostics.map(toDiagnosticEntry) }));
}

export function editorSelection(): EditorSelection | undefined {
	const editor = vscode.window.activeTextEditor;
	if (!editor || editor.document.uri.scheme !== 'file' || editor.selection.isEmpty) {
		return undefined;
	}
	const { start, end } = editor.selection;
	// A selection ending at column 0 of a line does not take that line.
	const endLine = end.character === 0 && end.line > start.line ? end.line : end.line + 1;
	return { path: editor.document.uri.fsPath, startLine: start.line + 1, endLine, text: editor.document.getText(editor.selection) };
}

async function gitApi(signal: AbortSignal): Promise<GitApi | string> {
	const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
	if (!extension) {
		return 'the built-in Git extension is not installed.';
	}
	const exports = extension.isActive ? extension.exports : await extension.activate();
	if (!exports.enabled) {
		return 'the built-in Git extension is disabled (git.enabled is off).';
	}
	const api = exports.getAPI(1);
	if (api.state !== 'initialized') {
		await new Promise<void>((resolve, reject) => {
			const stop = (): void => {
				listener.dispose();
				reject(signal.reason as Error);
			};
			const listener = api.onDidChangeState((state) => {
				if (state === 'initialized') {
					listener.dispose();
					signal.removeEventListener('abort', stop);
					resolve();
				}
			});
			signal.addEventListener('abort', stop, { once: true });
		});
	}
	return api;
}

export async function workingTreeChanges(signal: AbortSignal): Promise<ChangesResult> {
	const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
	if (folders.length === 0) {
		return { kind: 'unavailable', why: 'no workspace folder is open.' };
	}
	const api = await gitApi(signal);
	if (typeof api === 'string') {
		return { kind: 'unavailable', why: api };
	}
	const repositories = new Map<string, GitRepository>();
	for (const folder of folders) {
		signal.throwIfAborted();
		// A repository git has not opened yet (a folder just initialised) is opened on demand.
		const repository = api.getRepository(folder.uri) ?? (await api.openRepository?.(folder.uri)) ?? null;
		if (repository) {
			repositories.set(repository.rootUri.fsPath, repository);
		}
	}
	if (repositories.size === 0) {
		return { kind: 'unavailable', why: `no git repository holds the workspace folders (${workspaceRoots().join(', ')}).` };
	}
	const result = [];
	for (const [root, repository] of repositories) {
		signal.throwIfAborted();
		await repository.status();
		const diffs = [await repository.diff(true), await repository.diff(false)].filter((diff) => diff.trim() !== '');
		const untracked = repository.state.workingTreeChanges
			.filter((change) => change.status === UNTRACKED)
			.map((change) => vscode.workspace.asRelativePath(change.uri, false));
		result.push({ root, diff: diffs.join('\n'), cut: false, untracked });
	}
	return { kind: 'diff', repositories: result };
}

/** The most workspace files the `@` list ranks (the files VS Code finds first, its excludes applied). */
const MAX_LISTED_FILES = 5000;

/** The composer's `@` list: workspace files and folders matching `query`, best first, bounded and cancellable. */
export async function workspaceMentionCandidates(query: string, signal: AbortSignal): Promise<MentionCandidate[]> {
	const cancel = new vscode.CancellationTokenSource();
	const stop = (): void => {
		cancel.cancel();
	};
	signal.addEventListener('abort', stop, { once: true });
	try {
		const uris = await vscode.workspace.findFiles('**/*', undefined, MAX_LISTED_FILES, cancel.token);
		const files = uris.filter((uri) => uri.scheme === 'file').map((uri) => vscode.workspace.asRelativePath(uri, false).split('\\').join('/'));
		return rankCandidates(query, files);
	} finally {
		signal.removeEventListener('abort', stop);
		cancel.dispose();
	}
}
