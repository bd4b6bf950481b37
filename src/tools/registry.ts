// The built-in tools, their specs for the model, and the one way to call a tool: invokeTool
// validates the input, never throws, and turns every failure into a result the model can read.
import * as z from 'zod';
import { ABORTED, isAborted, unlessAborted } from '../base/async';
import { errorMessage } from '../base/errors';
import type { ToolSpec } from '../providers/provider';
import { applyPatchTool } from './applyPatch';
import { askUserQuestionTool } from './askUserQuestion';
import { type ChangePlan, confirmationOf } from './changes';
import { editTool } from './edit';
import { ToolError } from './errors';
import { globTool } from './glob';
import { grepTool } from './grep';
import { listTool } from './list';
import { lspTool } from './lsp';
import { readTool } from './read';
import { runTool } from './run';
import { runOutputTool } from './runOutput';
import { runStopTool } from './runStop';
import { taskListTool } from './taskList';
import { taskWriteTool } from './taskWrite';
import { webFetchTool } from './webFetch';
import { type Confirmation, keepTools, NO_TOUCHES, type Tool, type ToolContext, type ToolResult, type ToolTouches } from './tool';
import { builtinToolFacts } from './toolFacts';
import { writeTool } from './write';

/** The tools that read, change or run in the workspace. */
export const WORKSPACE_TOOLS: readonly Tool[] = [readTool, listTool, globTool, grepTool, editTool, writeTool, applyPatchTool, runTool];
/** The chat's background processes, which only Run starts: read tools (they change no file), offered where Run is. */
export const PROCESS_TOOLS: readonly Tool[] = [runOutputTool, runStopTool];
/** The chat's task list: read tools (they change no file), offered in every mode. */
export const TASK_TOOLS: readonly Tool[] = [taskWriteTool, taskListTool];
/** The tools that reach the network (kind `fetch`): offered in every mode, plan included, never in an untrusted workspace. */
export const WEB_TOOLS: readonly Tool[] = [webFetchTool];
/** The person's answers to the model's questions: a read tool (it changes nothing), offered in every mode. */
export const QUESTION_TOOLS: readonly Tool[] = [askUserQuestionTool];

/** The editor's language features (LSP): a stand-in that runs as a read tool, or as a write tool for rename. */
export const CODE_TOOLS: readonly Tool[] = [lspTool];

export const BUILTIN_TOOLS: readonly Tool[] = [...WORKSPACE_TOOLS, ...PROCESS_TOOLS, ...TASK_TOOLS, ...CODE_TOOLS, ...WEB_TOOLS, ...QUESTION_TOOLS];

/** Drops what costs tokens and says nothing: `$schema`, and zod's ±2^53 bounds on integers. */
export function tidySchema(value: unknown): unknown {
	if (Array.isArray(value)) {
		return value.map(tidySchema);
	}
	if (typeof value !== 'object' || value === null) {
		return value;
	}
	const tidy: Record<string, unknown> = {};
	for (const [key, inner] of Object.entries(value)) {
		const unbounded = (key === 'maximum' && inner === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && inner === Number.MIN_SAFE_INTEGER);
		if (key !== '$schema' && !unbounded) {
			tidy[key] = tidySchema(inner);
		}
	}
	return tidy;
}

/** The specs the model sees; each input schema is JSON Schema without `$schema`. */
// A tool's spec never changes; every request needs it.
const specs = new WeakMap<Tool, ToolSpec>();

export function toolSpecs(tools: readonly Tool[]): ToolSpec[] {
	return tools.map((tool) => {
		let spec = specs.get(tool);
		if (!spec) {
			const inputSchema = tool.inputSchema ?? (tidySchema(z.toJSONSchema(tool.input)) as Record<string, unknown>);
			spec = { name: tool.name, description: tool.description, inputSchema: { ...inputSchema } };
			specs.set(tool, spec);
		}
		return spec;
	});
}

/** The tools with only the edit tools the person chose (`aside.tools.edit`); the others stay. */
export function withEditTools(chosen: readonly string[], tools: readonly Tool[] = BUILTIN_TOOLS): Tool[] {
	return tools.filter((tool) => builtinToolFacts(tool.name)?.editChoice !== true || chosen.includes(tool.name));
}

/** Which tools a turn may use: planning gets the ones that read or fetch (a fetch still asks), a
 * workspace the person has not trusted only the ones that read — and there, where Run is refused,
 * no tool of its processes. */
export function toolsFor(mode: string, trusted: boolean, tools: readonly Tool[] = BUILTIN_TOOLS): Tool[] {
	if (!trusted) {
		return keepTools(tools, (tool) => tool.kind === 'read' && !PROCESS_TOOLS.includes(tool));
	}
	return mode === 'plan' ? keepTools(tools, (tool) => tool.kind === 'read' || tool.kind === 'fetch') : [...tools];
}

function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
	return issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(input)'}: ${issue.message}`).join('; ');
}

type Parsed = { readonly ok: true; readonly input: unknown } | { readonly ok: false; readonly result: ToolResult };

function parseInput(tool: Tool, rawInput: unknown): Parsed {
	const parsed = tool.input.safeParse(rawInput);
	return parsed.success
		? { ok: true, input: parsed.data }
		: { ok: false, result: { isError: true, content: `Invalid input for ${tool.name}: ${formatIssues(parsed.error.issues)}` } };
}

function failure(tool: Tool, error: unknown): ToolResult {
	return { isError: true, content: error instanceof ToolError ? error.message : `${tool.name} failed: ${errorMessage(error)}` };
}

function cancelled(tool: Tool): ToolResult {
	return { isError: true, content: `${tool.name} was cancelled before it finished.` };
}

export type Preparation =
	/** `plan`: what a change tool would do (its files, before and after), which a review applies. */
	| { readonly ok: true; readonly confirmation: Confirmation | undefined; readonly plan?: ChangePlan }
	| { readonly ok: false; readonly result: ToolResult };

/**
 * Before asking the person: validates the input and builds what they would confirm (a diff, a
 * command). A failure here (a bad path, an edit that matches nothing) is the call's result, and
 * there is nothing to ask. Read tools have no confirmation. Never throws.
 */
export async function prepareTool(tool: Tool, rawInput: unknown, context: ToolContext): Promise<Preparation> {
	try {
		const parsed = parseInput(tool, rawInput);
		if (!parsed.ok) {
			return parsed;
		}
		if (tool.plan) {
			const plan = await tool.plan(parsed.input, context);
			return { ok: true, confirmation: confirmationOf(plan), plan };
		}
		return { ok: true, confirmation: tool.confirm ? await tool.confirm(parsed.input, context) : undefined };
	} catch (error) {
		return { ok: false, result: failure(tool, error) };
	}
}

/**
 * The files a call declares it will show the model or write (`Tool.touches`), asked once before
 * it runs so that the observers can take each written file's diagnostics baseline. Never throws:
 * a call whose input or path is bad declares nothing, and its run reports the problem.
 */
export async function declareTouches(tool: Tool, rawInput: unknown, context: ToolContext): Promise<ToolTouches> {
	const parsed = parseInput(tool, rawInput);
	if (!parsed.ok) {
		return NO_TOUCHES;
	}
	try {
		return await tool.touches(parsed.input, context);
	} catch {
		return NO_TOUCHES;
	}
}

/** Runs a tool call. Never throws: invalid input, errors and cancellation all become error results. */
export async function invokeTool(tool: Tool, rawInput: unknown, context: ToolContext): Promise<ToolResult> {
	if (isAborted(context.signal)) {
		return cancelled(tool);
	}
	try {
		const parsed = parseInput(tool, rawInput);
		if (!parsed.ok) {
			return parsed.result;
		}
		// A tool that throws before returning its promise is caught like one that rejects.
		const running = new Promise<ToolResult>((resolve) => {
			resolve(tool.run(parsed.input, context));
		});
		// A write is waited for: answering "cancelled" while it still lands would be untrue.
		// Reads and commands are let go (the runner kills its command on the same signal).
		const result = tool.kind === 'write' ? await running : await unlessAborted(running, context.signal);
		return result === ABORTED ? cancelled(tool) : result;
	} catch (error) {
		return isAborted(context.signal) ? cancelled(tool) : failure(tool, error);
	}
}
