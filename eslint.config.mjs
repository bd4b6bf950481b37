// Lint is part of the architecture: the layer rules below are how the adapter boundary is kept,
// the way vscode-copilot-chat enforces its layers, rather than by habit.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const VSCODE_AT_RUN_TIME = {
	name: 'vscode',
	allowTypeImports: true,
	message: "Runtime 'vscode' imports belong in src/vscode/**; use an interface here (import type is fine).",
};

const NO_TESTING = {
	group: ['**/testing', '**/testing/**'],
	message: 'Production code never imports src/testing/: the fakes are for specs (and are never bundled).',
};
const NO_VIEW = {
	group: ['**/protocol', '**/protocol/**', '**/view', '**/view/**'],
	message: 'The domain imports nothing from src/protocol/ or src/view/: src/view/ turns domain state into protocol types.',
};
const ONLY_PROTOCOL = {
	group: ['**/src/*', '!**/src/protocol', '**/src/*/**', '!**/src/protocol/**', '!**/src/vocabulary/**'],
	message: 'The webview may import only src/protocol/ (and the shared words of src/vocabulary/) from the host side.',
};
const PROTOCOL_ONLY_WORDS = {
	regex: '^(?!zod$|\\./[^/]+$|\\.\\./vocabulary/[^/]+$)',
	message: 'The protocol imports only zod, its own modules and src/vocabulary/, so the webview bundle reaches no host code.',
};
const NO_IMPORTS = {
	regex: '^',
	message: 'src/vocabulary/ is the ground floor: it imports nothing.',
};

const FEATURES_BY_LIST = {
	regex: '(^|/)features/(?!features$|feature$)[^/]+',
	message: 'A chat feature is reached through the feature list (src/features/features.ts), never by importing its folder.',
};
const NO_FEATURES = {
	group: ['**/features', '**/features/**'],
	message: 'The domain stands below the chat features: it takes them as a list (src/agent/chatFeature.ts), never imports them.',
};

const restrict = (paths, patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }] });
const SPECS = ['**/*.spec.ts'];
const DOMAIN = ['src/agent/**/*.ts', 'src/transcript/**/*.ts', 'src/reminders/**/*.ts', 'src/observe/**/*.ts'];

/** One block per zone, each with the whole rule for its files: later blocks win for the same file. */
function zones() {
	return [
		// The adapter boundary: only src/vscode/** and src/extension.ts import 'vscode' at run time.
		{ files: ['src/**/*.ts'], ignores: ['src/vscode/**', 'src/extension.ts', ...SPECS], rules: restrict([VSCODE_AT_RUN_TIME], [NO_TESTING, FEATURES_BY_LIST]) },
		{ files: ['src/vscode/**/*.ts', 'src/extension.ts'], ignores: SPECS, rules: restrict([], [NO_TESTING, FEATURES_BY_LIST]) },
		{ files: SPECS.map((glob) => `src/${glob}`), ignores: ['src/vscode/**', 'src/features/**'], rules: restrict([VSCODE_AT_RUN_TIME], [FEATURES_BY_LIST]) },
		// Inside src/features/, a feature's own folder and the others' are the features' business.
		{ files: ['src/features/**/*.ts'], ignores: SPECS, rules: restrict([VSCODE_AT_RUN_TIME], [NO_TESTING]) },
		{ files: ['src/features/**/*.spec.ts'], rules: restrict([VSCODE_AT_RUN_TIME], []) },
		// The test helpers build a feature's state for the specs that need one.
		{ files: ['src/testing/**/*.ts'], ignores: SPECS, rules: restrict([VSCODE_AT_RUN_TIME], []) },
		// The view boundary: the domain knows nothing of what the chat shows.
		{ files: DOMAIN, ignores: SPECS, rules: restrict([VSCODE_AT_RUN_TIME], [NO_VIEW, NO_TESTING, NO_FEATURES]) },
		{ files: DOMAIN.map((glob) => glob.replace('*.ts', '*.spec.ts')), rules: restrict([VSCODE_AT_RUN_TIME], [NO_VIEW, FEATURES_BY_LIST]) },
		// The protocol is shared with the webview: zod and the shared words only.
		{ files: ['src/protocol/**/*.ts'], ignores: SPECS, rules: restrict([VSCODE_AT_RUN_TIME], [PROTOCOL_ONLY_WORDS]) },
		// The ground floor imports nothing at all.
		{ files: ['src/vocabulary/**/*.ts'], ignores: SPECS, rules: restrict([VSCODE_AT_RUN_TIME], [NO_IMPORTS]) },
		// The webview is rendering only: it may share src/protocol/ and nothing else from the host.
		{
			files: ['webview/**/*.ts'],
			rules: restrict([{ name: 'vscode', message: 'The webview runs in a browser; it talks to the host through src/protocol/.' }], [ONLY_PROTOCOL]),
		},
	];
}

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
	// One line width, everywhere: 160 columns (a tab is 4). A line that holds a string, a template
	// literal, a regular expression or a URL may run longer: breaking a message or a link in two
	// helps no reader. What is wider is wrapped VS Code's way: the opener ends the line, one item
	// per line, the closer back at the indent.
	{
		files: ['**/*.ts', '**/*.mjs'],
		rules: {
			'max-len': ['error', { code: 160, tabWidth: 4, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }],
		},
	},
	// The zones of docs/architecture.md ("Zones"). ESLint keeps one no-restricted-imports per file
	// (a later block replaces an earlier one), so each zone's rule is composed from the parts below.
	...zones(),
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
