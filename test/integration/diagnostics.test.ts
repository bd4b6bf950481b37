import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitForEvent } from '../../src/base/event';
import type { DiagnosticEntry } from '../../src/observe/diagnostics';
import { VsCodeDiagnosticsSource } from '../../src/vscode/diagnosticsSource';
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

	it('reports the real TS2322 error of a fixture file, with its code as text and its range', async () => {
		const uri = workspaceFile('src/broken.ts');
		const key = uri.toString();
		const reported = source.get(key).some(isTs2322)
			? Promise.resolve()
			: waitForEvent(source.onDidChange, (uris) => uris.includes(key) && source.get(key).some(isTs2322), 90_000, 'TS2322 in src/broken.ts');
		await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
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
