import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnosticEntry } from '../testing/inMemoryDiagnosticsSource';
import { answersEdit, isSyntaxPhase } from './diagnosticsAnswer';

const assign = diagnosticEntry({ message: "Type 'string' is not assignable to type 'number'.", code: '2322', line: 3 });
const missing = diagnosticEntry({ message: "Cannot find name 'y'.", code: '2304', line: 9 });
const expression = diagnosticEntry({ message: 'Expression expected.', code: '1109', line: 3 });
const jsxTag = diagnosticEntry({ message: "JSX element 'div' has no corresponding closing tag.", code: '17008', line: 5 });
const hint = diagnosticEntry({ severity: 'hint', message: "'x' is declared but its value is never read.", code: '6133', line: 1 });
const lint = diagnosticEntry({ severity: 'warning', message: 'Unexpected any.', source: 'eslint', code: '1109', line: 2 });

describe('answersEdit', () => {
	it('a report that leaves the problems as they were is no answer yet (a visible-lines report keeps the old ones)', () => {
		assert.equal(answersEdit([assign], [assign]), false);
		assert.equal(answersEdit([], []), false);
		assert.equal(answersEdit([assign, missing], [missing, assign]), false, 'order does not matter');
	});

	it('a problem added, removed, moved or reworded by the semantic check is the answer', () => {
		assert.equal(answersEdit([], [assign]), true);
		assert.equal(answersEdit([assign], []), true);
		assert.equal(answersEdit([assign], [{ ...assign, range: { start: { line: 6, character: 0 }, end: { line: 6, character: 1 } } }]), true);
		assert.equal(answersEdit([assign], [{ ...assign, message: "Type 'boolean' is not assignable to type 'number'." }]), true);
		assert.equal(answersEdit([assign], [assign, assign]), true, 'a second, identical problem counts');
	});

	it('syntax errors come a phase before the semantic check, and hints after it: changes in them alone are no answer', () => {
		assert.equal(answersEdit([assign], [assign, expression]), false, 'a syntax error added, the semantic problems not checked yet');
		assert.equal(answersEdit([expression], []), false, 'a syntax error fixed: the semantic check may still find something');
		assert.equal(answersEdit([], [jsxTag]), false);
		assert.equal(answersEdit([], [hint]), false);
		assert.equal(answersEdit([expression], [missing]), true, 'a syntax error became a semantic one');
	});

	it('only the TypeScript server\'s codes are taken for syntax errors', () => {
		assert.equal(isSyntaxPhase(expression), true);
		assert.equal(isSyntaxPhase({ ...expression, source: 'js' }), true);
		assert.equal(isSyntaxPhase(lint), false);
		assert.equal(isSyntaxPhase(assign), false);
		assert.equal(answersEdit([], [lint]), true);
	});
});
