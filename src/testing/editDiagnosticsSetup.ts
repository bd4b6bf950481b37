// EditDiagnostics over an in-memory diagnostics source and fake timers, for its specs, with a few
// TypeScript- and ESLint-shaped problems.
import { EditDiagnostics, type EditDiagnosticsCounts, type EditDiagnosticsOptions } from '../observe/editDiagnostics';
import type { DiagnosticEntry } from '../observe/diagnostics';
import { FakeTimers } from './fakeTimers';
import { diagnosticEntry, InMemoryDiagnosticsSource } from './inMemoryDiagnosticsSource';
import { RecordingLogger } from './recordingLogger';

export const A = 'file:///w/src/a.ts';
export const B = 'file:///w/src/b.ts';
export const REQ = 'turn-1';

export const assign = diagnosticEntry({ message: "Type 'string' is not assignable to type 'number'.", code: '2322', line: 3, character: 7 });
export const unused = diagnosticEntry({ severity: 'warning', message: "'x' is assigned a value but never used.", source: 'eslint', code: 'no-unused-vars', line: 0, character: 6 });
export const missing = diagnosticEntry({ message: "Cannot find name 'y'.", code: '2304', line: 9 });
export const hint = diagnosticEntry({ severity: 'hint', message: 'Unused label.', code: '7028', line: 12 });

export function setup(options: Partial<EditDiagnosticsOptions> = {}) {
	const source = new InMemoryDiagnosticsSource();
	const timers = new FakeTimers();
	const log = new RecordingLogger();
	const counts: EditDiagnosticsCounts[] = [];
	const observer = new EditDiagnostics(source, timers.clock, timers, { displayPath: (uri) => uri.replace('file:///w/', ''), log, ...options }, (c) => counts.push(c));
	/** One edit of `uri`: baseline, the language server publishing `after` 100 ms later, settled. */
	const edit = async (uri: string, after: readonly DiagnosticEntry[], signal?: AbortSignal) => {
		observer.beforeEdit(REQ, uri);
		const result = observer.afterEdit(REQ, uri, signal);
		timers.advance(100);
		source.setDiagnostics(uri, after);
		timers.advance(300);
		return result;
	};
	return { source, timers, log, counts, observer, edit };
}
