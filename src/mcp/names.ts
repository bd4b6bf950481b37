// MCP tools are offered under Claude Code's names, `mcp__<server>__<tool>`, so permission rules and
// hook matchers copy over. Provider tool names allow `[A-Za-z0-9_-]` and at most 64 characters:
// anything else becomes `_`, and a name cut to fit keeps a short hash of the whole, so two tools
// never meet under one name; two that still do are reported, and neither is offered.
import { createHash } from 'node:crypto';

export const MAX_TOOL_NAME = 64;

/** A server's or tool's name as it may stand in a tool name. */
export function sanitizeName(name: string): string {
	const cleaned = name.replace(/[^A-Za-z0-9_-]/g, '_');
	return cleaned === '' ? '_' : cleaned;
}

/** The tool name of `tool` of `server`: `mcp__server__tool`, cut to 64 characters with a hash when longer. */
export function mcpToolName(server: string, tool: string): string {
	const full = `mcp__${sanitizeName(server)}__${sanitizeName(tool)}`;
	if (full.length <= MAX_TOOL_NAME) {
		return full;
	}
	const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8);
	return `${full.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
}

export interface NamedTool<T> {
	readonly name: string;
	readonly server: string;
	readonly tool: string;
	readonly value: T;
}

/**
 * Every tool under its name, sorted by name (a stable tool list), and the names two tools would
 * share after sanitising: those tools are left out, and the message says which.
 */
export function nameTools<T>(
	tools: readonly { readonly server: string; readonly tool: string; readonly value: T }[],
): { readonly named: NamedTool<T>[]; readonly collisions: string[] } {
	const byName = new Map<string, { readonly server: string; readonly tool: string; readonly value: T }[]>();
	for (const entry of tools) {
		const name = mcpToolName(entry.server, entry.tool);
		byName.set(name, [...(byName.get(name) ?? []), entry]);
	}
	const named: NamedTool<T>[] = [];
	const collisions: string[] = [];
	for (const [name, entries] of byName) {
		const [only] = entries;
		if (entries.length === 1 && only) {
			named.push({ name, ...only });
		} else {
			const who = entries.map((entry) => `"${entry.tool}" of "${entry.server}"`).join(', ');
			collisions.push(`The MCP tools ${who} would all be named ${name}; none of them is offered. Rename a server in its configuration to tell them apart.`);
		}
	}
	named.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	return { named, collisions };
}

/** Whether `name` is one an MCP rule may use (`mcp__server`, `mcp__server__tool`, `mcp__server__*`). */
export function isMcpRuleName(name: string): boolean {
	return /^mcp__[A-Za-z0-9_-]+(?:__\*)?$/.test(name);
}

/** Whether a permission rule's or hook matcher's name covers `toolName`: `mcp__server__tool`, `mcp__server`, `mcp__server__*`. */
export function mcpNameMatches(pattern: string, toolName: string): boolean {
	if (pattern === toolName) {
		return true;
	}
	const server = pattern.endsWith('__*') ? pattern.slice(0, -3) : pattern;
	return /^mcp__[A-Za-z0-9_-]+$/.test(server) && !server.slice(5).includes('__') && toolName.startsWith(`${server}__`);
}
