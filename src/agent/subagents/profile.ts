// What an agent profile is: the kind of child invocation the Agent tool may start (`explore`,
// `general`, `verify`, or one a person wrote as a Markdown file), and where the current ones come
// from. Built-ins are in builtinProfiles.ts; files are parsed by profileFile.ts.
import type { Event } from '../../base/event';

/**
 * Which tools a child of the profile is offered: read-only ones, the parent's (never Agent unless
 * `canSpawn`), or these names — of the tools the parent is offered, never more.
 */
export type ProfileTools = { readonly kind: 'read-only' } | { readonly kind: 'inherit' } | { readonly kind: 'named'; readonly names: readonly string[] };

export type ProfileSource =
	| { readonly kind: 'builtin' }
	/** A Markdown file: in a workspace folder (`.aside/agents/`, `.claude/agents/`) or the user's folder. */
	| { readonly kind: 'file'; readonly path: string; readonly scope: 'workspace' | 'user' };

export interface AgentProfile {
	/** What the Agent tool's `agent` names: lowercase letters, digits and `-`. */
	readonly name: string;
	/** One line: what it is for (the agents.listing reminder shows it). */
	readonly description: string;
	readonly tools: ProfileTools;
	/** A model id of the configured provider; absent: the parent's model. */
	readonly model?: string;
	/** Its step budget (model samples); absent: aside.agents.maxSteps. */
	readonly maxSteps?: number;
	/** Reminder types (or wire keys) added to its roster at spawn, beside the agent-scope ones. */
	readonly reminders: readonly string[];
	/** May call Agent itself (never past depth 2). */
	readonly canSpawn: boolean;
	/** Its role prompt: the system prompt of its requests (the file's body). */
	readonly prompt: string;
	readonly source: ProfileSource;
}

/**
 * Something wrong in a profile file, in words naming the field: an `error` means the file was
 * skipped, a `warning` that it loaded without what the message names (an unknown tool, say).
 */
export interface ProfileProblem {
	/** The file (absolute), or the folder for a problem of the folder. */
	readonly path: string;
	readonly message: string;
	readonly severity: 'error' | 'warning';
}

/**
 * The profiles on offer now, one per name: a workspace file's wins over a user file's, which wins
 * over a built-in (profileLibrary.ts); built-ins first, then the files by name. And when they change.
 */
export interface AgentProfiles {
	current(): readonly AgentProfile[];
	/** What is wrong in the files, as of now: the skipped ones and the warnings. */
	problems(): readonly ProfileProblem[];
	/** The profiles changed (not fired when a re-read found the same). */
	readonly onDidChange: Event<void>;
}
