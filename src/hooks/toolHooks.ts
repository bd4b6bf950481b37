// The hooks of a chat as the agent meets them: PreToolUse before a tool call is decided (a block
// refuses it), PostToolUse after it ran successfully (a block objects to it). What a hook decided
// goes to the model as `hook.outcome` (the tool-call runner queues it); what went wrong with a
// hook (it failed, hung, printed garbage) is said in the chat and the log, and never blocks.
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import type { HookOutcome } from '../reminders/builtin/hookOutcome';
import { type HookEvent, type HookGroup, hooksFor } from './config';
import { type HookFacts, type HooksOutcome, runHooks } from './runner';

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
}

/** What the hooks of a tool event said; `refused`: a PreToolUse hook refused the call, and why. */
export interface ToolHookAnswer {
	readonly refused?: string;
	readonly outcomes: readonly HookOutcome[];
}

const NOTHING: ToolHookAnswer = { outcomes: [] };

/** A hook as a message names it: its program only, since the rest of a command line may hold a token. */
export function hookName(command: string): string {
	const program = command.trim().split(/\s+/)[0] ?? '';
	return `"${program.length > 80 ? `${program.slice(0, 80)}…` : program}"`;
}

/** What the hooks said about a message about to be sent; `blocked`: a UserPromptSubmit hook's reason, and the message is not sent. */
export interface PromptHookAnswer {
	readonly blocked?: string;
	/** Each hook's context in order (SessionStart's first), stored on the user record. */
	readonly context: readonly { readonly event: HookEvent; readonly text: string }[];
}

/** The port a root turn runs its message through before it is recorded (TurnScope.prompt). */
export interface PromptHooks {
	/** `first`: the chat's first message, so SessionStart runs before UserPromptSubmit. */
	submit(text: string, first: boolean, signal: AbortSignal): Promise<PromptHookAnswer>;
	/** The turn is about to end; a reason: a Stop hook wants it to continue (`active`: it already did once this turn). */
	stop(active: boolean, signal: AbortSignal): Promise<string | undefined>;
}

/** The port the tool-call runner hooks through (TurnScope.hooks). */
export interface ToolHooks {
	beforeTool(call: { readonly name: string; readonly input: unknown }, signal: AbortSignal): Promise<ToolHookAnswer>;
	afterTool(call: { readonly name: string; readonly input: unknown }, result: { readonly content: string; readonly isError?: boolean }, signal: AbortSignal): Promise<ToolHookAnswer>;
}

export class ConfiguredHooks implements ToolHooks, PromptHooks {
	constructor(private readonly env: HooksEnvironment) {}

	async beforeTool(call: { readonly name: string; readonly input: unknown }, signal: AbortSignal): Promise<ToolHookAnswer> {
		const said = await this.run('PreToolUse', call.name, { tool: { name: call.name, input: call.input } }, signal);
		const outcomes: HookOutcome[] = said.contexts.map(({ context }) => ({ event: 'PreToolUse', tool: call.name, kind: 'context', text: context }));
		if (said.blocks.length === 0) {
			return { outcomes };
		}
		const refused = said.blocks.map((block) => block.reason).join('\n');
		return { refused, outcomes: [...outcomes, { event: 'PreToolUse', tool: call.name, kind: 'blocked', text: refused }] };
	}

	async afterTool(call: { readonly name: string; readonly input: unknown }, result: { readonly content: string; readonly isError?: boolean }, signal: AbortSignal): Promise<ToolHookAnswer> {
		// As in Claude Code: PostToolUse follows a call that completed, not one refused or failed.
		if (result.isError) {
			return NOTHING;
		}
		const said = await this.run('PostToolUse', call.name, { tool: { name: call.name, input: call.input, response: { content: result.content } } }, signal);
		return {
			outcomes: [
				...said.blocks.map(({ reason }): HookOutcome => ({ event: 'PostToolUse', tool: call.name, kind: 'blocked', text: reason })),
				...said.contexts.map(({ context }): HookOutcome => ({ event: 'PostToolUse', tool: call.name, kind: 'context', text: context })),
			],
		};
	}

	async submit(text: string, first: boolean, signal: AbortSignal): Promise<PromptHookAnswer> {
		const context: { event: HookEvent; text: string }[] = [];
		if (first) {
			const started = await this.run('SessionStart', undefined, { source: 'startup' }, signal);
			// SessionStart cannot block in Claude Code either: what it prints is context.
			context.push(...started.contexts.map(({ context: said }) => ({ event: 'SessionStart' as const, text: said })));
		}
		const said = await this.run('UserPromptSubmit', undefined, { prompt: text }, signal);
		if (said.blocks.length > 0) {
			const blocked = said.blocks.map((block) => block.reason).join('\n');
			this.env.notify(`Your message was not sent: a UserPromptSubmit hook blocked it: ${blocked}`);
			return { blocked, context };
		}
		context.push(...said.contexts.map(({ context: added }) => ({ event: 'UserPromptSubmit' as const, text: added })));
		return { context };
	}

	async stop(active: boolean, signal: AbortSignal): Promise<string | undefined> {
		const said = await this.run('Stop', undefined, { stopHookActive: active }, signal);
		return said.blocks.length > 0 ? said.blocks.map((block) => block.reason).join('\n') : undefined;
	}

	/** Runs the hooks of `event` (for `toolName`, the tool events); failures are said, never thrown. */
	private async run(event: HookEvent, toolName: string | undefined, facts: Pick<HookFacts, 'tool' | 'prompt' | 'source' | 'stopHookActive'>, signal: AbortSignal): Promise<HooksOutcome> {
		const { env } = this;
		let groups: readonly HookGroup[];
		try {
			groups = await env.groups(signal);
		} catch (error) {
			env.log.error(`Aside: the hooks could not be read: ${errorMessage(error)}`);
			return { blocks: [], contexts: [], failures: [] };
		}
		const hooks = hooksFor(groups, event, toolName);
		if (hooks.length === 0) {
			return { blocks: [], contexts: [], failures: [] };
		}
		// Each hook runs in its own workspace folder; the user's in the first one.
		const byFolder = new Map<string, typeof hooks[number][]>();
		for (const hook of hooks) {
			const folder = hook.origin.folder ?? env.folder();
			byFolder.set(folder, [...(byFolder.get(folder) ?? []), hook]);
		}
		const said = await Promise.all([...byFolder].map(([cwd, list]) => runHooks(list, { event, sessionId: env.sessionId(), cwd, ...facts }, { signal })));
		const outcome: HooksOutcome = { blocks: said.flatMap((one) => one.blocks), contexts: said.flatMap((one) => one.contexts), failures: said.flatMap((one) => one.failures) };
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
