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
}
