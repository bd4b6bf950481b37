// The editor's language features as the LSP tool's port (src/tools/lsp/port.ts): VS Code's
// `vscode.execute*Provider` commands, its call hierarchy (`vscode.prepareCallHierarchy`,
// `vscode.provideIncomingCalls` / `provideOutgoingCalls`), its diagnostics, and the rename provider's
// WorkspaceEdit as per-file text edits. Which extensions serve a language is languageProviders.ts.
import * as vscode from 'vscode';
import type { CodeCall, CodeLocation, CodePosition, CodeRange, CodeRename, CodeSymbol, FileProblems, LanguageFeatures } from '../tools/lsp/port';
import { toDiagnosticEntry } from './diagnosticsSource';
import { languageOf } from './languageProviders';

/** The most bytes of a file not open in the editor read for the text beside a place. */
const MAX_READ_BYTES = 4 * 1024 * 1024;

function uriOf(path: string): vscode.Uri {
	return /^[a-z][a-z0-9+.-]+:/i.test(path) && !/^[a-z]:[\\/]/i.test(path) ? vscode.Uri.parse(path) : vscode.Uri.file(path);
}

function pathOf(uri: vscode.Uri): string {
	return uri.scheme === 'file' ? uri.fsPath : uri.toString();
}

const positionOf = (at: CodePosition) => new vscode.Position(at.line, at.character);
const rangeOf = (range: vscode.Range): CodeRange => ({
	start: { line: range.start.line, character: range.start.character },
	end: { line: range.end.line, character: range.end.character },
});

function locationOf(found: vscode.Location | vscode.LocationLink): CodeLocation {
	return 'targetUri' in found
		? { path: pathOf(found.targetUri), range: rangeOf(found.targetSelectionRange ?? found.targetRange) }
		: { path: pathOf(found.uri), range: rangeOf(found.range) };
}

// A kind a newer provider sends that this VS Code has no name for is still a symbol.
const SYMBOL_KINDS: Readonly<Record<number, string | undefined>> = vscode.SymbolKind;
const kindName = (kind: vscode.SymbolKind): string => SYMBOL_KINDS[kind] ?? 'Symbol';

function itemSymbol(item: vscode.CallHierarchyItem): CodeSymbol {
	const location = { path: pathOf(item.uri), range: rangeOf(item.selectionRange) };
	return { name: item.name, kind: kindName(item.kind), ...(item.detail ? { container: item.detail } : {}), location };
}

type OutlineEntry = vscode.DocumentSymbol | vscode.SymbolInformation;

/** The outline in order, parents first; DocumentSymbols (with children) or flat SymbolInformation, as the provider gave. */
function flatten(entries: readonly OutlineEntry[], uri: vscode.Uri, depth: number, container: string | undefined, into: CodeSymbol[]): CodeSymbol[] {
	const sorted = [...entries].sort((a, b) => rangeStart(a).compareTo(rangeStart(b)));
	for (const entry of sorted) {
		const range = 'selectionRange' in entry ? entry.selectionRange : entry.location.range;
		const within = 'containerName' in entry && entry.containerName ? entry.containerName : container;
		const location = { path: pathOf(uri), range: rangeOf(range) };
		into.push({ name: entry.name, kind: kindName(entry.kind), ...(within ? { container: within } : {}), location, depth });
		if ('children' in entry && Array.isArray(entry.children) && entry.children.length > 0) {
			flatten(entry.children, uri, depth + 1, entry.name, into);
		}
	}
	return into;
}

function rangeStart(entry: OutlineEntry): vscode.Position {
	return 'selectionRange' in entry ? entry.range.start : entry.location.range.start;
}

/** A hover's content as markdown: a MarkdownString's value, or an older plain or `{ language, value }` string. */
function hoverText(content: unknown): string {
	if (typeof content === 'string') {
		return content;
	}
	const { language, value } = (content ?? {}) as { language?: unknown; value?: unknown };
	const text = typeof value === 'string' ? value : '';
	return typeof language === 'string' ? `\`\`\`${language}\n${text}\n\`\`\`` : text;
}

async function execute<T>(command: string, ...args: unknown[]): Promise<T | undefined> {
	return vscode.commands.executeCommand<T | undefined>(command, ...args);
}

/**
 * The file's URI, its document opened first: a language server answers for the documents the
 * editor has open (TypeScript's rename of a file whose editor was just closed failed with
 * "Unexpected type" without it).
 */
async function opened(path: string): Promise<vscode.Uri> {
	const uri = uriOf(path);
	await vscode.workspace.openTextDocument(uri).then(undefined, () => undefined);
	return uri;
}

async function callItems(path: string, at: CodePosition): Promise<readonly vscode.CallHierarchyItem[]> {
	const items = await execute<vscode.CallHierarchyItem[]>('vscode.prepareCallHierarchy', await opened(path), positionOf(at));
	return items ?? [];
}

async function lines(path: string): Promise<readonly string[] | undefined> {
	const uri = uriOf(path);
	const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
	if (open) {
		return open.getText().split(/\r\n|\r|\n/);
	}
	try {
		const stat = await vscode.workspace.fs.stat(uri);
		if (stat.size > MAX_READ_BYTES) {
			return undefined;
		}
		return new TextDecoder('utf-8', { fatal: true }).decode(await vscode.workspace.fs.readFile(uri)).split(/\r\n|\r|\n/);
	} catch {
		return undefined;
	}
}

function problems(path: string | undefined): readonly FileProblems[] {
	if (path !== undefined) {
		const uri = uriOf(path);
		return [{ path: pathOf(uri), problems: vscode.languages.getDiagnostics(uri).map(toDiagnosticEntry) }];
	}
	return vscode.languages.getDiagnostics().map(([uri, found]) => ({ path: pathOf(uri), problems: found.map(toDiagnosticEntry) }));
}

async function rename(path: string, at: CodePosition, newName: string): Promise<CodeRename> {
	let edit: vscode.WorkspaceEdit | undefined;
	try {
		edit = await execute<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', await opened(path), positionOf(at), newName);
	} catch (error) {
		// The provider's own words ("You cannot rename this element."): the command rejects with them.
		return { ok: false, reason: error instanceof Error ? error.message : String(error) };
	}
	if (!edit) {
		return { ok: true, files: [] };
	}
	const files = edit.entries().map(([uri, edits]) => ({
		path: pathOf(uri),
		edits: edits.map((text) => ({ range: rangeOf(text.range), newText: text.newText })),
	}));
	return { ok: true, files: files.filter((file) => file.edits.length > 0) };
}

/** The window's language features, as the LSP tool asks them. */
export function vscodeLanguageFeatures(): LanguageFeatures {
	const places = (command: string) => async (path: string, at: CodePosition) =>
		((await execute<(vscode.Location | vscode.LocationLink)[]>(command, await opened(path), positionOf(at))) ?? []).map(locationOf);
	return {
		language: (path) => languageOf(uriOf(path)),
		lines,
		definition: places('vscode.executeDefinitionProvider'),
		references: places('vscode.executeReferenceProvider'),
		implementation: places('vscode.executeImplementationProvider'),
		hover: async (path, at) => {
			const hovers = (await execute<vscode.Hover[]>('vscode.executeHoverProvider', await opened(path), positionOf(at))) ?? [];
			return hovers.flatMap((hover) => (hover.contents as readonly unknown[]).map(hoverText));
		},
		documentSymbols: async (path) => {
			const uri = await opened(path);
			return flatten((await execute<OutlineEntry[]>('vscode.executeDocumentSymbolProvider', uri)) ?? [], uri, 0, undefined, []);
		},
		workspaceSymbols: async (query) =>
			((await execute<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query)) ?? []).map((symbol) => ({
				name: symbol.name,
				kind: kindName(symbol.kind),
				...(symbol.containerName ? { container: symbol.containerName } : {}),
				location: { path: pathOf(symbol.location.uri), range: rangeOf(symbol.location.range) },
			})),
		incomingCalls: async (path, at) => {
			const calls: CodeCall[] = [];
			for (const item of await callItems(path, at)) {
				for (const call of (await execute<vscode.CallHierarchyIncomingCall[]>('vscode.provideIncomingCalls', item)) ?? []) {
					const places = call.fromRanges.map((range) => ({ path: pathOf(call.from.uri), range: rangeOf(range) }));
					calls.push({ symbol: itemSymbol(call.from), calls: places });
				}
			}
			return calls;
		},
		outgoingCalls: async (path, at) => {
			const calls: CodeCall[] = [];
			for (const item of await callItems(path, at)) {
				for (const call of (await execute<vscode.CallHierarchyOutgoingCall[]>('vscode.provideOutgoingCalls', item)) ?? []) {
					calls.push({ symbol: itemSymbol(call.to), calls: call.fromRanges.map((range) => ({ path: pathOf(item.uri), range: rangeOf(range) })) });
				}
			}
			return calls;
		},
		diagnostics: (path) => Promise.resolve(problems(path)),
		rename,
	};
}
