// A connected server's tools as Aside's tools (src/tools/tool.ts), named `mcp__<server>__<tool>`
// (names.ts). Every one asks before it runs in Ask and Auto-edit mode (it is a `run` tool to the
// permission policy), except a `readOnlyHint` tool of a server the person trusts for annotations,
// which reads. The approval card shows the server, where it was configured, the tool, its
// annotations and the full arguments. A tool whose schema is not a JSON Schema object is left out,
// with a message.
import * as z from 'zod';
import { sanitizeUntrusted } from '../reminders/envelope';
import type { Confirmation, Tool, ToolKind } from '../tools/tool';
import { touchesNothing } from '../tools/tool';
import { unifiedDiff } from '../tools/diff';
import { BoundApproval, type DefinitionStore, memoryDefinitions } from './definitionApprovals';
import { nameTools } from './names';
import { MCP_ACCESS } from './resourceTools';
import { originWords, type ServerConfig } from './serverConfig';
import type { CallOptions, McpCallResult, McpToolInfo, ToolAnnotations } from './session';
import { keptToolResult } from './toolResult';

/** Claude Code's bound on an MCP tool's description. */
export const MAX_DESCRIPTION = 2048;

/** A server whose tools are offered: its configuration and its listed tools. */
export interface ListedServer {
	readonly config: ServerConfig;
	readonly tools: readonly McpToolInfo[];
}

/** Calls a tool of a server on its current connection (a restarted server's new one). */
export type CallTool = (server: string, tool: string, args: Readonly<Record<string, unknown>>, options: CallOptions) => Promise<McpCallResult>;

/** What an MCP tool is, beyond Aside's Tool: where it comes from. */
export interface McpTool extends Tool<Record<string, unknown>> {
	readonly server: string;
	readonly tool: McpToolInfo;
}

const Args = z.record(z.string(), z.unknown());

function annotationWords(annotations: ToolAnnotations, trusted: boolean): string {
	const words = [
		annotations.readOnlyHint === true ? 'read-only' : annotations.readOnlyHint === false ? 'may change things' : undefined,
		annotations.destructiveHint === true ? 'destructive' : undefined,
		annotations.idempotentHint === true ? 'idempotent' : undefined,
		annotations.openWorldHint === true ? 'reaches outside systems' : annotations.openWorldHint === false ? 'closed world' : undefined,
	].filter((word) => word !== undefined);
	if (words.length === 0) {
		return 'none';
	}
	return `${words.join(', ')} (${trusted ? 'trusted: you trust this server\'s annotations' : 'as the server claims; not trusted'})`;
}

function argumentsText(args: Readonly<Record<string, unknown>>): string {
	const text = JSON.stringify(args, null, 2);
	return text === '{}' ? '(none)' : text;
}

function confirmation(config: ServerConfig, info: McpToolInfo, args: Readonly<Record<string, unknown>>): Confirmation {
	return {
		title: `Call the MCP tool ${info.name} of ${config.name}`,
		target: [
			`Server: ${config.name} (${originWords(config.origin)})`,
			`Tool: ${info.name}${info.title === undefined ? '' : ` — ${info.title}`}`,
			`Annotations: ${annotationWords(info.annotations, config.trustAnnotations)}`,
			`Arguments: ${argumentsText(args)}`,
		].join('\n'),
	};
}

/** Why a tool's schema cannot be offered, or undefined when it can. */
function schemaProblem(schema: unknown): string | undefined {
	if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
		return 'its input schema is not a JSON object';
	}
	const type = (schema as Record<string, unknown>).type;
	return type === 'object' ? undefined : `its input schema's type is ${JSON.stringify(type)}, not "object"`;
}

export function kindOf(config: ServerConfig, info: McpToolInfo): ToolKind {
	return config.trustAnnotations && info.annotations.readOnlyHint === true ? 'read' : 'run';
}

function describe(config: ServerConfig, info: McpToolInfo): string {
	const text = info.description.trim() === '' ? (info.title ?? info.name) : info.description.trim();
	const bounded = text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION)}…` : text;
	return sanitizeUntrusted(`${bounded}\n\n(MCP tool "${info.name}" of the server "${config.name}".)`);
}

/** Why a tool whose definition changed asks, in every mode. */
export const DEFINITION_CHANGED = 'its definition (description, input schema or annotations) changed since you approved it; allowing this call approves the new one';

function mcpTool(name: string, config: ServerConfig, info: McpToolInfo, call: CallTool, timeoutMs: number, approval: BoundApproval): McpTool {
	const kind = kindOf(config, info);
	return {
		name,
		server: config.name,
		tool: info,
		description: describe(config, info),
		// A trusted read-only tool whose definition changed is not trusted to read until approved again.
		get kind() {
			return approval.suspended() ? 'run' : kind;
		},
		input: Args,
		inputSchema: info.inputSchema,
		touches: touchesNothing,
		confirm: (args) => {
			const asked = confirmation(config, info, args);
			const suspended = approval.suspended();
			const diff = suspended ? unifiedDiff('the definition you approved', 'the definition now', suspended.approved.text, suspended.now.text) : undefined;
			return Promise.resolve(diff === undefined ? asked : { ...asked, alwaysAsk: DEFINITION_CHANGED, diff, diffTitle: 'How its definition changed since you approved it' });
		},
		async run(args, context) {
			// It runs: the person allowed it (a changed definition always asks), so this definition is the approved one.
			approval.approve();
			const { progress } = context;
			// Its progress goes to the call's row (the context's `progress`), never into the result.
			// The calling chat shows the cards of the server's requests during the call.
			const caller = context.features?.get(MCP_ACCESS)?.chat;
			const options = { signal: context.signal, timeoutMs: config.timeoutMs ?? timeoutMs, ...(progress ? { onProgress: progress } : {}), caller };
			const result = await call(config.name, info.name, args, options);
			return keptToolResult(result, context.outputs, name);
		},
	};
}

/**
 * The tools of `servers`, sorted by name: each server's disabled tools left out, a tool whose
 * schema cannot be offered or whose name another tool takes after sanitising left out, with a
 * message for each.
 */
export function mcpTools(
	servers: readonly ListedServer[],
	call: CallTool,
	timeoutMs: number,
	definitions: DefinitionStore = memoryDefinitions(),
): { readonly tools: McpTool[]; readonly problems: string[] } {
	const problems: string[] = [];
	const entries: { server: string; tool: string; value: { readonly config: ServerConfig; readonly info: McpToolInfo } }[] = [];
	for (const { config, tools } of servers) {
		for (const info of tools) {
			if (config.disabledTools.includes(info.name)) {
				continue;
			}
			const problem = schemaProblem(info.inputSchema);
			if (problem !== undefined) {
				problems.push(`The MCP tool "${info.name}" of "${config.name}" is not offered: ${problem}.`);
				continue;
			}
			entries.push({ server: config.name, tool: info.name, value: { config, info } });
		}
	}
	const { named, collisions } = nameTools(entries);
	const tools = named.map(({ name, value }) => mcpTool(name, value.config, value.info, call, timeoutMs, new BoundApproval(definitions, name, value.info)));
	return { tools, problems: [...problems, ...collisions] };
}
