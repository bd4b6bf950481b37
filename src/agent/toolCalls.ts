// The tool calls of a turn loop: hooks → permission → invoke → record, Agent calls side by side
// with the others in order. Deciding and invoking one call is toolInvoker.ts (a write or command
// prepared first, the person asked when the policy says so, the verdict queued as a reminder); the
// observers hear of the call before it runs and after its result is recorded. Nothing here throws
// for a tool's sake: every failure is the call's result. A stopped turn ends after the call's
// result is recorded.
import { isAborted } from '../base/async';
import { errorMessage } from '../base/errors';
import type { Owner } from '../reminders/definition';
import { hookOutcome } from '../reminders/builtin/hookOutcome';
import { permissionVerdict } from '../reminders/builtin/permissionVerdict';
import { ProviderError } from '../providers/provider';
import type { Tool, ToolResult } from '../tools/tool';
import { imageRecords } from '../transcript/replayImages';
import type { ToolResultRecord } from '../transcript/toolResultRecord';
import type { PermissionMode } from '../vocabulary/permissionModes';
import { decidePermission, OPEN_CONTEXT } from './permissions/policy';
import { rulesName } from './permissions/rules';
import type { AgentPorts, ResolvedModel } from './ports';
import type { ToolHookAnswer } from '../hooks/toolHooks';
import type { ToolCall } from './response';
import { AGENT_TOOL_NAME } from './subagents/agentTool';
import type { LoopAgents, ParentLoop } from './turnScope';
import { Slots } from './subagents/slots';
import { DENIED, refused, ToolInvoker } from './toolInvoker';
import type { TurnScope } from './turnScope';

/** A call that ran (or was refused): its result, and when it started. */
interface Executed {
	readonly started: number;
	readonly result: ToolResult;
	readonly verdict?: ToolResultRecord['verdict'];
}

/** An Agent call that was still waiting for a slot when the turn was stopped. */
function notStarted(now: number): Executed {
	return { started: now, result: { isError: true, content: 'Not run: the turn was stopped before this sub-agent started.' } };
}

export class ToolCallRunner {
	/** Decides and runs each call past its hooks, and knows which calls a Stop cut off. */
	private readonly invoker: ToolInvoker;
	/** A tool hook answered `continue: false`: the loop ends after this step. */
	halted = false;

	constructor(
		private readonly ports: AgentPorts,
		private readonly scope: TurnScope,
		private readonly owner: Owner,
		private readonly turnId: string,
	) {
		this.invoker = new ToolInvoker(ports, scope, owner);
	}

	/**
	 * Runs the calls of one answer and records their results in call order. Agent calls (when the
	 * loop may spawn) start at once, up to the spawner's limit at a time; the other calls run one
	 * after another in order meanwhile. A stopped turn ends once every call that started has its
	 * result recorded (a sub-agent's says it was stopped); calls not started then have none.
	 */
	async runAll(
		calls: readonly ToolCall[],
		tools: readonly Tool[],
		mode: PermissionMode,
		final: boolean,
		model: ResolvedModel,
		signal: AbortSignal,
		agents?: LoopAgents,
	): Promise<void> {
		if (!agents || final || !calls.some((call) => call.name === AGENT_TOOL_NAME)) {
			for (const call of calls) {
				await this.run(call, tools, mode, final, signal);
			}
			return;
		}
		const slots = new Slots(Math.max(1, agents.maxConcurrent()));
		const pending: Promise<Executed | undefined>[] = [];
		let inOrder: Promise<unknown> = Promise.resolve();
		let childrenLeft = calls.filter((call) => call.name === AGENT_TOOL_NAME).length;
		for (const call of calls) {
			if (call.name === AGENT_TOOL_NAME) {
				const child = slots.run(
					() => (isAborted(signal) ? Promise.resolve(notStarted(this.ports.runtime.clock.now())) : this.runAgent(agents, call, mode, model, signal)),
				);
				pending.push(
					child.finally(() => {
						childrenLeft--;
					}),
				);
			} else {
				const executed = inOrder.then(() => (isAborted(signal) ? undefined : this.execute(call, tools, mode, false, signal)));
				inOrder = executed.catch(() => undefined);
				pending.push(executed);
			}
		}
		void inOrder.then(() => {
			// The other calls are done; the status says what is still running.
			if (childrenLeft > 0 && !isAborted(signal)) {
				this.scope.onUpdate?.({ type: 'status', status: 'running-tool', detail: AGENT_TOOL_NAME });
			}
		});
		// Every call that started is waited for, even after a failure: no sub-agent outlives its turn.
		let failure: unknown;
		for (const [index, call] of calls.entries()) {
			try {
				const executed = await pending[index];
				if (executed && failure === undefined) {
					await this.record(call, executed, signal);
				}
			} catch (error) {
				failure ??= error;
			}
		}
		if (failure !== undefined) {
			throw failure instanceof Error ? failure : new Error(errorMessage(failure));
		}
		if (signal.aborted) {
			throw new ProviderError('cancelled', 'The turn was stopped.');
		}
	}

	/** Runs `call` with the tools on offer (`final`: the step limit is reached, so nothing runs) and records its result. */
	async run(call: ToolCall, tools: readonly Tool[], mode: PermissionMode, final: boolean, signal: AbortSignal): Promise<void> {
		await this.record(call, await this.execute(call, tools, mode, final, signal), signal);
		if (signal.aborted) {
			throw new ProviderError('cancelled', 'The turn was stopped.');
		}
	}

	private async execute(requested: ToolCall, tools: readonly Tool[], mode: PermissionMode, final: boolean, signal: AbortSignal): Promise<Executed> {
		const started = this.ports.runtime.clock.now();
		const named = tools.find((candidate) => candidate.name === requested.name);
		if (final) {
			return { started, result: { isError: true, content: 'Not run: this was the last step allowed for this turn.' } };
		}
		if (!named) {
			return { started, result: { isError: true, content: `There is no tool named "${requested.name}"${mode === 'plan' ? ' in plan mode, which is read-only' : ''}. Available: ${tools.map((t) => t.name).join(', ') || 'none'}.` } };
		}
		// A stand-in (McpCall) is hooked, decided and run as the tool it names; its record stays the model's call.
		const target = named.standsFor?.resolve(requested.input);
		if (typeof target === 'string') {
			return { started, result: { isError: true, content: target } };
		}
		const tool = target?.tool ?? named;
		const call: ToolCall = target ? { ...requested, name: target.tool.name, input: target.input } : requested;
		// The person's hooks first (docs/hooks.md): a PreToolUse block refuses the call before anyone is asked.
		const { hooks } = this.scope;
		const before = await hooks?.beforeTool(call, signal);
		this.queueHookOutcomes(before);
		if (before?.halt !== undefined) {
			// `continue: false`: its stopReason is the person's (the chat says it), not the model's.
			this.halted = true;
			return { started, result: { isError: true, content: `Not run: a PreToolUse hook you configured stopped the agent here. ${tool.name} did not run, and the turn ends after this step.` } };
		}
		if (before?.refused !== undefined) {
			return { started, result: { isError: true, content: `Not run: a PreToolUse hook you configured refused this call: ${before.refused}\n${tool.name} did not run; do not retry it unchanged.` } };
		}
		const executed: Executed = { started, ...(await this.invoker.decideAndInvoke(tool, call, mode, signal)) };
		if (hooks && !isAborted(signal)) {
			const after = await hooks.afterTool(call, executed.result, signal);
			this.queueHookOutcomes(after);
			if (after.halt !== undefined) {
				this.halted = true;
			}
		}
		return executed;
	}

	/** What the hooks decided goes to the model with the next request, as `hook.outcome`. */
	private queueHookOutcomes(answer: ToolHookAnswer | undefined): void {
		for (const outcome of answer?.outcomes ?? []) {
			this.scope.engine.queueTurnEvent(this.owner, hookOutcome(outcome));
		}
	}

	/** An Agent call: the spawner runs the child to its end (it never throws for the child's sake). */
	private async runAgent(agents: LoopAgents, call: ToolCall, mode: PermissionMode, model: ResolvedModel, signal: AbortSignal): Promise<Executed> {
		const started = this.ports.runtime.clock.now();
		// Starting a sub-agent changes nothing itself (its own calls are decided one by one), so only
		// a rule naming Agent (aside.permissions.rules: deny or ask "Agent") has a say.
		const policy = this.scope.permissionPolicy?.() ?? OPEN_CONTEXT;
		let verdict: ToolResultRecord['verdict'];
		if (rulesName(policy.rules, AGENT_TOOL_NAME, 'read')) {
			const decision = decidePermission({ tool: AGENT_TOOL_NAME, kind: 'read', paths: [] }, mode, policy, this.ports.tools.context(signal).roots);
			if (decision.verdict === 'deny') {
				return { started, result: refused({ name: AGENT_TOOL_NAME }, decision.reason) };
			}
			if (decision.verdict === 'ask') {
				const input = call.input as { readonly agent?: unknown; readonly description?: unknown; readonly prompt?: unknown } | null;
				const target = `${String(input?.agent)}: ${String(input?.description)}\n\n${String(input?.prompt)}`;
				this.scope.onUpdate?.({ type: 'status', status: 'asking', detail: AGENT_TOOL_NAME });
				const answer = await this.scope.permissions.ask({ callId: call.id, tool: AGENT_TOOL_NAME, kind: 'read', confirmation: { title: `Start a sub-agent? (${decision.reason})`, target } }, signal);
				this.scope.engine.queueTurnEvent(
					this.owner,
					permissionVerdict({ granted: answer.granted, tool: AGENT_TOOL_NAME, target, ...(answer.note ? { note: answer.note } : {}) }),
				);
				if (!answer.granted) {
					return { started, result: { isError: true, content: answer.note ? `${DENIED} The user said: ${answer.note}` : DENIED }, verdict: 'denied' };
				}
				verdict = 'granted';
			}
		}
		this.scope.onUpdate?.({ type: 'status', status: 'running-tool', detail: AGENT_TOOL_NAME });
		const parent: ParentLoop = { scope: this.scope, turnId: this.turnId, model };
		const result = await this.invoker.running(call, signal, () => agents.run(call, parent, signal));
		return { started, result, ...(verdict ? { verdict } : {}) };
	}

	/** Appends the call's result to the transcript, then tells the observers. */
	private async record(call: ToolCall, { started, result, verdict }: Executed, signal: AbortSignal): Promise<void> {
		const { clock, ids } = this.ports.runtime;
		this.scope.transcript.append({
			kind: 'tool-result',
			id: ids.next(),
			turnId: this.turnId,
			callId: call.id,
			name: call.name,
			at: clock.now(),
			content: result.content,
			isError: result.isError ?? false,
			...(result.notices?.length ? { notices: [...result.notices] } : {}),
			...(result.images?.length ? { images: imageRecords(result.images) } : {}),
			...(result.detail ? { detail: result.detail } : {}),
			durationMs: clock.now() - started,
			...(verdict ? { verdict } : {}),
			...(this.invoker.wasCutOff(call.id) ? { cutOff: true as const } : {}),
		});
		await this.scope.observers?.afterTool(call, result, this.owner, signal);
	}
}
