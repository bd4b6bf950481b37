// LSP: code intelligence from the editor's language features, one tool named as Claude Code names
// its own. Every operation but rename reads (definition, references, hover, symbols, calls,
// diagnostics); rename changes files. So LSP is a stand-in (Tool.standsFor, as McpCall is): each
// call runs as the read tool or as the write tool, both named LSP, and plan mode (or a read-only
// profile) narrows it to the read one, where rename is refused with a clear message.
import { applyPlan, type ChangePlan, confirmationOf } from './changes';
import { ToolError } from './errors';
import { LSP_DEFAULT_RESULTS, LSP_MAX_RESULTS, type LspInput, lspInput } from './lsp/input';
import { readOperation } from './lsp/operations';
import { LANGUAGE_FEATURES, type LanguageFeatures } from './lsp/port';
import { planRename } from './lsp/rename';
import type { StandIn, Tool, ToolContext } from './tool';
import { touchesNothing } from './tool';

export const LSP_TOOL_NAME = 'LSP';

const DESCRIPTION =
	'Code intelligence from the editor\'s language features (the language servers of the installed extensions, e.g. TypeScript\'s). Operations: ' +
	'definition, references, implementation, hover, incomingCalls, outgoingCalls (of the symbol at a place); documentSymbols (a file\'s outline); ' +
	'workspaceSymbols (symbols whose names match `query`); diagnostics (the current problems of `path`, or of the whole workspace without it); ' +
	'rename (renames the symbol at a place to `new_name` in every file that uses it: a change the user reviews, applied all or nothing). ' +
	'A place is `path` with 1-based `line` and `column`, or `path` with `line` and the `symbol` on it, or just a `symbol` name (looked up in `path`\'s outline, or among the workspace\'s symbols). ' +
	`Results are \`path:line:col: line text\`, 1-based, workspace-relative; places outside the workspace are marked "(outside the workspace)". At most \`max_results\` (default ${LSP_DEFAULT_RESULTS}, up to ${LSP_MAX_RESULTS}) are listed, the rest counted. ` +
	'A file whose language no installed extension serves says so.';

/** The window's language features, or the error a call without them answers with. */
export function languageFeaturesOf(context: ToolContext): LanguageFeatures {
	const features = context.features?.get(LANGUAGE_FEATURES);
	if (!features) {
		throw new ToolError('LSP is not available here: this window has no language features to ask.');
	}
	return features;
}

/** The read operations: run without asking, offered in plan mode. */
export const lspReadTool: Tool<LspInput> = {
	name: LSP_TOOL_NAME,
	description: DESCRIPTION,
	kind: 'read',
	input: lspInput,
	touches: touchesNothing,
	run: (input, context) => readOperation(input, context, languageFeaturesOf(context)),
};

// One call's plan, computed once for its confirmation and its touches (one context). Its run gets a
// context of its own and plans again from the files as they are then; a reviewed call applies the plan shown.
const plans = new WeakMap<ToolContext, Promise<ChangePlan>>();

function renamePlan(input: LspInput, context: ToolContext): Promise<ChangePlan> {
	let plan = plans.get(context);
	if (!plan) {
		plan = planRename(input, context, languageFeaturesOf(context));
		plans.set(context, plan);
	}
	return plan;
}

/** rename: a change, planned from the provider's edits, confirmed and reviewed as any write. */
export const lspRenameTool: Tool<LspInput> = {
	name: LSP_TOOL_NAME,
	description: DESCRIPTION,
	kind: 'write',
	input: lspInput,
	plan: renamePlan,
	confirm: async (input, context) => confirmationOf(await renamePlan(input, context)),
	touches: async (input, context) => ({ reads: [], writes: (await renamePlan(input, context)).changes.map((change) => change.path) }),
	run: async (input, context) => applyPlan(await renamePlan(input, context), context, { tool: `${LSP_TOOL_NAME} rename` }),
};

const RENAME_REFUSED = 'Not run: LSP rename changes files, and only LSP\'s read operations are available here (plan mode and read-only agents offer those). Use the other operations, or propose the rename in your plan.';

function isRename(input: unknown): boolean {
	return typeof input === 'object' && input !== null && (input as { operation?: unknown }).operation === 'rename';
}

function lspStandIn(withRename: boolean): Tool<LspInput> {
	const standsFor: StandIn = {
		resolve: (input) => (isRename(input) ? (withRename ? { tool: lspRenameTool, input } : RENAME_REFUSED) : { tool: lspReadTool, input }),
		narrow: (keep) => (keep(lspReadTool) ? lspStandIn(withRename && keep(lspRenameTool)) : undefined),
	};
	return { ...lspReadTool, standsFor };
}

/** The tool the model is offered: runs each call as lspReadTool or (rename) lspRenameTool. */
export const lspTool: Tool<LspInput> = lspStandIn(true);

