import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyToScope, cursorRuleScope, type InstructionScope, scopedBody } from './instructionScope';

function scoped(yaml: string, body = 'Use strict TypeScript.'): string {
	return `---\n${yaml}\n---\n${body}\n`;
}

function paths(text: string): Extract<InstructionScope, { kind: 'paths' }> {
	const scope = applyToScope(text);
	if (scope.kind !== 'paths') {
		assert.fail(`not path-scoped: ${JSON.stringify(scope)}`);
	}
	return scope;
}

describe('applyToScope: the applyTo of an .instructions.md', () => {
	it('a single glob matches the paths it names, relative to the workspace folder, and no others', () => {
		const scope = paths(scoped('applyTo: "**/*.ts"'));
		assert.deepEqual(scope.patterns, ['**/*.ts']);
		assert.equal(scope.matches('src/a.ts'), true);
		assert.equal(scope.matches('a.ts'), true);
		assert.equal(scope.matches('.config/b.ts'), true, 'dot folders included');
		assert.equal(scope.matches('README.md'), false);
		assert.equal(scope.matches('src/a.tsx'), false);
	});

	it('a list of globs, or Copilot\'s comma-separated string (commas inside {…} kept), matches any of them', () => {
		const list = paths(scoped('applyTo:\n  - "src/**"\n  - "**/*.md"'));
		assert.equal(list.matches('src/deep/x.py'), true);
		assert.equal(list.matches('docs/a.md'), true);
		assert.equal(list.matches('test/a.ts'), false);
		const commas = paths(scoped('applyTo: "**/*.{ts,tsx}, docs/**"'));
		assert.deepEqual(commas.patterns, ['**/*.{ts,tsx}', 'docs/**']);
		assert.equal(commas.matches('a/b.tsx'), true);
		assert.equal(commas.matches('docs/x.txt'), true);
		assert.equal(commas.matches('a/b.js'), false);
	});

	it('no frontmatter, no applyTo, an empty frontmatter, or ** among the globs: the whole workspace (root instructions)', () => {
		for (const text of ['Just rules.', scoped('description: rules for all'), scoped(''), scoped('applyTo: "**"'), scoped('applyTo: ["src/**", "**"]')]) {
			assert.equal(applyToScope(text).kind, 'root', text);
		}
	});

	it('malformed frontmatter is refused with the reason: bad YAML, applyTo not text, an invalid glob, an absolute path, no closing line', () => {
		const reasons = [
			[scoped('applyTo: [unclosed'), /not valid YAML \(line \d+\)/],
			[scoped('applyTo: 42'), /applyTo must be a glob or a list of globs/],
			[scoped('applyTo: [1, 2]'), /applyTo must be a glob or a list of globs/],
			[scoped('applyTo: "src/[a-"'), /applyTo "src\/\[a-" is not a valid glob/],
			[scoped('applyTo: "/etc/**"'), /not a glob relative to the workspace folder/],
			[scoped('applyTo: "../other/**"'), /not a glob relative to the workspace folder/],
			[scoped('applyTo: ""'), /applyTo names no glob/],
			[scoped('- a\n- b'), /must be a set of fields/],
			['---\napplyTo: "**/*.ts"\nno closing line', /no closing "---" line/],
		] as const;
		for (const [text, reason] of reasons) {
			const scope = applyToScope(text);
			if (scope.kind !== 'malformed') {
				assert.fail(`not refused: ${text}`);
			}
			assert.match(scope.reason, reason, text);
		}
	});

	it('the body given is the text below the frontmatter', () => {
		assert.equal(scopedBody(scoped('applyTo: "**/*.ts"', 'Rule one.')), 'Rule one.\n');
		assert.equal(scopedBody('No frontmatter.'), 'No frontmatter.');
	});
});


describe('cursorRuleScope: the frontmatter of a Cursor rule (.mdc)', () => {
	const rule = (yaml: string, body = 'Use strict TypeScript.') => `---\n${yaml}\n---\n${body}\n`;

	function pathsOf(text: string): Extract<InstructionScope, { kind: 'paths' }> {
		const scope = cursorRuleScope(text);
		if (scope.kind !== 'paths') {
			assert.fail(`not path-scoped: ${JSON.stringify(scope)}`);
		}
		return scope;
	}

	it('alwaysApply: true is the whole workspace, whatever its globs and description say', () => {
		for (const yaml of ['alwaysApply: true', 'description: Core rules\nglobs: src/**\nalwaysApply: true', 'globs:\nalwaysApply: true']) {
			assert.equal(cursorRuleScope(rule(yaml)).kind, 'root', yaml);
		}
	});

	it('globs as Cursor writes them (unquoted, comma-separated), quoted, or as a YAML list match the paths they name and no others', () => {
		const unquoted = pathsOf(rule('description: TypeScript\nglobs: **/*.ts, src/**/*.{tsx,jsx}\nalwaysApply: false'));
		assert.deepEqual(unquoted.patterns, ['**/*.ts', 'src/**/*.{tsx,jsx}']);
		assert.equal(unquoted.matches('lib/a.ts'), true);
		assert.equal(unquoted.matches('src/ui/b.jsx'), true);
		assert.equal(unquoted.matches('README.md'), false);
		const quoted = pathsOf(rule('globs: "docs/**"'));
		assert.equal(quoted.matches('docs/a.md'), true);
		assert.equal(quoted.matches('src/a.ts'), false);
		for (const yaml of ['globs:\n  - "src/**"\n  - lib/**', 'globs: ["src/**", "lib/**"]']) {
			const list = pathsOf(rule(yaml));
			assert.deepEqual(list.patterns, ['src/**', 'lib/**'], yaml);
			assert.equal(list.matches('lib/x.py'), true);
			assert.equal(list.matches('test/x.py'), false);
		}
	});

	it('a description alone (Cursor\'s "agent requested" rule) is listed by its description, on one line, at most 300 characters', () => {
		assert.deepEqual(cursorRuleScope(rule('description: Database migrations: how to write one\nglobs:\nalwaysApply: false')), { kind: 'requested', description: 'Database migrations: how to write one' });
		assert.deepEqual(cursorRuleScope(rule('description: >\n  Folded\n  over lines')), { kind: 'requested', description: 'Folded over lines' });
		const long = cursorRuleScope(rule(`description: ${'word '.repeat(100)}`));
		assert.equal(long.kind === 'requested' && long.description.length, 300);
		assert.equal(long.kind === 'requested' && long.description.endsWith('…'), true);
	});

	it('no frontmatter, an empty one, or none of the three (Cursor\'s "manual" rule) is never given on its own', () => {
		for (const text of ['Just rules.', rule(''), rule('globs:\nalwaysApply: false'), rule('description:\nglobs: []')]) {
			assert.deepEqual(cursorRuleScope(text), { kind: 'manual' }, text);
		}
	});

	it('malformed frontmatter is refused with the reason', () => {
		const reasons = [
			[rule('alwaysApply: yes please'), /alwaysApply must be true or false/],
			[rule('alwaysApply: "true"'), /alwaysApply must be true or false/],
			[rule('description:\n  - a\n  - b'), /description must be text/],
			[rule('globs:\n  - 7'), /globs must be a glob, globs separated by commas, or a list of globs/],
			[rule('globs: src/[a-'), /globs "src\/\[a-" is not a valid glob/],
			[rule('globs: /etc/**'), /globs "\/etc\/\*\*" is not a glob relative to the workspace folder/],
			[rule('alwaysApply: [true'), /not valid YAML \(line \d+\)/],
			['---\nalwaysApply: true\nno closing line', /no closing "---" line/],
		] as const;
		for (const [text, reason] of reasons) {
			const scope = cursorRuleScope(text);
			if (scope.kind !== 'malformed') {
				assert.fail(`not refused: ${text} (${JSON.stringify(scope)})`);
			}
			assert.match(scope.reason, reason, text);
		}
	});

	it('the body given is the text below the frontmatter', () => {
		assert.equal(scopedBody(rule('alwaysApply: true', 'Rule one.')), 'Rule one.\n');
	});
});
