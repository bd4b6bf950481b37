// The reminder language server in a real workbench: the packaged dist/reminderServer.js started by
// Aside's client when a `.aside/reminders/*.md` opens, its problems in the Problems view's source
// (vscode.languages.getDiagnostics), cleared by an edit, and its completion of policy values.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { waitForEvent } from '../../src/base/event';
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
	return waitForEvent(changed, (uris) => uris.some((changedUri) => changedUri.toString() === uri.toString()) && done(asideProblems(uri)), 90_000, what).then(() => asideProblems(uri));
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
		const cleared = diagnosticsOf(bad, (problems) => problems.length === 0, 'the problems of bad.md to clear');
		const edit = new vscode.WorkspaceEdit();
		edit.replace(bad, new vscode.Range(0, 0, document.lineCount, 0), GOOD);
		assert.ok(await vscode.workspace.applyEdit(edit));
		await cleared;
		assert.equal(document.isDirty, true);
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
