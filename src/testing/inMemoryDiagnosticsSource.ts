import { Emitter } from '../base/event';
import type { DiagnosticEntry, DiagnosticsSource } from '../observe/diagnostics';

/** A DiagnosticsSource for tests: `setDiagnostics` replaces a URI's list and fires, like a language server. */
export class InMemoryDiagnosticsSource implements DiagnosticsSource {
	private readonly byUri = new Map<string, readonly DiagnosticEntry[]>();
	private readonly _onDidChange = new Emitter<readonly string[]>();
	readonly onDidChange = this._onDidChange.event;

	get(uri: string): readonly DiagnosticEntry[] {
		return this.byUri.get(uri) ?? [];
	}

	setDiagnostics(uri: string, entries: readonly DiagnosticEntry[]): void {
		this.byUri.set(uri, [...entries]);
		this._onDidChange.fire([uri]);
	}

	/** Replaces a URI's list without firing: a language server that publishes nothing. */
	setSilently(uri: string, entries: readonly DiagnosticEntry[]): void {
		this.byUri.set(uri, [...entries]);
	}

	/** Fires a change for these URIs, changed or not: churn, or an event for other files. */
	fireChange(uris: readonly string[]): void {
		this._onDidChange.fire(uris);
	}
}

/** A diagnostic for tests: an error at line 0, column 0, with whatever `overrides` say. */
export function diagnosticEntry(overrides: Partial<DiagnosticEntry> & { readonly line?: number; readonly character?: number } = {}): DiagnosticEntry {
	const { line = 0, character = 0, ...rest } = overrides;
	return {
		severity: 'error',
		message: 'Something is wrong.',
		source: 'ts',
		code: undefined,
		range: { start: { line, character }, end: { line, character: character + 1 } },
		...rest,
	};
}
