// The reminder language server in a real workbench: the packaged dist/reminderServer.js started by
// Aside's client when a `.aside/reminders/*.md` opens, its problems in the Problems view's source
// (vscode.languages.getDiagnostics), cleared by an edit, and its completion of policy values.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { waitForEvent } from '../../src/base/event';
import type { PreviewVerdict } from '../../src/workspaceReminders/previewVerdict';
import { PREVIEW_COMMAND } from '../../src/workspaceReminders/serverProtocol';
import { activeAside, workspaceFile } from './support';

const BAD = '---\nkey: bad key\npolcy: sometimes\n---\nMatched {{file}}.\n';
const GOOD = '---\nkey: migrations\npolicy: once\n---\nMatched {{files}}.\n';

const codeOf = (diagnostic: vscode.Diagnostic): string => {
	const { code } = diagnostic;
	return typeof code === 'object' ? String(code.value) : String(code);
};
const asideProblems = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === 'aside');

/** Resolves once the diagnostics of `uri` satisfy `done` (now, or at a later change). */
function diagnosticsOf(uri: vscode.Uri, done: (problems: vscode.Diagnostic[]) => boolean, what: string): Promise<vscode.Diagnostic[]> {
	if (done(asideProblems(uri))) {
		return Promise.resolve(asideProblems(uri));
	}
	const changed = (listener: (uris: readonly vscode.Uri[]) => void) => vscode.languages.onDidChangeDiagnostics((event) => {
		listener(event.uris);
	});
	return waitForEvent(
		changed,
		(uris) => uris.some((changedUri) => changedUri.toString() === uri.toString()) && done(asideProblems(uri)),
		90_000,
		what,
	).then(() => asideProblems(uri));
}

describe('the workspace reminder language server', () => {
	const folder = workspaceFile('.aside/reminders');
	const bad = workspaceFile('.aside/reminders/bad.md');

	before(async () => {
		await activeAside();
		mkdirSync(folder.fsPath, { recursive: true });
		writeFileSync(bad.fsPath, BAD);
	});

	after(async () => {
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		rmSync(folder.fsPath, { recursive: true, force: true });
	});

	it('ships its own bundle in the .vsix', async () => {
		const { extension } = await activeAside();
		assert.ok(readFileSync(join(extension.extensionUri.fsPath, 'dist', 'reminderServer.js')).length > 0);
	});

	it('shows a broken file\'s problems in the Problems view, each where it is', async () => {
		const shown = diagnosticsOf(bad, (problems) => problems.length >= 3, 'the problems of bad.md');
		await vscode.window.showTextDocument(bad);
		const problems = await shown;
		const byCode = new Map(problems.map((problem) => [codeOf(problem), problem]));
		assert.deepEqual([...byCode.keys()].sort(), ['invalid-key', 'unknown-field', 'unknown-placeholder']);
		assert.match(byCode.get('unknown-field')?.message ?? '', /Did you mean "policy"\?/);
		assert.equal(byCode.get('unknown-field')?.severity, vscode.DiagnosticSeverity.Error);
		assert.deepEqual([byCode.get('invalid-key')?.range.start.line, byCode.get('invalid-key')?.range.start.character], [1, 5]);
		assert.equal(byCode.get('unknown-placeholder')?.range.start.line, 4);
	});

	it('clears them when an edit fixes the file (unsaved)', async () => {
		const document = await vscode.workspace.openTextDocument(bad);
		assert.ok(asideProblems(bad).length > 0, 'the broken file has problems to clear');
		const cleared = diagnosticsOf(bad, (problems) => problems.length === 0, 'the problems of bad.md to clear');
		const edit = new vscode.WorkspaceEdit();
		edit.replace(bad, new vscode.Range(0, 0, document.lineCount, 0), GOOD);
		assert.ok(await vscode.workspace.applyEdit(edit));
		await cleared;
		assert.equal(document.isDirty, true);
	});

	it('puts the chat\'s count and Preview on the key; Preview shows the block as it goes on the wire, read-only', async () => {
		const lensesOf = async () => (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', bad)).filter((lens) => lens.command !== undefined);
		const lenses = await lensesOf();
		assert.deepEqual(lenses.map((lens) => lens.command?.title), ['not sent in this chat', 'Preview']);
		assert.equal(lenses[0]?.range.start.line, 1);
		const preview = lenses[1]?.command;
		assert.ok(preview);
		const opened = waitForEvent((listener: (editor: vscode.TextEditor | undefined) => void) => vscode.window.onDidChangeActiveTextEditor(listener), (editor) => editor?.document.uri.scheme === 'aside-reminder-preview', 30_000, 'the preview');
		await vscode.commands.executeCommand(preview.command, ...((preview.arguments ?? []) as unknown[]));
		const editor = await opened;
		assert.equal(editor?.document.getText(), '<system-reminder key="workspace.migrations">\nMatched .\n</system-reminder>');
		await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
	});

	it('offers the policy values after policy:', async () => {
		const document = await vscode.workspace.openTextDocument(bad);
		const line = document.getText().split('\n').findIndex((text) => text.startsWith('policy:'));
		const edit = new vscode.WorkspaceEdit();
		edit.replace(bad, document.lineAt(line).range, 'policy: ');
		assert.ok(await vscode.workspace.applyEdit(edit));
		const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', bad, new vscode.Position(line, 'policy: '.length));
		const labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
		for (const policy of ['every', 'on-change', 'once', '"interval: 5"']) {
			assert.ok(labels.includes(policy), `${policy} is offered (got ${labels.join(', ')})`);
		}
	});
});

describe('Preview Workspace Reminder\'s verdict', () => {
	const folder = workspaceFile('.aside/reminders');
	const first = workspaceFile('.aside/reminders/twin-a.md');
	const second = workspaceFile('.aside/reminders/twin-b.md');
	const broken = workspaceFile('.aside/reminders/broken.md');
	const preview = (uri: vscode.Uri) => vscode.commands.executeCommand<PreviewVerdict | undefined>(PREVIEW_COMMAND, uri.toString());
	const named = (problems: readonly { code?: unknown; message: string; line: number }[]) => problems.map(({ code, message, line }) => `${String(code)} ${line}: ${message}`).sort();

	before(async () => {
		await activeAside();
		mkdirSync(folder.fsPath, { recursive: true });
		// Each file is fine alone; together they declare one key, which the server shows on both.
		writeFileSync(first.fsPath, '---\nkey: twin\n---\nThe first.\n');
		writeFileSync(second.fsPath, '---\nkey: twin\n---\nThe second.\n');
		writeFileSync(broken.fsPath, BAD);
	});

	after(async () => {
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		rmSync(folder.fsPath, { recursive: true, force: true });
	});

	for (const [which, uri, done] of [
		['a file whose key another file declares', first, (problems: vscode.Diagnostic[]) => problems.some((problem) => codeOf(problem) === 'key-collision')],
		['a broken file', broken, (problems: vscode.Diagnostic[]) => problems.length >= 3],
	] as const) {
		it(`refuses ${which}, naming exactly the problems the Problems view shows on it`, async () => {
			const shown = diagnosticsOf(uri, done, `the problems of ${uri.path}`);
			await vscode.window.showTextDocument(uri);
			const diagnostics = await shown;
			const verdict = await preview(uri);
			if (verdict?.kind !== 'not-sent') {
				assert.fail(`no preview of ${uri.path}, but ${JSON.stringify(verdict)}`);
			}
			assert.deepEqual(
				named(verdict.problems.map((problem) => ({ code: problem.code, message: problem.message, line: problem.range.start.line }))),
				named(diagnostics.map((diagnostic) => ({ code: codeOf(diagnostic), message: diagnostic.message, line: diagnostic.range.start.line }))),
			);
			assert.notEqual(vscode.window.activeTextEditor?.document.uri.scheme, 'aside-reminder-preview', 'no preview opened');
		});
	}

	it('refuses an ordinary file as not a reminder file, claiming no problems (it has none in the Problems view)', async () => {
		const ordinary = workspaceFile('src/greeting.ts');
		await vscode.window.showTextDocument(ordinary);
		const verdict = await preview(ordinary);
		assert.deepEqual(verdict, { kind: 'not-a-reminder-file' });
		assert.deepEqual(asideProblems(ordinary), [], 'and Aside shows none on it');
	});
});
