// The hooks of a chat as the agent meets them: PreToolUse before a tool call is decided (a block
// refuses it), PostToolUse after it ran successfully (a block objects to it), SessionStart,
// UserPromptSubmit and Stop for the root's messages (a chat runs them through
// src/agent/turnHooks.ts). What a hook decided goes to the model as `hook.outcome`; a
// `continue: false` halts the agent, its stopReason said to the person only; what went wrong
// with a hook (it failed, hung, printed garbage) is said in the chat and the log, never blocks.
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import type { HookOutcome } from '../reminders/builtin/hookOutcome';
import { type HookEvent, type HookGroup, hooksFor } from './config';
import { claudeToolCalls } from './claudeInput';
import { type HookFacts, type HooksOutcome, NOTHING_SAID, runHooks } from './runner';

/** Where a chat's hooks come from, and what they run with. */
export interface HooksEnvironment {
	/** The hooks that may run now: the user's, and the workspace's that are trusted and allowed (it may ask the person first). */
	readonly groups: (signal: AbortSignal) => Promise<readonly HookGroup[]>;
	/** Where a user hook runs: the first workspace folder (or the home folder, none open). */
	readonly folder: () => string;
	/** The chat the event belongs to (the hook's `session_id`). */
	readonly sessionId: () => string;
	/** Says a hook's failure in the chat. */
	readonly notify: (text: string) => void;
	readonly log: Logger;
	/** Where hooks are configured that do not run because the workspace is untrusted. */
	readonly skippedByTrust?: () => Promise<readonly string[]>;
}

/**
 * What the hooks of a tool event said; `refused`: a PreToolUse hook refused the call, and why; `halt`:
 * one answered `continue: false` (the turn ends after this step).
 */
export interface ToolHookAnswer {
	readonly refused?: string;
	readonly halt?: string;
	readonly outcomes: readonly HookOutcome[];
}

const NOTHING: ToolHookAnswer = { outcomes: [] };

/** A hook as a message names it: its program only, since the rest of a command line may hold a token. */
export function hookName(command: string): string {
	const program = command.trim().split(/\s+/)[0] ?? '';
	return `"${program.length > 80 ? `${program.slice(0, 80)}…` : program}"`;
}

export type HookContextEntry = { readonly event: HookEvent; readonly text: string };

/** Why a SessionStart hook runs (Claude Code's `source`): a new chat, a chat reopened (or after a restart), after a compaction. */
export type SessionStartSource = 'startup' | 'resume' | 'compact';

/** What the UserPromptSubmit hooks said; `blocked`: the message is not sent, and why (a block's reason or a halt's stopReason). */
export interface PromptHookAnswer {
	readonly blocked?: string;
	/** Each hook's context in order: accepted with the message (stored on its user record). */
	readonly context: readonly HookContextEntry[];
}

/** What the Stop hooks said: keep going (a block's reason, for the model), stop (a halt), or nothing. */
export type StopHookAnswer = { readonly kind: 'continue'; readonly reason: string } | { readonly kind: 'halt'; readonly reason: string } | undefined;

/** The events a root turn runs its hooks for (the chat's hooks: src/agent/turnHooks.ts). */
export interface PromptHooks {
	/** SessionStart's context (none when one of its hooks halted: the chat says why). */
	sessionStart(source: SessionStartSource, signal: AbortSignal): Promise<readonly HookContextEntry[]>;
	userPromptSubmit(text: string, signal: AbortSignal): Promise<PromptHookAnswer>;
	/** The turn is about to end (`active`: a Stop hook already kept it going once). */
	stop(active: boolean, signal: AbortSignal): Promise<StopHookAnswer>;
}

/** The port the tool-call runner hooks through (TurnScope.hooks). */
export interface ToolHooks {
	beforeTool(call: { readonly name: string; readonly input: unknown }, signal: AbortSignal): Promise<ToolHookAnswer>;
	afterTool(
		call: { readonly name: string; readonly input: unknown },
		result: { readonly content: string; readonly isError?: boolean },
		signal: AbortSignal,
	): Promise<ToolHookAnswer>;
}

function reasons(list: readonly { readonly reason: string }[]): string {
	return list.map((item) => item.reason).join('\n');
}

export class ConfiguredHooks implements ToolHooks, PromptHooks {
	constructor(private readonly env: HooksEnvironment) {}

	/** Where hooks are configured that Restricted Mode keeps from running (`the setting aside.hooks`, a file's path): for the notice of what was not loaded. */
	skippedByTrust(): Promise<readonly string[]> {
		return this.env.skippedByTrust?.() ?? Promise.resolve([]);
	}

	async beforeTool(call: { readonly name: string; readonly input: unknown }, signal: AbortSignal): Promise<ToolHookAnswer> {
		const said = await this.runPerInput('PreToolUse', call, undefined, signal);
		const outcomes: HookOutcome[] = said.contexts.map(({ context }) => ({ event: 'PreToolUse', tool: call.name, kind: 'context', text: context }));
		// `continue: false` wins over a block (as in Claude Code): the call is refused and the turn ends after this step.
		if (said.halts.length > 0) {
			const halt = this.halted('PreToolUse', said);
			return { refused: halt, halt, outcomes };
		}
		if (said.blocks.length === 0) {
			return { outcomes };
		}
		const refused = reasons(said.blocks);
		return { refused, outcomes: [...outcomes, { event: 'PreToolUse', tool: call.name, kind: 'blocked', text: refused }] };
	}

	async afterTool(
		call: { readonly name: string; readonly input: unknown },
		result: { readonly content: string; readonly isError?: boolean },
		signal: AbortSignal,
	): Promise<ToolHookAnswer> {
		// As in Claude Code: PostToolUse follows a call that completed, not one refused or failed.
		if (result.isError) {
			return NOTHING;
		}
		const said = await this.runPerInput('PostToolUse', call, { content: result.content }, signal);
		const outcomes = [
			...said.blocks.map(({ reason }): HookOutcome => ({ event: 'PostToolUse', tool: call.name, kind: 'blocked', text: reason })),
			...said.contexts.map(({ context }): HookOutcome => ({ event: 'PostToolUse', tool: call.name, kind: 'context', text: context })),
		];
		return said.halts.length > 0 ? { halt: this.halted('PostToolUse', said), outcomes } : { outcomes };
	}

	async sessionStart(source: SessionStartSource, signal: AbortSignal): Promise<readonly HookContextEntry[]> {
		const said = await this.run('SessionStart', undefined, { source }, signal);
		if (said.halts.length > 0) {
			this.halted('SessionStart', said, 'its context was dropped');
			return [];
		}
		// SessionStart cannot block in Claude Code either: what it prints is context.
		return said.contexts.map(({ context }) => ({ event: 'SessionStart', text: context }));
	}

	async userPromptSubmit(text: string, signal: AbortSignal): Promise<PromptHookAnswer> {
		const said = await this.run('UserPromptSubmit', undefined, { prompt: text }, signal);
		if (said.halts.length > 0) {
			return { blocked: this.halted('UserPromptSubmit', said, 'your message was not sent'), context: [] };
		}
		if (said.blocks.length > 0) {
			const blocked = reasons(said.blocks);
			this.env.notify(`Your message was not sent: a UserPromptSubmit hook blocked it: ${blocked}`);
			return { blocked, context: [] };
		}
		return { context: said.contexts.map(({ context }) => ({ event: 'UserPromptSubmit', text: context })) };
	}

	async stop(active: boolean, signal: AbortSignal): Promise<StopHookAnswer> {
		const said = await this.run('Stop', undefined, { stopHookActive: active }, signal);
		if (said.halts.length > 0) {
			return { kind: 'halt', reason: this.halted('Stop', said) };
		}
		return said.blocks.length > 0 ? { kind: 'continue', reason: reasons(said.blocks) } : undefined;
	}

	/** A `continue: false` answer: its stopReason is for the person (the chat and the log), never the model's. */
	private halted(event: HookEvent, said: HooksOutcome, what = 'the agent stopped'): string {
		const reason = reasons(said.halts);
		const text = `A ${event} hook stopped the agent (continue: false)${what === 'the agent stopped' ? '' : `; ${what}`}: ${reason}`;
		this.env.log.info(`Aside: ${text}`);
		this.env.notify(text);
		return reason;
	}

	/** Runs a tool event's hooks for each of the call's Claude Code inputs (a patch: each file) in turn, until one blocks or halts. */
	private async runPerInput(event: 'PreToolUse' | 'PostToolUse', call: { readonly name: string; readonly input: unknown }, response: unknown, signal: AbortSignal): Promise<HooksOutcome> {
		let outcome = NOTHING_SAID;
		for (const input of claudeToolCalls(call.name, call.input, this.env.folder())) {
			const said = await this.run(
				event,
				call.name,
				{ tool: { name: input.name, asideName: call.name, input: input.input, ...(response === undefined ? {} : { response }) } },
				signal,
			);
			outcome = {
				blocks: [...outcome.blocks, ...said.blocks],
				contexts: [...outcome.contexts, ...said.contexts],
				failures: [...outcome.failures, ...said.failures],
				halts: [...outcome.halts, ...said.halts],
			};
			if (outcome.blocks.length > 0 || outcome.halts.length > 0) {
				break;
			}
		}
		return outcome;
	}

	/** Runs the hooks of `event` (for `toolName`, the tool events); failures are said, never thrown. */
	private async run(event: HookEvent, toolName: string | undefined, facts: Pick<HookFacts, 'tool' | 'prompt' | 'source' | 'stopHookActive'>, signal: AbortSignal): Promise<HooksOutcome> {
		const { env } = this;
		let groups: readonly HookGroup[];
		try {
			groups = await env.groups(signal);
		} catch (error) {
			env.log.error(`Aside: the hooks could not be read: ${errorMessage(error)}`);
			return NOTHING_SAID;
		}
		const hooks = hooksFor(groups, event, toolName);
		if (hooks.length === 0) {
			return NOTHING_SAID;
		}
		// Each hook runs in its own workspace folder; the user's in the first one.
		const byFolder = new Map<string, typeof hooks[number][]>();
		for (const hook of hooks) {
			const folder = hook.origin.folder ?? env.folder();
			byFolder.set(folder, [...(byFolder.get(folder) ?? []), hook]);
		}
		const said = await Promise.all([...byFolder].map(([cwd, list]) => runHooks(list, { event, sessionId: env.sessionId(), cwd, ...facts }, { signal })));
		const outcome: HooksOutcome = {
			blocks: said.flatMap((one) => one.blocks),
			contexts: said.flatMap((one) => one.contexts),
			failures: said.flatMap((one) => one.failures),
			halts: said.flatMap((one) => one.halts),
		};
		for (const { hook, message } of outcome.failures) {
			if (signal.aborted) {
				break;
			}
			const text = `The ${event} hook ${hookName(hook.command)} (${hook.origin.where}) ${message}. It did not block ${toolName !== undefined ? `the ${toolName} call` : event === 'Stop' ? 'the end of the turn' : 'the message'}.`;
			env.log.warn(`Aside: ${text}`);
			env.notify(text);
		}
		return outcome;
	}
}
