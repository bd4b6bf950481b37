// One turn loop: user message → WAIT → request → stream → tool calls → results → WAIT → … until
// the model stops, the step limit is reached, the person stops it, or a request fails. Every
// request goes through the reminder engine's WAIT; the reminders it carried are committed on the
// provider's `accepted` event and at no other time. Built from the agent's ports (ports.ts) and a
// scope: the root turn of a chat, or one agent invocation, whose loop is the same code.
import { errorMessage } from '../base/errors';
import type { Owner, WaitFacts } from '../reminders/definition';
import { noToolNudge } from '../reminders/builtin/agentNudge';
import type { AgentInvocation, ReminderEngine } from '../reminders/engine';
import type { ReminderRoster } from '../reminders/roster';
import type { Injection, PreparedRequest } from '../reminders/injector';
import { RequestStaging, type StagedInStage, stageEntry } from '../reminders/staging';
import { type ChatRequest, ProviderError, type ToolSpec } from '../providers/provider';
import type { CheckpointRecorder } from '../checkpoints/types';
import type { CompactionCause, TurnOutcomeKind } from '../vocabulary/outcomes';
import type { AgentRecord } from '../transcript/records';
import { replayHistory } from '../transcript/replay';
import type { PermissionGate } from './approvals';
import type { ToolHooks } from '../hooks/toolHooks';
import type { MessageAttachments } from './attachments';
import { compactConversation } from './compaction/compactor';
import { contextInUse, conversationTokens } from './compaction/estimate';
import type { TurnObservers } from './observers';
import type { PermissionMode } from '../vocabulary/permissionModes';
import { OPEN_CONTEXT, type PermissionContext } from './permissions/policy';
import type { AgentPorts, ResolvedModel } from './ports';
import type { LoopAgents } from './subagents/loopAgents';
import { type Answer, broken, completed, foldEvent, isTooLong, NO_RESPONSE } from './response';
import type { FeatureAccess } from '../tools/featureAccess';
import type { HookReservation, TurnPromptHooks } from './turnHooks';
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

/** Whose loop it is, as the engine knows it: the root turn of the chat, or one agent invocation. */
export interface LoopOwner {
	readonly owner: Owner;
	/** The owner's roster: the session's, or the invocation's (a compaction reconciles its observations). */
	readonly roster: ReminderRoster;
	/** Before each model sample (an invocation counts its samples as its roster's turns). */
	beginSample(): void;
	/** The loop ended: what is still queued for the owner is dropped. */
	end(): void;
}

/** The root turn `turnId` begins: the session's turn advances. */
export function rootTurn(engine: ReminderEngine, turnId: string): LoopOwner {
	const owner = engine.beginUserTurn(turnId);
	return {
		owner,
		roster: engine.roster,
		beginSample: () => undefined,
		end: () => {
			engine.endUserTurn();
		},
	};
}

/** The loop of an agent invocation (`engine.spawnAgent`). */
export function invocationLoop(invocation: AgentInvocation): LoopOwner {
	return {
		owner: invocation.owner,
		roster: invocation.roster,
		beginSample: () => {
			invocation.beginSample();
		},
		end: () => {
			invocation.end();
		},
	};
}

export interface TurnOutcome {
	readonly turnId: string;
	readonly outcome: TurnOutcomeKind;
	readonly error?: string;
	/** A UserPromptSubmit hook blocked the message: nothing was recorded or sent; the text as typed and the hook's reason (the view offers the text back). */
	readonly blocked?: { readonly text: string; readonly reason: string };
}

function isCancellation(error: unknown, signal: AbortSignal): boolean {
	return signal.aborted || (error instanceof ProviderError && error.kind === 'cancelled');
}

export class Turn {
	readonly owner: Owner;
	private readonly calls: ToolCallRunner;
	/** Tokens in context as of the last answer, or the estimate after a compaction (facts.context). */
	private used: number | undefined;
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
		// The last answer's usage is what this turn's first request starts from (as the context meter shows).
		this.used = contextInUse(scope.transcript.records);
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
			const sent = await this.send(step, model, settings, specs, nudge, signal);
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

	/**
	 * One step's request, compacted first when it would pass the threshold (then its payload is
	 * rebuilt from the compacted history before WAIT: the compaction is the last seam), and sent
	 * once more, compacted, when the provider refuses it as too long. Undefined: stopped.
	 */
	private async send(step: number, model: ResolvedModel, settings: TurnSettings, specs: readonly ToolSpec[], nudge: boolean, signal: AbortSignal): Promise<{ readonly answer: Answer; readonly requestId: string } | undefined> {
		const { scope } = this;
		const { runtime } = this.ports;
		const auto = settings.autoCompact;
		// The threshold needs the window; a too-long refusal is compacted without it.
		const threshold = auto && settings.contextWindow !== undefined ? auto.at * settings.contextWindow : undefined;
		let refusal: unknown;
		for (let overflowed = false; ; overflowed = true) {
			const staging = new RequestStaging();
			if (nudge) {
				stageEntry(staging, 'steering', noToolNudge());
			}
			if (step === 1) {
				for (const { stage, entry } of this.attached) {
					stageEntry(staging, stage, entry);
				}
			}
			const cause = overflowed ? 'overflow' : threshold !== undefined && conversationTokens(scope.transcript.records, scope.system(), specs) > threshold ? 'auto' : undefined;
			if (cause !== undefined) {
				const compacted = await this.compact(cause, step, model, settings, specs, staging, signal, refusal);
				if (compacted === 'stopped') {
					return undefined;
				}
			}
			const requestId = runtime.ids.next();
			// What the chat's hooks left pending rides the turn's first request (each attempt of it) until one goes out.
			const reservation = step === 1 ? scope.prompt?.reserve(this.turnId) : undefined;
			let answer: Answer;
			try {
				answer = await this.request(step, model, settings, specs, staging, requestId, reservation, signal);
			} finally {
				// Not sent (or refused before it was accepted): back to pending. Nothing once recorded.
				reservation?.release();
			}
			if (!isTooLong(answer) || !auto) {
				return { answer, requestId };
			}
			if (overflowed) {
				throw new Error(`The model refused the request as too long for its context window even after the chat was compacted: ${errorMessage(answer.error)}`);
			}
			refusal = answer.error;
		}
	}

	/** Prepares one request (its reservation in the payload), WAITs and samples it. */
	private async request(step: number, model: ResolvedModel, settings: TurnSettings, specs: readonly ToolSpec[], staging: RequestStaging, requestId: string, reservation: HookReservation | undefined, signal: AbortSignal): Promise<Answer> {
		const { scope } = this;
		const { runtime } = this.ports;
		const auto = settings.autoCompact;
		const messages = replayHistory(scope.transcript.records, { log: runtime.log, ...(reservation ? { reservedHookContext: reservation.replay } : {}) });
		const last = messages.at(-1);
		const request: PreparedRequest = {
			requestId,
			owner: this.owner,
			// A retry after a refusal that came once the request was accepted follows that request's
			// recorded reminders, not the user's message: it is then a mid-turn request.
			phase: step === 1 && last?.role === 'user' && last.synthetic === undefined ? 'turn-start' : 'mid-turn',
			messages,
		};
		const facts: WaitFacts = {
			step,
			stepLimit: settings.maxSteps,
			mode: settings.permissionMode,
			...(this.used !== undefined && settings.contextWindow ? { context: { usedTokens: this.used, limitTokens: settings.contextWindow } } : {}),
			...(auto ? { compaction: { autoCompactAt: auto.at, warnAt: auto.warnAt } } : {}),
			permissions: { mode: settings.permissionMode, context: scope.permissionPolicy?.() ?? OPEN_CONTEXT },
		};
		// The observers may wait for the editor (diagnostics settling after an edit): say so rather than the last tool.
		scope.onUpdate?.({ type: 'status', status: 'preparing' });
		await scope.observers?.beforeWait(this.owner, signal);
		const injection = scope.engine.wait(request, staging, facts);
		return this.sample(model, injection, specs, settings, signal, reservation);
	}

	/** Compacts this loop's conversation before a request; throws when it fails (the chat is unchanged then). */
	private async compact(cause: CompactionCause, step: number, model: ResolvedModel, settings: TurnSettings, specs: readonly ToolSpec[], staging: RequestStaging, signal: AbortSignal, refusal: unknown): Promise<'compacted' | 'nothing' | 'stopped'> {
		const { scope } = this;
		scope.onUpdate?.({ type: 'compacting', cause });
		const result = await compactConversation(
			this.ports,
			{
				transcript: scope.transcript,
				engine: scope.engine,
				roster: this.lifecycle.roster,
				owner: this.owner,
				...(scope.observers ? { observers: scope.observers } : {}),
				...(scope.onCompacted ? { rearmPlan: scope.onCompacted } : {}),
			},
			{
				cause,
				point: step === 1 ? 'turn-start' : 'mid-turn',
				model,
				system: scope.system(),
				tools: specs,
				maxOutputTokens: settings.maxOutputTokens,
				...(settings.contextWindow === undefined ? {} : { contextWindow: settings.contextWindow }),
				turnId: this.turnId,
				staging,
				onRetry: (attempt, error, delayMs) => {
					scope.onUpdate?.({ type: 'retrying', attempt, delayMs, reason: error.message });
				},
			},
			signal,
		);
		if (result.ok) {
			this.used = result.record.tokensAfter;
			return 'compacted';
		}
		if (result.reason === 'cancelled') {
			return 'stopped';
		}
		if (result.reason === 'nothing') {
			if (cause === 'auto') {
				return 'nothing';
			}
			throw new Error(`The request is too long for the model's context window, and there is nothing before it to compact (${errorMessage(refusal)}).`);
		}
		throw new Error(`${result.message} The chat could not be compacted and is unchanged.`);
	}

	/** One request: commits its reminders when the provider accepts it, folds the response. */
	private async sample(model: ResolvedModel, injection: Injection<PreparedRequest>, tools: readonly ToolSpec[], settings: TurnSettings, signal: AbortSignal, reservation: HookReservation | undefined): Promise<Answer> {
		const { scope } = this;
		const requestId = injection.request.requestId;
		const chatRequest: ChatRequest = {
			model: model.model,
			system: scope.system(),
			messages: injection.request.messages,
			tools,
			maxOutputTokens: settings.maxOutputTokens,
		};
		let response = NO_RESPONSE;
		scope.onUpdate?.({ type: 'status', status: 'waiting' });
		try {
			const events = this.ports.dispatch.stream(model, chatRequest, signal, (attempt, error, delayMs) => {
				scope.onUpdate?.({ type: 'retrying', attempt, delayMs, reason: error.message });
			});
			for await (const event of events) {
				response = foldEvent(response, event);
				switch (event.type) {
					case 'accepted':
						// The hook context first: a crash between the two records loses none of it.
						reservation?.commit(requestId);
						await this.commit(injection);
						scope.onUpdate?.({ type: 'status', status: 'streaming' });
						break;
					case 'text':
						scope.onUpdate?.({ type: 'text', requestId, text: event.text });
						break;
					case 'usage':
						this.used = event.inputTokens + event.outputTokens;
						break;
					default:
						break;
				}
			}
		} catch (error) {
			return broken(response, error, isCancellation(error, signal));
		}
		return completed(response);
	}

	/** The payload went out: record what it carried, then mark it delivered. */
	private async commit(injection: Injection<PreparedRequest>): Promise<void> {
		try {
			await injection.commit();
		} catch (error) {
			// The request is already on its way; failing it now would lose the answer. Unrecorded
			// reminders stay uncommitted and are offered again at the next WAIT.
			this.ports.runtime.log.error(`Aside: the reminders of request ${injection.request.requestId} could not be recorded: ${errorMessage(error)}`);
		}
	}
}
