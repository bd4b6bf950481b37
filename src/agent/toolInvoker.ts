// One tool call past its hooks: prepared (a write or command: its input checked, what the person
// confirms built), decided by the permission policy, asked through the approval card and the diff
// editor when the policy says so, and invoked. Apart from toolCalls.ts, which orders the calls,
// runs the hooks and records the results; this is where a call's work runs, so it marks Stops.
import { isAborted } from '../base/async';
import { errorMessage } from '../base/errors';
import type { Owner } from '../reminders/definition';
import { patchUserRevised } from '../reminders/builtin/patchUserRevised';
import { permissionVerdict } from '../reminders/builtin/permissionVerdict';
import type { ChangePlan } from '../tools/changes';
import { declareTouches } from '../tools/registry';
import { applyReviewed } from '../tools/reviewedChanges';
import { type Confirmation, NO_TOUCHES, type Tool, type ToolContext, type ToolResult, type ToolTouches } from '../tools/tool';
import { PROCESS_ACCESS } from '../tools/processAccess';
import { builtinToolFacts } from '../tools/toolFacts';
import { fetchDomain } from '../tools/web/fetchPage';
import type { ToolResultRecord } from '../transcript/toolResultRecord';
import type { PermissionMode } from '../vocabulary/permissionModes';
import { decidePermission, OPEN_CONTEXT, type PermissionContext, type PolicyCall, type PolicyDecision } from './permissions/policy';
import { rulesName } from './permissions/rules';
import { callContext } from './callContext';
import { CallProgressReporter } from './toolProgress';
import type { OpenReview } from './changeReview';
import type { AgentPorts } from './ports';
import type { ToolCall } from './response';
import type { TurnScope } from './turnScope';

export const DENIED = 'The user denied this call; it did not run.';

/** A call the policy refused: its result, so the model reads why and what to do instead. */
export function refused(tool: Pick<Tool, 'name'>, reason: string): ToolResult {
	return { isError: true, content: `Not run: ${reason}. ${tool.name} did not run; do not retry it unchanged (aside.permissions, docs/permissions.md).` };
}

export class ToolInvoker {
	/** Calls that were running when the turn was stopped: their results say `cutOff` (session.recovery). */
	private readonly cut = new Set<string>();

	constructor(
		private readonly ports: AgentPorts,
		private readonly scope: TurnScope,
		private readonly owner: Owner,
	) {}

	/** Whether a Stop came while the call's work ran. */
	wasCutOff(callId: string): boolean {
		return this.cut.has(callId);
	}

	/** Runs the call's work; a Stop that comes while it runs marks the call as cut off. */
	async running<T>(call: ToolCall, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
		const startedBeforeStop = !isAborted(signal);
		try {
			return await work();
		} finally {
			if (startedBeforeStop && isAborted(signal)) {
				this.cut.add(call.id);
			}
		}
	}

	/** Prepares the call, asks the person when it must, and runs it unless they denied it. */
	async decideAndInvoke(tool: Tool, call: ToolCall, mode: PermissionMode, signal: AbortSignal): Promise<{ result: ToolResult; verdict?: ToolResultRecord['verdict'] }> {
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
			const request = {
				callId: call.id,
				tool: tool.name,
				kind: tool.kind,
				confirmation,
				...(decision.allowRules ? { allowRules: decision.allowRules } : {}),
			};
			const pending = scope.permissions.ask(request, signal, ({ granted }) => {
				scope.onUpdate?.(granted ? { type: 'status', status: 'running-tool', detail: tool.name } : { type: 'status', status: 'waiting' });
			});
			const plan = prepared?.plan;
			const review = plan ? await this.openReview(tool, call, plan) : undefined;
			try {
				const answer = await pending;
				scope.engine.queueTurnEvent(
					this.owner,
					permissionVerdict({ granted: answer.granted, tool: tool.name, target: confirmation.target, ...(answer.note ? { note: answer.note } : {}) }),
				);
				if (!answer.granted) {
					return { result: { isError: true, content: answer.note ? `${DENIED} The user said: ${answer.note}` : DENIED }, verdict: 'denied' };
				}
				const result = plan
					? await this.applyReviewed(tool, call, plan, review, context, signal)
					: await this.invoke(tool, call, context, signal, touches);
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
	private decide(
		tool: Tool,
		call: ToolCall,
		mode: PermissionMode,
		policy: PermissionContext,
		touches: ToolTouches,
		confirmation: Confirmation | undefined,
		context: ToolContext,
	): PolicyDecision {
		const input = call.input as { readonly command?: unknown; readonly id?: unknown } | null;
		// RunOutput and RunStop are ruled by their process's command (a rule naming Run covers them).
		const command =
			tool.kind === 'run' && typeof input?.command === 'string'
				? input.command
				: builtinToolFacts(tool.name)?.ruledAsRun === true && typeof input?.id === 'string'
					? context.features?.get(PROCESS_ACCESS)?.get(input.id)?.command
					: undefined;
		const domain = tool.kind === 'fetch' ? fetchDomain(call.input) : undefined;
		const policyCall: PolicyCall = {
			tool: tool.name,
			kind: tool.kind,
			...(command === undefined ? {} : { command }),
			...(domain === undefined ? {} : { domain }),
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
	private async applyReviewed(
		tool: Tool,
		call: ToolCall,
		plan: ChangePlan,
		review: OpenReview | undefined,
		context: ToolContext,
		signal: AbortSignal,
	): Promise<ToolResult> {
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
		// Its progress goes to the live row, throttled, and goes when it ends; never into its result.
		const progress = new CallProgressReporter(call.id, tool.name, (update) => this.scope.onUpdate?.({ type: 'tool-progress', callId: call.id, progress: update }));
		try {
			return await this.running(call, signal, () => this.ports.tools.invoke(tool, call.input, { ...context, progress: progress.report }));
		} finally {
			progress.end();
		}
	}
}
