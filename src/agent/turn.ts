// One turn loop: user message → WAIT → request → stream → tool calls → results → WAIT → … until
// the model stops, the step limit is reached, the person stops it, or a request fails. Every
// request goes through the reminder engine's WAIT; the reminders it carried are committed on the
// provider's `accepted` event and at no other time. Built from the agent's ports (ports.ts) and a
// scope: the root turn of a chat, or one agent invocation, whose loop is the same code.
import { errorMessage } from '../base/errors';
import type { Owner } from '../reminders/definition';
import type { ReminderEngine } from '../reminders/engine';
import type { StagedInStage } from '../reminders/staging';
import type { CheckpointRecorder } from '../checkpoints/types';
import type { CompactionCause, TurnOutcomeKind } from '../vocabulary/outcomes';
import type { AgentRecord } from '../transcript/records';
import type { PermissionGate } from './approvals';
import type { ToolHooks } from '../hooks/toolHooks';
import type { MessageAttachments } from './attachments';
import { type LoopOwner, rootTurn } from './loopOwner';
import type { TurnObservers } from './observers';
import type { PermissionMode } from '../vocabulary/permissionModes';
import type { PermissionContext } from './permissions/policy';
import type { AgentPorts, ResolvedModel } from './ports';
import { isCancellation, StepSampler } from './sample';
import type { LoopAgents } from './subagents/loopAgents';
import type { FeatureAccess } from '../tools/featureAccess';
import type { TurnPromptHooks } from './turnHooks';
import { ToolCallRunner } from './toolCalls';

/** A loop's transcript as it sees it: what is recorded, and where new records go. */
export interface TurnTranscript {
	readonly records: readonly AgentRecord[];
	/** Writes the record (to disk first) and adds it to `records`. Throws when it cannot be written. */
	append(record: AgentRecord): void;
}

/** The limits and the mode of a loop, read at every step. */
export interface TurnSettings {
	readonly maxOutputTokens: number;
	readonly maxSteps: number;
	readonly permissionMode: PermissionMode;
	/** The model's context window in tokens, when known (for the context-use reminder). */
	readonly contextWindow?: number;
	/** Present while automatic compaction is on (`aside.context.*`): its threshold and the warning's, as shares of the window. */
	readonly autoCompact?: { readonly at: number; readonly warnAt: number };
}

export type TurnUpdate =
	/** The loop has its model (resolved after the user message was recorded). */
	| { readonly type: 'resolved'; readonly model: ResolvedModel }
	| { readonly type: 'status'; readonly status: 'preparing' | 'waiting' | 'streaming' | 'running-tool' | 'asking'; readonly detail?: string }
	| { readonly type: 'retrying'; readonly attempt: number; readonly delayMs: number; readonly reason: string }
	/** The model writes a compaction's summary (src/agent/compaction/). */
	| { readonly type: 'compacting'; readonly cause: CompactionCause }
	| { readonly type: 'text'; readonly requestId: string; readonly text: string };

/** What makes a loop this one, beside its ports: the engine and transcript it works on, who decides its calls, its prompt and limits. */
export interface TurnScope {
	readonly engine: ReminderEngine;
	readonly transcript: TurnTranscript;
	readonly permissions: PermissionGate;
	/** What the permission policy reads besides the mode: the rules, workspace trust, Aside's storage (none, trusted, when absent). */
	readonly permissionPolicy?: () => PermissionContext;
	/** The limits and mode for a step with `model`. */
	readonly settings: (model: ResolvedModel) => TurnSettings;
	readonly system: () => string;
	/** What the editor tells the engine around tool calls and WAITs (edited files, AGENTS.md). */
	readonly observers?: TurnObservers;
	readonly onUpdate?: (update: TurnUpdate) => void;
	/** Sub-agents: the Agent tool this loop may offer and who runs its calls; none, no Agent tool. */
	readonly agents?: LoopAgents;
	/** What the chat features hand the tools of the loop of an owner path (`root`, or a child's): its calls get it in their context. */
	readonly toolAccess?: (ownerPath: string) => FeatureAccess;
	/** What the user's message brings (mentions, skills): staged on the turn's first request, and on each attempt of it. */
	readonly attachments?: MessageAttachments;
	/** The person's PreToolUse / PostToolUse hooks (docs/hooks.md); none, no hooks run. */
	readonly hooks?: ToolHooks;
	/** The chat's SessionStart / UserPromptSubmit / Stop hooks and its pending hook context (turnHooks.ts); none for a sub-agent. */
	readonly prompt?: TurnPromptHooks;
	/** Keeps what this loop's write calls change: the root turn's recorder (a sub-agent's writes count to its root turn); none, nothing kept. */
	readonly checkpoint?: CheckpointRecorder;
	/** The chat features, asked after each step's tool calls (chatFeature.ts): true stops the loop there, sending no further request. Root only. */
	readonly stopAfterStep?: (turnId: string) => boolean;
	/** The chat's approved plan file, if any: its tools may read and edit it (callContext.ts). */
	readonly planFile?: () => string | undefined;
	/** After this loop's conversation was compacted (the root's: plan.reference is re-armed when the chat has an approved plan). */
	readonly onCompacted?: () => void;
}

export interface TurnOutcome {
	readonly turnId: string;
	readonly outcome: TurnOutcomeKind;
	readonly error?: string;
	/** A UserPromptSubmit hook blocked the message: nothing was recorded or sent; the text as typed and the hook's reason (the view offers the text back). */
	readonly blocked?: { readonly text: string; readonly reason: string };
}

export class Turn {
	readonly owner: Owner;
	private readonly calls: ToolCallRunner;
	private readonly sampler: StepSampler;
	/** What the user's message brought (scope.attachments), for the turn's first request. */
	private attached: readonly StagedInStage[] = [];

	constructor(
		private readonly ports: AgentPorts,
		private readonly scope: TurnScope,
		readonly turnId: string,
		/** Whose loop this is; the root turn `turnId` when absent. */
		private readonly lifecycle: LoopOwner = rootTurn(scope.engine, turnId),
	) {
		this.owner = lifecycle.owner;
		this.calls = new ToolCallRunner(ports, scope, this.owner, turnId);
		this.sampler = new StepSampler(ports, scope, lifecycle, turnId);
	}

	/**
	 * Runs the loop to its end. Never throws: failures end it with a recorded outcome. The model
	 * is resolved after the user message is recorded; if that fails, the loop fails with its
	 * message and nothing is sent. `retryOf`: the failed root turn this message sends again.
	 */
	async run(text: string, signal: AbortSignal, retryOf?: string): Promise<TurnOutcome> {
		const { turnId, scope } = this;
		const { clock, ids, log } = this.ports.runtime;
		let outcome: TurnOutcomeKind;
		let error: string | undefined;
		/** A hook blocked the message (its reason): nothing is recorded, nothing sent. */
		let unsent: string | undefined;
		try {
			const hooked = await scope.prompt?.beforeMessage(text, signal);
			if (hooked?.blocked !== undefined) {
				unsent = hooked.blocked;
				throw new Error(`A UserPromptSubmit hook blocked the message; it was not sent: ${hooked.blocked}`);
			}
			// UserPromptSubmit's context is accepted with the message, beside the text, which stays as typed (replay puts it first).
			const hookContext = hooked?.context.map((entry) => ({ event: entry.event, text: entry.text }));
			scope.transcript.append({ kind: 'user', id: ids.next(), turnId, at: clock.now(), text, ...(hookContext?.length ? { hookContext } : {}), ...(retryOf === undefined ? {} : { retryOf }) });
			const model = await this.ports.dispatch.resolve(signal);
			scope.onUpdate?.({ type: 'resolved', model });
			scope.onUpdate?.({ type: 'status', status: 'preparing' });
			this.attached = (await scope.attachments?.(text, this.owner, signal)) ?? [];
			outcome = await this.loop(model, signal);
		} catch (caught) {
			if (isCancellation(caught, signal)) {
				outcome = 'interrupted';
			} else {
				outcome = 'failed';
				error = errorMessage(caught);
				log.error(`Aside: the turn failed: ${error}`);
			}
		} finally {
			this.lifecycle.end();
			scope.observers?.endOwner(this.owner);
		}
		if (unsent !== undefined) {
			return { turnId, outcome, ...(error === undefined ? {} : { error }), blocked: { text, reason: unsent } };
		}
		try {
			scope.transcript.append({ kind: 'turn-end', turnId, at: clock.now(), outcome, ...(error === undefined ? {} : { error }) });
		} catch (caught) {
			log.error(`Aside: could not record the end of the turn: ${errorMessage(caught)}`);
		}
		return { turnId, outcome, ...(error === undefined ? {} : { error }) };
	}

	private async loop(model: ResolvedModel, signal: AbortSignal): Promise<TurnOutcomeKind> {
		const { scope } = this;
		const { runtime, tools } = this.ports;
		let nudge = false;
		let nudged = false;
		/** A Stop hook already kept this turn going (its hooks read `stop_hook_active`). */
		let stopped = false;
		for (let step = 1; ; step++) {
			if (signal.aborted) {
				return 'interrupted';
			}
			this.lifecycle.beginSample();
			const settings = scope.settings(model);
			const offered = tools.offered(settings.permissionMode);
			// The Agent tool goes last, so the built-in tools' specs stay a stable prefix.
			const agentSpec = scope.agents?.spec();
			const specs = agentSpec ? [...tools.specs(offered), agentSpec] : tools.specs(offered);
			const sent = await this.sampler.send({ step, model, settings, specs, nudge, attached: this.attached }, signal);
			nudge = false;
			if (sent === undefined) {
				return 'interrupted';
			}
			const { answer, requestId } = sent;
			if (answer.accepted) {
				scope.transcript.append({
					kind: 'assistant',
					id: runtime.ids.next(),
					turnId: this.turnId,
					requestId,
					at: runtime.clock.now(),
					text: answer.text,
					toolCalls: [...answer.toolCalls],
					stop: answer.stop,
					...(answer.usage ? { usage: answer.usage } : {}),
					model: model.model,
				});
			}
			if (answer.error !== undefined) {
				throw answer.error instanceof Error ? answer.error : new Error(errorMessage(answer.error));
			}
			if (answer.toolCalls.length === 0) {
				if (answer.text.trim() === '' && !nudged && step < settings.maxSteps) {
					nudge = true;
					nudged = true;
					continue;
				}
				// The person's Stop hooks may keep the turn going: their reason goes with the next request.
				if (step < settings.maxSteps && (await scope.prompt?.keepGoing(stopped, this.owner, signal)) === true) {
					stopped = true;
					continue;
				}
				return 'done';
			}
			const final = step >= settings.maxSteps;
			await this.calls.runAll(answer.toolCalls, offered, settings.permissionMode, final, model, signal, agentSpec ? scope.agents : undefined);
			// A tool hook answered `continue: false`: the agent stops after this step (the chat said why).
			if (this.calls.halted) {
				return 'done';
			}
			// A feature stops the loop (a spent budget): the step's calls finished, no further request goes out (the feature says why).
			if (scope.stopAfterStep?.(this.turnId) === true) {
				return 'done';
			}
			if (final) {
				return 'step-limit';
			}
		}
	}
}
