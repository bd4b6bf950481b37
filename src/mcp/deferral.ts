// When the MCP tools are deferred (docs/mcp.md, "Context budget"): their schemas would take more
// than `aside.mcp.deferAt` of the context window, or the `vscode-lm` provider would be handed more
// tools than it takes. The model then gets three stable tools (catalogTools.ts) and a one-line-a-
// tool catalog (mcp.catalog) instead of every schema.
import type { Tool } from '../tools/tool';

/** `aside.mcp.deferAt`: a number of tokens, or a share of the context window (`"10%"`). */
export type DeferAt = { readonly kind: 'tokens'; readonly tokens: number } | { readonly kind: 'share'; readonly percent: number };

export const DEFAULT_DEFER_AT: DeferAt = { kind: 'share', percent: 10 };

/** A provider that takes at most this many tools in one request (VS Code's language model API). */
export const TOOL_LIMITS: Readonly<Record<string, number>> = { 'vscode-lm': 128 };

/** The window a share is taken of when the model's is not known. */
export const UNKNOWN_WINDOW = 128_000;

/** What the tools are offered to: the provider, its model's window, and how many other tools the request carries. */
export interface ToolOffer {
	readonly providerId: string;
	readonly contextWindow?: number;
	readonly otherTools: number;
}

/** The setting's value as a DeferAt: a number of tokens or a percentage written `"N%"`; undefined when it is neither. */
export function readDeferAt(value: unknown): DeferAt | undefined {
	if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
		return { kind: 'tokens', tokens: Math.floor(value) };
	}
	const match = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(value) : null;
	const percent = match ? Number(match[1]) : NaN;
	return percent >= 0 && percent <= 100 ? { kind: 'share', percent } : undefined;
}

/** The tokens a tool's spec costs the model, at ~4 characters a token (the compaction estimate's rate). */
export function specTokens(tool: Pick<Tool, 'name' | 'description' | 'inputSchema'>): number {
	return Math.ceil((tool.name.length + tool.description.length + JSON.stringify(tool.inputSchema ?? {}).length) / 4);
}

/** The budget in tokens `deferAt` allows the MCP tools' specs for a window. */
export function budgetOf(deferAt: DeferAt, contextWindow: number | undefined): number {
	return deferAt.kind === 'tokens' ? deferAt.tokens : Math.floor(((contextWindow ?? UNKNOWN_WINDOW) * deferAt.percent) / 100);
}

/** Why the MCP tools are deferred for this offer, or undefined when their specs are offered as they are. */
export function deferralReason(tools: readonly Tool[], deferAt: DeferAt, offer: ToolOffer): string | undefined {
	if (tools.length === 0) {
		return undefined;
	}
	const limit = TOOL_LIMITS[offer.providerId];
	if (limit !== undefined && tools.length + offer.otherTools > limit) {
		return `the ${offer.providerId} provider takes at most ${limit} tools, and the MCP servers offer ${tools.length} beside ${offer.otherTools} others`;
	}
	const tokens = tools.reduce((sum, tool) => sum + specTokens(tool), 0);
	const budget = budgetOf(deferAt, offer.contextWindow);
	if (tokens > budget) {
		const of = deferAt.kind === 'share' ? ` (${deferAt.percent}% of a ${offer.contextWindow ?? UNKNOWN_WINDOW}-token window)` : '';
		return `the MCP tools' schemas take about ${tokens} tokens, more than aside.mcp.deferAt allows: ${budget}${of}`;
	}
	return undefined;
}
