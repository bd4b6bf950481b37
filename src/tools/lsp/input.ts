// The LSP tool's one input schema: an operation, and where it applies — a file and a 1-based line
// and column, or a symbol's name (resolved through the workspace's symbols, or the file's outline
// when a path is given too).
import * as z from 'zod';

export const LSP_OPERATIONS = [
	'definition',
	'references',
	'implementation',
	'hover',
	'documentSymbols',
	'workspaceSymbols',
	'incomingCalls',
	'outgoingCalls',
	'diagnostics',
	'rename',
] as const;

export type LspOperation = (typeof LSP_OPERATIONS)[number];

/** The most results an operation lists; the rest are counted. */
export const LSP_MAX_RESULTS = 200;
export const LSP_DEFAULT_RESULTS = 50;

export const lspInput = z.object({
	operation: z.enum(LSP_OPERATIONS).describe('What to ask the language features.'),
	path: z.string().min(1).optional().describe('The file, relative to the workspace folder (or absolute inside it).'),
	line: z.number().int().min(1).optional().describe('1-based line in `path`.'),
	column: z.number().int().min(1).optional().describe('1-based column in `line` (a character of the symbol\'s name).'),
	symbol: z
		.string()
		.min(1)
		.max(200)
		.optional()
		.describe('A symbol\'s name instead of line and column: found in `path`\'s outline (or on `line`) when a path is given, else among the workspace\'s symbols.'),
	query: z.string().max(200).optional().describe('For workspaceSymbols: the text to look for (fuzzy, as the editor\'s Go to Symbol in Workspace).'),
	new_name: z.string().min(1).max(200).optional().describe('For rename: the new name.'),
	max_results: z.number().int().min(1).max(LSP_MAX_RESULTS).optional().describe(`The most results to list (default ${LSP_DEFAULT_RESULTS}); the rest are counted.`),
});

export type LspInput = z.infer<typeof lspInput>;
