// The editor's documents for observer tests: which are open, which are in a tab, and what was
// done to them. A file's URI is `file://` + its path.
import type { DocumentOpener } from '../agent/editDiagnosticsObserver';
import type { InMemoryDiagnosticsSource } from './inMemoryDiagnosticsSource';

export const fileUri = (path: string): string => `file://${path}`;

export class FakeDocuments implements DocumentOpener {
	readonly openPaths = new Set<string>();
	readonly shownPaths = new Set<string>();
	readonly calls: string[] = [];

	constructor(private readonly source: InMemoryDiagnosticsSource) {}

	uriOf(path: string): string {
		return fileUri(path);
	}

	isOpen(path: string): boolean {
		return this.openPaths.has(path);
	}

	open(path: string): Promise<void> {
		this.calls.push(`open ${path}`);
		this.openPaths.add(path);
		return Promise.resolve();
	}

	isShown(path: string): boolean {
		return this.shownPaths.has(path);
	}

	show(path: string): Promise<void> {
		this.calls.push(`show ${path}`);
		this.openPaths.add(path);
		this.shownPaths.add(path);
		return Promise.resolve();
	}

	hasDiagnostics(path: string): boolean {
		return this.source.get(fileUri(path)).length > 0;
	}

	lineCount(path: string): number | undefined {
		return this.openPaths.has(path) ? 20 : undefined;
	}
}
