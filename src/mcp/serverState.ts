// One server's state as the window keeps it, what a listing changed, and the reconnect delays.
import { createHash } from 'node:crypto';
import type { McpServerFacts, McpToolInfo } from './session';

export type ServerState =
	| { readonly kind: 'starting' }
	| { readonly kind: 'connected'; readonly facts: McpServerFacts }
	/** The connection ended; another attempt follows (`attempt` of RESTART_DELAYS_MS.length). */
	| { readonly kind: 'reconnecting'; readonly attempt: number; readonly message: string }
	| { readonly kind: 'failed'; readonly message: string }
	/** It answers only once the person signed in (OAuth); it waits for their Sign in, never retried alone. */
	| { readonly kind: 'needs-sign-in' }
	| { readonly kind: 'stopped' };

/** What one listing changed: tools by name. */
export interface ToolListChange {
	readonly added: readonly string[];
	readonly removed: readonly string[];
	/** Tools whose description, schema or annotations differ (their approvals no longer hold). */
	readonly changed: readonly string[];
	/** The first listing after the server first connected: nothing the model should be told of. */
	readonly initial: boolean;
}

export type ServerEvent =
	| { readonly kind: 'state'; readonly state: ServerState }
	| { readonly kind: 'tools'; readonly change: ToolListChange }
	/** `notifications/resources/updated` of a resource a chat subscribed to. */
	| { readonly kind: 'resource-updated'; readonly uri: string };

/** A tool's definition as its approvals are bound to it: a hash of its description, schema and annotations. */
export function definitionHash(tool: McpToolInfo): string {
	return createHash('sha256').update(JSON.stringify([tool.description, tool.inputSchema, tool.annotations, tool.title ?? null])).digest('hex').slice(0, 16);
}

/** What a listing changed against the one before it. */
export function listChange(before: readonly McpToolInfo[], after: readonly McpToolInfo[], initial: boolean): ToolListChange {
	const was = new Map(before.map((tool) => [tool.name, definitionHash(tool)]));
	const now = new Map(after.map((tool) => [tool.name, definitionHash(tool)]));
	return {
		added: [...now.keys()].filter((name) => !was.has(name)),
		removed: [...was.keys()].filter((name) => !now.has(name)),
		changed: [...now].filter(([name, hash]) => was.has(name) && was.get(name) !== hash).map(([name]) => name),
		initial,
	};
}

/** Waits before each reconnect attempt; after the last, the server stays failed until restarted. */
export const RESTART_DELAYS_MS = [1000, 2000, 4000, 8000, 16_000] as const;

/** A state in words, for messages and the server list. */
export function describeState(state: ServerState): string {
	switch (state.kind) {
		case 'starting':
			return 'starting';
		case 'connected':
			return 'connected';
		case 'reconnecting':
			return `reconnecting (attempt ${state.attempt} of ${RESTART_DELAYS_MS.length}) after ${state.message}`;
		case 'failed':
			return `failed: ${state.message}`;
		case 'needs-sign-in':
			return 'needs sign-in: the server asks you to sign in before it answers';
		case 'stopped':
			return 'not started';
	}
}

/** A configured server as the list shows it. */
export type EntryState = ServerState | { readonly kind: 'disabled' } | { readonly kind: 'declined' };

/** An entry's state in words. */
export function describeEntry(state: EntryState): string {
	if (state.kind === 'disabled') {
		return 'disabled in its configuration';
	}
	if (state.kind === 'declined') {
		return 'not approved: a workspace server starts only once you approve it';
	}
	return describeState(state);
}
