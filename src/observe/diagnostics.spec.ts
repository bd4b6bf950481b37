import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemoryDiagnosticsSource } from '../testing/inMemoryDiagnosticsSource';
import { diagnosticCodeText, type DiagnosticEntry } from './diagnostics';

describe('diagnosticCodeText', () => {
	it('prints numbers, strings and the value of the object form', () => {
		assert.equal(diagnosticCodeText(2322), '2322');
		assert.equal(diagnosticCodeText('no-unused-vars'), 'no-unused-vars');
		assert.equal(diagnosticCodeText({ value: 'no-floating-promises', target: { scheme: 'https' } }), 'no-floating-promises');
		assert.equal(diagnosticCodeText({ value: 7 }), '7');
		assert.equal(diagnosticCodeText(undefined), undefined);
	});
});

describe('InMemoryDiagnosticsSource', () => {
	it('stores diagnostics per URI and fires for the URI that changed', () => {
		const source = new InMemoryDiagnosticsSource();
		const fired: string[][] = [];
		source.onDidChange((uris) => fired.push([...uris]));
		const entry: DiagnosticEntry = {
			severity: 'error',
			message: "Type 'string' is not assignable to type 'number'.",
			source: 'ts',
			code: '2322',
			range: { start: { line: 0, character: 6 }, end: { line: 0, character: 7 } },
		};
		source.setDiagnostics('file:///w/a.ts', [entry]);
		assert.deepEqual(source.get('file:///w/a.ts'), [entry]);
		assert.deepEqual(source.get('file:///w/b.ts'), []);
		source.setDiagnostics('file:///w/a.ts', []);
		assert.deepEqual(fired, [['file:///w/a.ts'], ['file:///w/a.ts']]);
	});
});
