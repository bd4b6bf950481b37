// One tool call of a turn loop: permission → invoke → record. A write or command is prepared
// first (its input checked, what the person confirms built); the person is asked when the mode
// says so, and the verdict is queued as a reminder; the observers hear of the call before it runs
// and after its result is recorded. Nothing here throws for a tool's sake: every failure is the
// call's result. A stopped turn ends after the call's result is recorded.
import { isAborted } from '../base/async';
import { errorMessage } from '../base/errors';
import type { Owner } from '../reminders/definition';
import { patchUserRevised } from '../reminders/builtin/patchUserRevised';
import { hookOutcome } from '../reminders/builtin/hookOutcome';
import { permissionVerdict } from '../reminders/builtin/permissionVerdict';
import { ProviderError } from '../providers/provider';
import type { ChangePlan } from '../tools/changes';
import { declareTouches } from '../tools/registry';
import { applyReviewed } from '../tools/reviewedChanges';
import { type Confirmation, NO_TOUCHES, type Tool, type ToolContext, type ToolResult, type ToolTouches } from '../tools/tool';
import type { ToolResultRecord } from '../transcript/records';
import type { PermissionMode } from './permissionMode';
import { decidePermission, OPEN_CONTEXT, type PermissionContext, type PolicyCall, type PolicyDecision } from './permissions/policy';
import { rulesName } from './permissions/rules';
import { callContext } from './callContext';
import type { OpenReview } from './changeReview';
import type { AgentPorts, ResolvedModel } from './ports';
import type { ToolHookAnswer } from '../hooks/toolHooks';
import type { ToolCall } from './response';
import { AGENT_TOOL_NAME } from './subagents/agentTool';
import type { LoopAgents, ParentLoop } from './subagents/loopAgents';
import { Slots } from './subagents/slots';
import type { TurnScope } from './turn';

const DENIED = 'The user denied this call; it did not run.';

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

/** A call the policy refused: its result, so the model reads why and what to do instead. */
function refused(tool: Pick<Tool, 'name'>, reason: string): ToolResult {
	return { isError: true, content: `Not run: ${reason}. ${tool.name} did not run; do not retry it unchanged (aside.permissions, docs/permissions.md).` };
}

export class ToolCallRunner {
	/** Calls that were running when the turn was stopped: their results say `cutOff` (session.recovery). */
	private readonly cut = new Set<string>();
	/** A tool hook answered `continue: false`: the loop ends after this step. */
	halted = false;

	constructor(
		private readonly ports: AgentPorts,
		private readonly scope: TurnScope,
		private readonly owner: Owner,
		private readonly turnId: string,
	) {}

	/**
	 * Runs the calls of one answer and records their results in call order. Agent calls (when the
	 * loop may spawn) start at once, up to the spawner's limit at a time; the other calls run one
	 * after another in order meanwhile. A stopped turn ends once every call that started has its
	 * result recorded (a sub-agent's says it was stopped); calls not started then have none.
	 */
	async runAll(calls: readonly ToolCall[], tools: readonly Tool[], mode: PermissionMode, final: boolean, model: ResolvedModel, signal: AbortSignal, agents?: LoopAgents): Promise<void> {
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
				const child = slots.run(() => (isAborted(signal) ? Promise.resolve(notStarted(this.ports.runtime.clock.now())) : this.runAgent(agents, call, mode, model, signal)));
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

	private async execute(call: ToolCall, tools: readonly Tool[], mode: PermissionMode, final: boolean, signal: AbortSignal): Promise<Executed> {
		const started = this.ports.runtime.clock.now();
		const tool = tools.find((candidate) => candidate.name === call.name);
		if (final) {
			return { started, result: { isError: true, content: 'Not run: this was the last step allowed for this turn.' } };
		}
		if (!tool) {
			return { started, result: { isError: true, content: `There is no tool named "${call.name}"${mode === 'plan' ? ' in plan mode, which is read-only' : ''}. Available: ${tools.map((t) => t.name).join(', ') || 'none'}.` } };
		}
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
		const executed: Executed = { started, ...(await this.decideAndInvoke(tool, call, mode, signal)) };
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
				this.scope.engine.queueTurnEvent(this.owner, permissionVerdict({ granted: answer.granted, tool: AGENT_TOOL_NAME, target, ...(answer.note ? { note: answer.note } : {}) }));
				if (!answer.granted) {
					return { started, result: { isError: true, content: answer.note ? `${DENIED} The user said: ${answer.note}` : DENIED }, verdict: 'denied' };
				}
				verdict = 'granted';
			}
		}
		this.scope.onUpdate?.({ type: 'status', status: 'running-tool', detail: AGENT_TOOL_NAME });
		const parent: ParentLoop = { scope: this.scope, turnId: this.turnId, model };
		const result = await this.running(call, signal, () => agents.run(call, parent, signal));
		return { started, result, ...(verdict ? { verdict } : {}) };
	}

	/** Runs the call's work; a Stop that comes while it runs marks the call as cut off. */
	private async running<T>(call: ToolCall, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
		const startedBeforeStop = !isAborted(signal);
		try {
			return await work();
		} finally {
			if (startedBeforeStop && isAborted(signal)) {
				this.cut.add(call.id);
			}
		}
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
			...(result.detail ? { detail: result.detail } : {}),
			durationMs: clock.now() - started,
			...(verdict ? { verdict } : {}),
			...(this.cut.has(call.id) ? { cutOff: true as const } : {}),
		});
		await this.scope.observers?.afterTool(call, result, this.owner, signal);
	}

	/** Prepares the call, asks the person when it must, and runs it unless they denied it. */
	private async decideAndInvoke(tool: Tool, call: ToolCall, mode: PermissionMode, signal: AbortSignal): Promise<{ result: ToolResult; verdict?: ToolResultRecord['verdict'] }> {
		const { scope } = this;
		const context = callContext(this.ports.tools.context(signal), scope, this.owner);
		const prepared = tool.kind !== 'read' ? await this.ports.tools.prepare(tool, call.input, context) : undefined;
		if (prepared && !prepared.ok) {
			// Invalid input, or a change that cannot apply: that is the result; nothing to ask.
			return { result: prepared.result };
		}
		// The permission policy decides (src/agent/permissions/policy.ts): trust and plan mode, the
		// rules, the protected paths, then the mode. A read is looked at only when a rule names it.
		const policy = scope.permissionPolicy?.() ?? OPEN_CONTEXT;
		const decided = tool.kind !== 'read' || rulesName(policy.rules, tool.name, tool.kind);
		// The files the call declares, once: the policy reads them, and so do the observers before it runs.
		const touches = decided && tool.kind !== 'run' ? await declareTouches(tool, call.input, context) : undefined;
		const decision = decided ? this.decide(tool, call, mode, policy, touches ?? NO_TOUCHES, prepared?.confirmation, context) : undefined;
		if (decision?.verdict === 'deny') {
			return { result: refused(tool, decision.reason) };
		}
		if (decision?.verdict === 'ask') {
			const asked = prepared?.confirmation ?? { title: `Allow ${tool.name}?`, target: JSON.stringify(call.input) };
			// When a rule or a protected path asks (not the mode), the person reads why: full-access asking is a surprise otherwise.
			const confirmation = decision.byMode || decision.reason === asked.alwaysAsk ? asked : { ...asked, title: `${asked.title} (${decision.reason})` };
			scope.onUpdate?.({ type: 'status', status: 'asking', detail: tool.name });
			// The card first, then the diff editor beside it: the decision can come from either.
			const request = { callId: call.id, tool: tool.name, kind: tool.kind, confirmation, ...(decision.allowRules ? { allowRules: decision.allowRules } : {}) };
			const pending = scope.permissions.ask(request, signal, ({ granted }) => {
				scope.onUpdate?.(granted ? { type: 'status', status: 'running-tool', detail: tool.name } : { type: 'status', status: 'waiting' });
			});
			const plan = prepared?.plan;
			const review = plan ? await this.openReview(tool, call, plan) : undefined;
			try {
				const answer = await pending;
				scope.engine.queueTurnEvent(this.owner, permissionVerdict({ granted: answer.granted, tool: tool.name, target: confirmation.target, ...(answer.note ? { note: answer.note } : {}) }));
				if (!answer.granted) {
					return { result: { isError: true, content: answer.note ? `${DENIED} The user said: ${answer.note}` : DENIED }, verdict: 'denied' };
				}
				const result = plan ? await this.applyReviewed(tool, call, plan, review, context, signal) : await this.invoke(tool, call, context, signal, touches);
				return { result, verdict: 'granted' };
			} finally {
				await review?.close().catch((error: unknown) => {
					this.ports.runtime.log.warn(`Aside: could not close the review of ${tool.name}: ${errorMessage(error)}`);
				});
			}
		}
		scope.onUpdate?.({ type: 'status', status: 'running-tool', detail: tool.name });
		return { result: await this.invoke(tool, call, context, signal, touches) };
	}

	/** The policy's decision on the call: its command line, or every file it declares. */
	private decide(tool: Tool, call: ToolCall, mode: PermissionMode, policy: PermissionContext, touches: ToolTouches, confirmation: Confirmation | undefined, context: ToolContext): PolicyDecision {
		const input = call.input as { readonly command?: unknown } | null;
		const command = tool.kind === 'run' && typeof input?.command === 'string' ? input.command : undefined;
		const policyCall: PolicyCall = {
			tool: tool.name,
			kind: tool.kind,
			...(command === undefined ? {} : { command }),
			paths: [...touches.reads, ...touches.writes],
			...(confirmation?.alwaysAsk === undefined ? {} : { alwaysAsk: confirmation.alwaysAsk }),
		};
		return decidePermission(policyCall, mode, policy, context.roots);
	}

	/** The change set in the editor's diff view while the person decides; the card alone when it cannot open. */
	private async openReview(tool: Tool, call: ToolCall, plan: ChangePlan): Promise<OpenReview | undefined> {
		const { review } = this.ports;
		try {
			return await review?.open({ callId: call.id, tool: tool.name, title: plan.title, changes: plan.changes });
		} catch (error) {
			this.ports.runtime.log.warn(`Aside: could not open the review of ${tool.name} in the diff editor: ${errorMessage(error)}`);
			return undefined;
		}
	}

	/**
	 * An accepted change set: the plan the person saw, with the proposed sides as they left them,
	 * applied all or nothing (never over a file that changed meanwhile). A revision queues
	 * `patch.user-revised` for the next request.
	 */
	private async applyReviewed(tool: Tool, call: ToolCall, plan: ChangePlan, review: OpenReview | undefined, context: ToolContext, signal: AbortSignal): Promise<ToolResult> {
		let sides: readonly (string | null | undefined)[] = [];
		try {
			sides = (await review?.proposedSides()) ?? [];
		} catch (error) {
			this.ports.runtime.log.warn(`Aside: could not read the reviewed text of ${tool.name}; applying the proposal: ${errorMessage(error)}`);
		}
		const { observers } = this.scope;
		await observers?.beforeTool({ name: call.name, touches: { reads: [], writes: plan.changes.map((change) => change.path) } }, this.owner, signal);
		if (isAborted(signal)) {
			return { isError: true, content: `${tool.name} was cancelled before it finished.` };
		}
		const { result, revised } = await this.running(call, signal, () => applyReviewed(plan, sides, context, tool.name));
		if (revised.length > 0) {
			this.scope.engine.queueTurnEvent(this.owner, patchUserRevised({ tool: tool.name, files: revised }));
		}
		return result;
	}

	/** Runs the call; `declared`: its files, when the decision already declared them. */
	private async invoke(tool: Tool, call: ToolCall, context: ToolContext, signal: AbortSignal, declared?: ToolTouches): Promise<ToolResult> {
		const { observers } = this.scope;
		const touches = observers ? (declared ?? (await declareTouches(tool, call.input, context))) : NO_TOUCHES;
		await observers?.beforeTool({ name: call.name, touches }, this.owner, signal);
		return this.running(call, signal, () => this.ports.tools.invoke(tool, call.input, context));
	}
}
