// Runs one configured hook as Claude Code does: the command in a shell (cwd: its workspace
// folder), a JSON description of the event on stdin, a timeout and an output cap. It answers by
// exit code — 0 allows, 2 blocks with stderr as the reason, anything else is an error that is
// shown and does not block — and by optional JSON on stdout (`decision: "block"` and `reason`,
// `continue: false` and `stopReason` (a halt: the agent stops, which is not a block), PreToolUse's `permissionDecision: "deny"`,
// `hookSpecificOutput.additionalContext`). Nothing here throws: a hook that cannot start, hangs,
// prints too much or prints garbage is a `failed` answer saying so, never a blocked chat.
import { spawn } from 'node:child_process';
import { killTree } from '../tools/nodeRunner';
import type { HookCommand, HookEvent } from './config';

/** Each of stdout and stderr; a hook printing more is stopped and its answer is a failure. */
export const MAX_HOOK_OUTPUT_BYTES = 64 * 1024;
/** After SIGTERM (timeout, cap, Stop), how long the hook's process group gets before SIGKILL. */
const KILL_GRACE_MS = 1000;
/** After the hook's own process exited, how long to read what a background job it left still holds open. */
const DRAIN_MS = 500;

/** What the hook is told about its event (Claude Code's stdin fields, snake_case on the wire). */
export interface HookFacts {
	readonly event: HookEvent;
	readonly sessionId: string;
	/** The workspace folder the hook runs in. */
	readonly cwd: string;
	readonly transcriptPath?: string;
	/** `name`: Claude Code's name for the tool (`Bash`); `asideName`: Aside's (`Run`), when it is told. */
	readonly tool?: { readonly name: string; readonly asideName?: string; readonly input: unknown; readonly response?: unknown };
	/** UserPromptSubmit: the text as typed. */
	readonly prompt?: string;
	/** SessionStart: why the session started (`startup`, `resume`). */
	readonly source?: string;
	/** Stop: this turn already continued because a Stop hook blocked (Claude Code's loop guard). */
	readonly stopHookActive?: boolean;
}

export type HookAnswer =
	| { readonly kind: 'allow'; readonly context?: string }
	| { readonly kind: 'block'; readonly reason: string }
	/** `continue: false`, as in Claude Code: the agent stops (the reason is the person's, not the model's); it wins over `decision`. */
	| { readonly kind: 'halt'; readonly reason: string }
	| { readonly kind: 'failed'; readonly message: string };

export interface HookRunOptions {
	readonly signal: AbortSignal;
	readonly maxOutputBytes?: number;
	/** Extra environment (tests); the hook inherits the editor's otherwise. */
	readonly env?: NodeJS.ProcessEnv;
}

/** The JSON written on the hook's stdin. */
export function hookInput(facts: HookFacts): Record<string, unknown> {
	return {
		session_id: facts.sessionId,
		...(facts.transcriptPath ? { transcript_path: facts.transcriptPath } : {}),
		cwd: facts.cwd,
		hook_event_name: facts.event,
		...(facts.tool ? {
			tool_name: facts.tool.name,
			...(facts.tool.asideName === undefined ? {} : { aside_tool_name: facts.tool.asideName }),
			tool_input: facts.tool.input,
		} : {}),
		...(facts.tool?.response !== undefined ? { tool_response: facts.tool.response } : {}),
		...(facts.prompt !== undefined ? { prompt: facts.prompt } : {}),
		...(facts.source !== undefined ? { source: facts.source } : {}),
		...(facts.event === 'Stop' ? { stop_hook_active: facts.stopHookActive ?? false } : {}),
	};
}

/** Events whose plain (non-JSON) stdout on exit 0 is context for the model, as in Claude Code. */
const PLAIN_CONTEXT: ReadonlySet<HookEvent> = new Set(['SessionStart', 'UserPromptSubmit']);

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The answer of a hook that exited 0, from its stdout. */
export function answerOf(event: HookEvent, stdout: string): HookAnswer {
	const trimmed = stdout.trim();
	if (trimmed === '') {
		return { kind: 'allow' };
	}
	let json: unknown;
	if (trimmed.startsWith('{')) {
		try {
			json = JSON.parse(trimmed);
		} catch {
			return { kind: 'failed', message: `printed output that starts like JSON but is not valid JSON: ${trimmed.slice(0, 200)}` };
		}
	}
	if (json === undefined || typeof json !== 'object' || json === null || Array.isArray(json)) {
		return PLAIN_CONTEXT.has(event) ? { kind: 'allow', context: trimmed } : { kind: 'allow' };
	}
	const out = json as Record<string, unknown>;
	const specific = typeof out.hookSpecificOutput === 'object' && out.hookSpecificOutput !== null ? (out.hookSpecificOutput as Record<string, unknown>) : {};
	if (out.continue === false) {
		return { kind: 'halt', reason: text(out.stopReason) ?? 'the hook asked to stop (continue: false)' };
	}
	if (out.decision === 'block') {
		return { kind: 'block', reason: text(out.reason) ?? 'the hook blocked it without a reason' };
	}
	if (specific.permissionDecision === 'deny') {
		return { kind: 'block', reason: text(specific.permissionDecisionReason) ?? text(out.reason) ?? 'the hook denied it without a reason' };
	}
	const context = text(specific.additionalContext);
	return context === undefined ? { kind: 'allow' } : { kind: 'allow', context };
}

/** Runs `hook` for `facts` in `cwd`; resolves (never rejects) by its timeout at the latest. */
export function runHook(hook: HookCommand, facts: HookFacts, options: HookRunOptions): Promise<HookAnswer> {
	const cap = options.maxOutputBytes ?? MAX_HOOK_OUTPUT_BYTES;
	const seconds = hook.timeoutMs / 1000;
	if (options.signal.aborted) {
		return Promise.resolve({ kind: 'failed', message: 'not run: the turn was stopped' });
	}
	return new Promise((resolve) => {
		const child = spawn(hook.command, {
			cwd: facts.cwd,
			shell: true,
			detached: process.platform !== 'win32',
			stdio: ['pipe', 'pipe', 'pipe'],
			windowsHide: true,
			// Hooks copied from Claude Code find their scripts through CLAUDE_PROJECT_DIR.
			env: { ...process.env, ...options.env, CLAUDE_PROJECT_DIR: facts.cwd, ASIDE_PROJECT_DIR: facts.cwd },
		});
		const stdout: Buffer[] = [];
		const stderr: Buffer[] = [];
		let stopped: string | undefined;
		let settled = false;
		let killTimer: NodeJS.Timeout | undefined;
		const stop = (why: string) => {
			stopped ??= why;
			killTree(child, 'SIGTERM');
			killTimer ??= setTimeout(() => {
				killTree(child, 'SIGKILL');
			}, KILL_GRACE_MS).unref();
		};
		const timer = setTimeout(() => {
			stop(`did not finish within ${seconds} s and was stopped`);
		}, hook.timeoutMs);
		const onAbort = () => {
			stop('was stopped with the turn');
		};
		options.signal.addEventListener('abort', onAbort, { once: true });
		const settle = (answer: HookAnswer) => {
			if (settled) {
				return;
			}
			settled = true;
			clearTimeout(timer);
			options.signal.removeEventListener('abort', onAbort);
			resolve(answer);
		};
		// Each stream is kept up to the cap; a hook printing more is stopped.
		for (const [stream, name, chunks] of [[child.stdout, 'stdout', stdout], [child.stderr, 'stderr', stderr]] as const) {
			let bytes = 0;
			stream.on('data', (chunk: Buffer) => {
				bytes += chunk.length;
				if (bytes > cap) {
					stop(`printed more than ${cap} bytes on ${name} and was stopped`);
				} else {
					chunks.push(chunk);
				}
			});
		}
		child.on('error', (error) => {
			settle({ kind: 'failed', message: `could not start: ${error.message}` });
		});
		// A hook that ignores its stdin (most do) closes it early: that is no failure.
		child.stdin.on('error', () => undefined);
		child.stdin.end(`${JSON.stringify(hookInput(facts))}\n`);
		let exitCode: number | null | undefined;
		let drainTimer: NodeJS.Timeout | undefined;
		const finish = (code: number | null) => {
			// The SIGKILL timer of a stopped hook stays (unref'd), for a job that ignores SIGTERM.
			clearTimeout(drainTimer);
			const err = Buffer.concat(stderr).toString('utf8').trim();
			if (stopped !== undefined) {
				settle({ kind: 'failed', message: stopped });
			} else if (code === 2) {
				settle({ kind: 'block', reason: err || 'the hook exited with code 2 without a reason on stderr' });
			} else if (code === 0) {
				settle(answerOf(facts.event, Buffer.concat(stdout).toString('utf8')));
			} else {
				settle({ kind: 'failed', message: `exited with code ${code ?? 'none (killed by a signal)'}${err ? `: ${err.slice(0, 500)}` : ''}` });
			}
		};
		// The hook's own process ended: its answer is its exit, whatever a background job it left
		// still holds; that job keeps running (as after `cmd &` in a shell), no longer read.
		child.on('exit', (code) => {
			exitCode = code;
			clearTimeout(timer);
			drainTimer = setTimeout(() => {
				child.stdout.destroy();
				child.stderr.destroy();
				finish(code);
			}, DRAIN_MS);
		});
		child.on('close', (code) => {
			finish(exitCode === undefined ? code : exitCode);
		});
	});
}

/** What the hooks of one event said together. */
export interface HooksOutcome {
	/** Every blocking hook's reason, in configuration order; empty: nothing blocked. */
	readonly blocks: readonly { readonly hook: HookCommand; readonly reason: string }[];
	readonly contexts: readonly { readonly hook: HookCommand; readonly context: string }[];
	readonly failures: readonly { readonly hook: HookCommand; readonly message: string }[];
	/** Every hook that answered `continue: false`, with its stopReason; any: the agent stops. */
	readonly halts: readonly { readonly hook: HookCommand; readonly reason: string }[];
}

export const NOTHING_SAID: HooksOutcome = { blocks: [], contexts: [], failures: [], halts: [] };

/** Runs the hooks of one event at once (as Claude Code does) and gathers their answers in configuration order. */
export async function runHooks(hooks: readonly HookCommand[], facts: HookFacts, options: HookRunOptions): Promise<HooksOutcome> {
	if (hooks.length === 0) {
		return NOTHING_SAID;
	}
	const answers = await Promise.all(hooks.map((hook) => runHook(hook, facts, options)));
	const blocks: HooksOutcome['blocks'][number][] = [];
	const contexts: HooksOutcome['contexts'][number][] = [];
	const failures: HooksOutcome['failures'][number][] = [];
	const halts: HooksOutcome['halts'][number][] = [];
	for (const [index, answer] of answers.entries()) {
		const hook = hooks[index] as HookCommand;
		if (answer.kind === 'block') {
			blocks.push({ hook, reason: answer.reason });
		} else if (answer.kind === 'halt') {
			halts.push({ hook, reason: answer.reason });
		} else if (answer.kind === 'failed') {
			failures.push({ hook, message: answer.message });
		} else if (answer.context !== undefined) {
			contexts.push({ hook, context: answer.context });
		}
	}
	return { blocks, contexts, failures, halts };
}
