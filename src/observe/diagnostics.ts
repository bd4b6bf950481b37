// What the edit-diagnostics observer needs from the editor, as plain data. The VS Code
// implementation is src/vscode/diagnosticsSource.ts; tests use src/testing/inMemoryDiagnosticsSource.ts.
import type { Event } from '../base/event';

export type DiagnosticSeverity = 'error' | 'warning' | 'information' | 'hint';

export interface DiagnosticPosition {
	/** Zero-based, as in VS Code. */
	readonly line: number;
	readonly character: number;
}

export interface DiagnosticEntry {
	readonly severity: DiagnosticSeverity;
	readonly message: string;
	/** Who reported it: `ts`, `eslint`, … */
	readonly source: string | undefined;
	/** The diagnostic code as text (`2322`), whatever form the language server sent it in. */
	readonly code: string | undefined;
	readonly range: { readonly start: DiagnosticPosition; readonly end: DiagnosticPosition };
}

export interface DiagnosticsSource {
	/** The current diagnostics of one resource, by URI string. */
	get(uri: string): readonly DiagnosticEntry[];
	/** Fires with the URI strings whose diagnostics changed. */
	readonly onDidChange: Event<readonly string[]>;
}

/** The shapes `vscode.Diagnostic.code` takes. */
export type DiagnosticCode = string | number | { readonly value: string | number; readonly target?: unknown } | undefined;

/** The code's value as text; the object form prints its value, never `[object Object]`. */
export function diagnosticCodeText(code: DiagnosticCode): string | undefined {
	if (code === undefined) {
		return undefined;
	}
	return typeof code === 'object' ? String(code.value) : String(code);
}
