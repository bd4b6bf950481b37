// The reminder language server (dist/reminderServer.js): started over IPC by Aside's language
// client for `.aside/reminders/*.md` only (src/vscode/reminderLanguage.ts). Diagnostics as the
// person types, for the edited file and the folder's other files (collisions); completion and
// hover; the key line's code lenses. Everything it knows of the running Aside comes through the
// custom messages of src/workspaceReminders/serverProtocol.ts.
import { dirname } from 'node:path';
import { CodeLensRefreshRequest, CompletionItemKind, DiagnosticSeverity, MarkupKind, ProposedFeatures, TextDocuments, TextDocumentSyncKind, createConnection, type Diagnostic } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { completionsAt, hoverAt, type CompletionKind } from '../workspaceReminders/editing';
import { keyLenses } from '../workspaceReminders/lenses';
import type { AnalyzedReminderFile } from '../workspaceReminders/reminderFile';
import { PREVIEW_COMMAND, REMINDER_STATS, ReminderStatsMessage, ReminderVocabularyMessage, VOCABULARY_REQUEST, type ReminderStat } from '../workspaceReminders/serverProtocol';
import type { ReminderFileProblem } from '../workspaceReminders/spec';
import { BUILTIN_VOCABULARY, type ReminderVocabulary } from '../workspaceReminders/vocabulary';
import { ParseCache, analyzeFolder, reminderPathOf } from './folders';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

let vocabulary: ReminderVocabulary = BUILTIN_VOCABULARY;
let stats: Readonly<Record<string, ReminderStat>> = {};
let canRefreshLenses = false;
/** The last analysis of each file, by path (completion needs none; lenses and folders do). */
const analyses = new Map<string, AnalyzedReminderFile>();
/** The URIs each folder last published diagnostics for, to clear those of a file that went away. */
const published = new Map<string, Set<string>>();
const parses = new ParseCache();

const COMPLETION_KINDS: Record<CompletionKind, CompletionItemKind> = {
	field: CompletionItemKind.Property,
	value: CompletionItemKind.EnumMember,
	placeholder: CompletionItemKind.Variable,
};

function diagnosticOf(problem: ReminderFileProblem): Diagnostic {
	return { range: problem.range, severity: problem.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning, code: problem.code, source: 'aside', message: problem.message };
}

function openFiles(): Map<string, { readonly uri: string; readonly text: string }> {
	const open = new Map<string, { readonly uri: string; readonly text: string }>();
	for (const document of documents.all()) {
		const path = reminderPathOf(document.uri);
		if (path !== undefined) {
			open.set(path, { uri: document.uri, text: document.getText() });
		}
	}
	return open;
}

/** Parses every file of `folder` and publishes each one's problems (an empty list clears them). */
function validateFolder(folder: string): void {
	const files = analyzeFolder(folder, openFiles(), vocabulary, parses);
	for (const path of analyses.keys()) {
		if (dirname(path) === folder && !files.some((file) => file.path === path)) {
			analyses.delete(path);
		}
	}
	const uris = new Set<string>();
	for (const file of files) {
		analyses.set(file.path, file.parsed);
		uris.add(file.uri);
		void connection.sendDiagnostics({ uri: file.uri, diagnostics: file.parsed.problems.map(diagnosticOf) });
	}
	for (const uri of published.get(folder) ?? []) {
		if (!uris.has(uri)) {
			void connection.sendDiagnostics({ uri, diagnostics: [] });
		}
	}
	published.set(folder, uris);
}

function validateAll(): void {
	const folders = new Set<string>(published.keys());
	for (const path of openFiles().keys()) {
		folders.add(dirname(path));
	}
	for (const folder of folders) {
		validateFolder(folder);
	}
	refreshLenses();
}

function refreshLenses(): void {
	if (canRefreshLenses) {
		void connection.sendRequest(CodeLensRefreshRequest.type);
	}
}

async function askVocabulary(): Promise<void> {
	try {
		const answer = ReminderVocabularyMessage.safeParse(await connection.sendRequest(VOCABULARY_REQUEST));
		if (answer.success) {
			vocabulary = answer.data;
			validateAll();
		} else {
			connection.console.warn(`Aside's vocabulary answer was not understood; the built-in one stays: ${answer.error.message}`);
		}
	} catch (error) {
		connection.console.warn(`Aside did not answer ${VOCABULARY_REQUEST}; the built-in vocabulary stays: ${(error as Error).message}`);
	}
}

connection.onInitialize((params) => {
	canRefreshLenses = params.capabilities.workspace?.codeLens?.refreshSupport === true;
	return {
		capabilities: {
			textDocumentSync: TextDocumentSyncKind.Incremental,
			completionProvider: { triggerCharacters: ['{', ':', ' '] },
			hoverProvider: true,
			codeLensProvider: {},
		},
	};
});

connection.onInitialized(() => {
	void askVocabulary();
});

documents.onDidOpen(({ document }) => {
	if (reminderPathOf(document.uri) !== undefined) {
		void askVocabulary();
	}
});

connection.onNotification(REMINDER_STATS, (params: unknown) => {
	const message = ReminderStatsMessage.safeParse(params);
	if (message.success) {
		stats = message.data.stats;
		refreshLenses();
	}
});

documents.onDidChangeContent(({ document }) => {
	const path = reminderPathOf(document.uri);
	if (path !== undefined) {
		validateFolder(dirname(path));
	}
});

documents.onDidClose(({ document }) => {
	// The file on disk may differ from the closed editor's text: the folder is checked from disk again.
	const path = reminderPathOf(document.uri);
	if (path !== undefined) {
		validateFolder(dirname(path));
	}
});

connection.onDidChangeWatchedFiles(({ changes }) => {
	const folders = new Set<string>();
	for (const change of changes) {
		const path = reminderPathOf(change.uri);
		if (path !== undefined) {
			folders.add(dirname(path));
		}
	}
	for (const folder of folders) {
		validateFolder(folder);
	}
});

connection.onCompletion(({ textDocument, position }) => {
	const document = documents.get(textDocument.uri);
	const path = reminderPathOf(textDocument.uri);
	if (!document || path === undefined) {
		return [];
	}
	const stem = /([^\\/]+)\.md$/.exec(path)?.[1];
	return completionsAt(document.getText(), position, { vocabulary, ...(stem === undefined ? {} : { fileStem: stem }) }).map((item) => ({
		label: item.label,
		kind: COMPLETION_KINDS[item.kind],
		textEdit: { range: item.range, newText: item.insertText },
		...(item.detail === undefined ? {} : { detail: item.detail }),
		...(item.documentation === undefined ? {} : { documentation: { kind: MarkupKind.Markdown, value: item.documentation } }),
	}));
});

connection.onHover(({ textDocument, position }) => {
	const document = documents.get(textDocument.uri);
	if (!document || reminderPathOf(textDocument.uri) === undefined) {
		return null;
	}
	const hover = hoverAt(document.getText(), position);
	return hover ? { contents: { kind: MarkupKind.Markdown, value: hover.contents }, range: hover.range } : null;
});

connection.onCodeLens(({ textDocument }) => {
	const path = reminderPathOf(textDocument.uri);
	const parsed = path === undefined ? undefined : analyses.get(path);
	if (!parsed) {
		return [];
	}
	return keyLenses(parsed, stats).map((lens) => ({
		range: lens.range,
		// A lens with no command id is shown as text only.
		command: lens.preview ? { title: lens.title, command: PREVIEW_COMMAND, arguments: [textDocument.uri] } : { title: lens.title, command: '' },
	}));
});

documents.listen(connection);
connection.listen();
