// Lint is part of the architecture: the layer rules below are how the adapter boundary is kept,
// the way vscode-copilot-chat enforces its layers, rather than by habit.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const VSCODE_AT_RUN_TIME = {
	name: 'vscode',
	allowTypeImports: true,
	message: "Runtime 'vscode' imports belong in src/vscode/**; use an interface here (import type is fine).",
};

const typeChecked = {
	languageOptions: {
		parserOptions: {
			projectService: true,
			tsconfigRootDir: import.meta.dirname,
		},
	},
};

export default tseslint.config(
	{
		ignores: ['dist/**', 'out/**', '.tools/**', 'node_modules/**', 'test/fixtures/**', '**/*.vsix'],
	},
	js.configs.recommended,
	...tseslint.configs.strictTypeChecked.map((config) => ({ ...config, files: ['**/*.ts'] })),
	{ files: ['**/*.ts'], ...typeChecked },
	{
		files: ['**/*.ts'],
		rules: {
			// node:test's describe/it return promises the runner itself awaits.
			'@typescript-eslint/no-floating-promises': [
				'error',
				{ allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
			],
			'@typescript-eslint/no-misused-promises': 'error',
			'@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
			'@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'no-restricted-syntax': [
				'error',
				{ selector: 'ExportDefaultDeclaration', message: 'No default exports: name what you export.' },
				{
					selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier[imported.name='z']",
					message: "Use `import * as z from 'zod'`: the `z` export pins every zod locale into the bundles (+370 KB).",
				},
			],
			eqeqeq: ['error', 'always'],
			curly: 'error',
		},
	},
	// The adapter boundary: only src/vscode/** and src/extension.ts may import 'vscode' at run time.
	{
		files: ['src/**/*.ts'],
		ignores: ['src/vscode/**', 'src/extension.ts'],
		rules: {
			'@typescript-eslint/no-restricted-imports': ['error', { paths: [VSCODE_AT_RUN_TIME] }],
		},
	},
	// The view boundary: the domain knows nothing of what the chat shows. src/view/ projects it to
	// the protocol (a later block for the same files replaces the rule, so it repeats the one above).
	{
		files: ['src/agent/**/*.ts', 'src/transcript/**/*.ts', 'src/reminders/**/*.ts', 'src/observe/**/*.ts'],
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{
					paths: [VSCODE_AT_RUN_TIME],
					patterns: [
						{
							group: ['**/protocol', '**/protocol/**', '**/view', '**/view/**'],
							message: 'The domain imports nothing from src/protocol/ or src/view/: src/view/ turns domain state into protocol types.',
						},
					],
				},
			],
		},
	},
	// The webview is rendering only: it may share src/protocol/ and nothing else from the host.
	{
		files: ['webview/**/*.ts'],
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{
					paths: [{ name: 'vscode', message: 'The webview runs in a browser; it talks to the host through src/protocol/.' }],
					patterns: [
						{
							group: ['**/src/*', '!**/src/protocol', '**/src/*/**', '!**/src/protocol/**'],
							message: 'The webview may import only src/protocol/ from the host side.',
						},
					],
				},
			],
		},
	},
	// Node scripts (build, harness, CI helpers).
	{
		files: ['**/*.mjs'],
		languageOptions: {
			globals: {
				process: 'readonly',
				console: 'readonly',
				setTimeout: 'readonly',
				clearTimeout: 'readonly',
				setInterval: 'readonly',
				clearInterval: 'readonly',
				URL: 'readonly',
				Buffer: 'readonly',
				fetch: 'readonly',
			},
		},
	},
);
