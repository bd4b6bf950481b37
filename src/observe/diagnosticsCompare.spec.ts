import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnosticEntry } from '../testing/inMemoryDiagnosticsSource';
import type { DiagnosticEntry } from './diagnostics';
import { compareDiagnostics } from './diagnosticsCompare';

const unused = diagnosticEntry({ severity: 'warning', message: "'x' is declared but never used.", code: '6133', line: 2 });
const assign = diagnosticEntry({ message: "Type 'string' is not assignable to type 'number'.", code: '2322', line: 5, character: 7 });
const moveTo = (entry: DiagnosticEntry, line: number): DiagnosticEntry => ({ ...entry, range: { start: { line, character: 0 }, end: { line, character: 1 } } });
const missing = diagnosticEntry({ message: "Cannot find name 'y'.", code: '2304', line: 9 });

describe('compareDiagnostics', () => {
	it('splits into new, pre-existing and resolved', () => {
		const result = compareDiagnostics([unused, missing], [unused, assign]);
		assert.deepEqual(result, { added: [assign], changed: [], preExisting: [unused], resolved: [missing] });
	});

	it('a moved range with the same identity is pre-existing', () => {
		const moved = moveTo(unused, 12);
		assert.deepEqual(compareDiagnostics([unused], [moved]), { added: [], changed: [], preExisting: [moved], resolved: [] });
	});

	it('identity is severity, message, code and source: any of them differing is not the same problem', () => {
		const variants = [
			{ ...moveTo(unused, 30), severity: 'error' as const },
			{ ...moveTo(unused, 31), message: "'z' is declared but never used." },
			{ ...moveTo(unused, 32), code: '6196' },
			{ ...moveTo(unused, 33), source: 'eslint' },
		];

		for (const variant of variants) {
			const result = compareDiagnostics([unused], [variant]);
			assert.deepEqual(result.added, [variant]);
			assert.deepEqual(result.resolved, [unused]);
		}
	});

	it('a different message or severity at the same place, same source and code, is changed', () => {
		const otherType = { ...assign, message: "Type 'boolean' is not assignable to type 'number'." };
		const worse = { ...unused, severity: 'error' as const };
		const result = compareDiagnostics([assign, unused], [otherType, worse]);
		assert.deepEqual(result, { added: [], changed: [otherType, worse], preExisting: [], resolved: [] });
	});

	it('counts identical diagnostics: a second copy of one that was there once is new', () => {
		const copy = moveTo(unused, 20);
		const result = compareDiagnostics([unused], [copy, unused]);
		assert.deepEqual(result.preExisting, [unused], 'the unmoved copy keeps its partner');
		assert.deepEqual(result.added, [copy]);
		assert.deepEqual(result.resolved, []);
	});

	it('a moved copy pairs with the nearest old one; the same object twice counts twice', () => {
		const far = moveTo(unused, 40);
		const shifted = moveTo(unused, 3);
		const result = compareDiagnostics([unused, far], [shifted]);
		assert.deepEqual(result.preExisting, [shifted]);
		assert.deepEqual(result.resolved, [far]);
		assert.deepEqual(compareDiagnostics([unused], [unused, unused]).added, [unused]);
	});

	it('everything is new against an empty baseline, everything resolved against an empty result', () => {
		assert.deepEqual(compareDiagnostics([], [assign, unused]).added, [assign, unused]);
		assert.deepEqual(compareDiagnostics([assign, unused], []).resolved, [assign, unused]);
	});
});
