// VS Code's diagnostics (from every language extension) as a DiagnosticsSource.
import * as vscode from 'vscode';
import { Emitter } from '../base/event';
import { Disposable } from '../base/lifecycle';
import { type DiagnosticEntry, type DiagnosticSeverity, type DiagnosticsSource, diagnosticCodeText } from '../observe/diagnostics';

const SEVERITY: Record<vscode.DiagnosticSeverity, DiagnosticSeverity> = {
	[vscode.DiagnosticSeverity.Error]: 'error',
	[vscode.DiagnosticSeverity.Warning]: 'warning',
	[vscode.DiagnosticSeverity.Information]: 'information',
	[vscode.DiagnosticSeverity.Hint]: 'hint',
};

export function toDiagnosticEntry(diagnostic: vscode.Diagnostic): DiagnosticEntry {
	const { start, end } = diagnostic.range;
	return {
		severity: SEVERITY[diagnostic.severity],
		message: diagnostic.message,
		source: diagnostic.source,
		code: diagnosticCodeText(diagnostic.code),
		range: { start: { line: start.line, character: start.character }, end: { line: end.line, character: end.character } },
	};
}

export class VsCodeDiagnosticsSource extends Disposable implements DiagnosticsSource {
	private readonly _onDidChange = this._register(new Emitter<readonly string[]>());
	readonly onDidChange = this._onDidChange.event;

	constructor() {
		super();
		this._register(vscode.languages.onDidChangeDiagnostics((event) => {
			this._onDidChange.fire(event.uris.map((uri) => uri.toString()));
		}));
	}

	get(uri: string): readonly DiagnosticEntry[] {
		return vscode.languages.getDiagnostics(vscode.Uri.parse(uri)).map(toDiagnosticEntry);
	}
}
