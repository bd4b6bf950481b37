import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitForEvent } from '../../src/base/event';
import type { DiagnosticEntry } from '../../src/observe/diagnostics';
import { VsCodeDiagnosticsSource } from '../../src/vscode/diagnosticsSource';
import { vscodeDocuments } from '../../src/vscode/documents';
import { workspaceFile } from './support';

const isTs2322 = (entry: DiagnosticEntry) => entry.severity === 'error' && entry.code === '2322' && entry.source === 'ts';

describe('diagnostics adapter (built-in TypeScript extension)', () => {
	let source: VsCodeDiagnosticsSource;
	before(() => {
		source = new VsCodeDiagnosticsSource();
	});
	after(() => {
		source.dispose();
	});

	it('reports the real TS2322 error of a fixture file, with its code as text and its range, once the file is shown as Aside shows it', async () => {
		const uri = workspaceFile('src/broken.ts');
		const key = uri.toString();
		// Open but in no tab: TypeScript does not check it, so Aside's documents show it.
		await vscodeDocuments.open(uri.fsPath);
		assert.equal(vscodeDocuments.isOpen(uri.fsPath), true);
		assert.equal(vscodeDocuments.isShown(uri.fsPath), false);
		assert.equal(vscodeDocuments.lineCount(uri.fsPath), (await vscode.workspace.openTextDocument(uri)).lineCount);
		const reported = source.get(key).some(isTs2322)
			? Promise.resolve()
			: waitForEvent(source.onDidChange, (uris) => uris.includes(key) && source.get(key).some(isTs2322), 90_000, 'TS2322 in src/broken.ts');
		await vscodeDocuments.show(uri.fsPath);
		assert.equal(vscodeDocuments.isShown(uri.fsPath), true);
		const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
		assert.ok(tab?.input instanceof vscode.TabInputText && tab.input.uri.toString() === key && tab.isPreview, 'a preview tab');
		await reported;
		const error = source.get(key).find(isTs2322);
		assert.ok(error);
		assert.match(error.message, /Type 'string' is not assignable to type 'number'/);
		assert.deepEqual(error.range.start, { line: 3, character: 7 });
		assert.notEqual(error.code, '[object Object]');
	});

	it('fires again when an edit fixes the error, and then reports none', async () => {
		const uri = workspaceFile('src/broken.ts');
		const key = uri.toString();
		const document = await vscode.workspace.openTextDocument(uri);
		const line = document.lineAt(3);
		const fixed = waitForEvent(source.onDidChange, (uris) => uris.includes(key) && !source.get(key).some(isTs2322), 60_000, 'the error to go away');
		const edit = new vscode.WorkspaceEdit();
		edit.replace(uri, line.range, "\tconst label: number = 42;");
		assert.ok(await vscode.workspace.applyEdit(edit));
		await fixed;
		assert.deepEqual(source.get(key).filter((entry) => entry.severity === 'error'), []);
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});
});
