// One step of a turn loop on the wire: its request staged, compacted first when it would pass the
// threshold (or was refused as too long), WAITed through the reminder engine and sampled. The
// reminders a request carried are committed on the provider's `accepted` event and at no other time.
import { errorMessage } from '../base/errors';
import type { WaitFacts } from '../reminders/definition';
import { noToolNudge } from '../reminders/builtin/agentNudge';
import type { Injection, PreparedRequest } from '../reminders/injector';
import { RequestStaging, type StagedInStage, stageEntry } from '../reminders/staging';
import { type ChatRequest, ProviderError, type ToolSpec } from '../providers/provider';
import { replayHistory } from '../transcript/replay';
import { compactionCause, compactionThreshold, compactInTurn } from './compaction/turnCompaction';
import { contextInUse } from './compaction/estimate';
import type { LoopOwner } from './loopOwner';
import { OPEN_CONTEXT } from './permissions/policy';
import type { AgentPorts, ResolvedModel } from './ports';
import { type Answer, broken, completed, foldEvent, isTooLong, NO_RESPONSE } from './response';
import type { TurnScope, TurnSettings } from './turnScope';
import type { HookReservation } from './turnHooks';

export function isCancellation(error: unknown, signal: AbortSignal): boolean {
	return signal.aborted || (error instanceof ProviderError && error.kind === 'cancelled');
}

/** What one step asks for: its number, the model and limits, the tools offered, and what rides it. */
export interface StepRequest {
	readonly step: number;
	readonly model: ResolvedModel;
	readonly settings: TurnSettings;
	readonly specs: readonly ToolSpec[];
	/** The no-tool nudge goes with this request (the last answer was empty). */
	readonly nudge: boolean;
	/** What the user's message brought (scope.attachments), staged on the turn's first request. */
	readonly attached: readonly StagedInStage[];
}

/** A loop's requests, one per step, and the context use they report (facts.context). */
export class StepSampler {
	/** Tokens in context as of the last answer, or the estimate after a compaction (facts.context). */
	private used: number | undefined;

	constructor(
		private readonly ports: AgentPorts,
		private readonly scope: TurnScope,
		private readonly lifecycle: LoopOwner,
		private readonly turnId: string,
	) {
		// The last answer's usage is what this turn's first request starts from (as the context meter shows).
		this.used = contextInUse(scope.transcript.records);
	}

	/**
	 * One step's request, compacted first when it would pass the threshold (then its payload is
	 * rebuilt from the compacted history before WAIT: the compaction is the last seam), and sent
	 * once more, compacted, when the provider refuses it as too long. Undefined: stopped.
	 */
	async send(next: StepRequest, signal: AbortSignal): Promise<{ readonly answer: Answer; readonly requestId: string } | undefined> {
		const { scope } = this;
		const { runtime } = this.ports;
		const { step, settings, specs } = next;
		const auto = settings.autoCompact;
		const threshold = compactionThreshold(settings);
		let refusal: unknown;
		for (let overflowed = false; ; overflowed = true) {
			const staging = new RequestStaging();
			if (next.nudge) {
				stageEntry(staging, 'steering', noToolNudge());
			}
			if (step === 1) {
				for (const { stage, entry } of next.attached) {
					stageEntry(staging, stage, entry);
				}
			}
			const cause = compactionCause(overflowed, threshold, scope, specs);
			if (cause !== undefined) {
				const compacted = await compactInTurn(
					this.ports,
					scope,
					this.lifecycle,
					this.turnId,
					{ cause, step, model: next.model, settings, specs, staging, refusal },
					signal,
				);
				if (compacted === 'stopped') {
					return undefined;
				}
				if (compacted !== 'nothing') {
					this.used = compacted.tokensAfter;
				}
			}
			const requestId = runtime.ids.next();
			// What the chat's hooks left pending rides the turn's first request (each attempt of it) until one goes out.
			const reservation = step === 1 ? scope.prompt?.reserve(this.turnId) : undefined;
			let answer: Answer;
			try {
				answer = await this.request(next, staging, requestId, reservation, signal);
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
	private async request(
		next: StepRequest,
		staging: RequestStaging,
		requestId: string,
		reservation: HookReservation | undefined,
		signal: AbortSignal,
	): Promise<Answer> {
		const { scope } = this;
		const { runtime } = this.ports;
		const { step, settings } = next;
		const owner = this.lifecycle.owner;
		const auto = settings.autoCompact;
		const messages = replayHistory(scope.transcript.records, { log: runtime.log, ...(reservation ? { reservedHookContext: reservation.replay } : {}) });
		const last = messages.at(-1);
		const request: PreparedRequest = {
			requestId,
			owner,
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
		await scope.observers?.beforeWait(owner, signal);
		const injection = scope.engine.wait(request, staging, facts);
		return this.sample(next.model, injection, next.specs, settings, signal, reservation);
	}

	/** One request: commits its reminders when the provider accepts it, folds the response. */
	private async sample(
		model: ResolvedModel,
		injection: Injection<PreparedRequest>,
		tools: readonly ToolSpec[],
		settings: TurnSettings,
		signal: AbortSignal,
		reservation: HookReservation | undefined,
	): Promise<Answer> {
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
