// One turn loop: user message → WAIT → request → stream → tool calls → results → WAIT → … until
// the model stops, the step limit is reached, the person stops it, or a request fails. Every
// request goes through the reminder engine's WAIT; the reminders it carried are committed on the
// provider's `accepted` event and at no other time. Built from the agent's ports (ports.ts) and a
// scope: the root turn of a chat, or one agent invocation, whose loop is the same code.
import { errorMessage } from '../base/errors';
import type { Owner } from '../reminders/definition';
import type { StagedInStage } from '../reminders/staging';
import type { ImagePart } from '../providers/messages';
import { imageRecords } from '../transcript/replayImages';
import type { StartedBy } from '../transcript/startedBy';
import type { TurnOutcomeKind } from '../vocabulary/outcomes';
import { type LoopOwner, rootTurn } from './loopOwner';
import type { AgentPorts, ResolvedModel } from './ports';
import { isCancellation, StepSampler } from './sample';
import { ToolCallRunner } from './toolCalls';

import type { TurnOutcome, TurnScope } from './turnScope';

export type { TurnOutcome, TurnScope, TurnSettings, TurnTranscript, TurnUpdate } from './turnScope';

/** What a turn starts with: the person's message (`text`), or the reminder Aside sends in its place (`startedBy`, `text` empty). */
export interface TurnMessage {
	readonly text: string;
	/** The failed root turn this message sends again (the person's Retry). */
	readonly retryOf?: string;
	/** The slash command, as typed, that made `text`. */
	readonly command?: string;
	/** No person asked for this turn: what Aside says in their place, and why. */
	readonly startedBy?: StartedBy;
	/** The images the person attached (sniffed and bounded by the host, userImages.ts), before `text` on the wire. */
	readonly images?: readonly ImagePart[];
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
	 * message and nothing is sent. `message`: a string is the person's words. A turn Aside started runs no prompt hooks: no person submitted a prompt.
	 */
	async run(message: TurnMessage | string, signal: AbortSignal): Promise<TurnOutcome> {
		const { turnId, scope } = this;
		const { text, retryOf, command, startedBy, images }: TurnMessage = typeof message === 'string' ? { text: message } : message;
		const { clock, ids, log } = this.ports.runtime;
		let outcome: TurnOutcomeKind;
		let error: string | undefined;
		/** A hook blocked the message (its reason): nothing is recorded, nothing sent. */
		let unsent: string | undefined;
		try {
			const hooked = startedBy ? undefined : await scope.prompt?.beforeMessage(text, signal);
			if (hooked?.blocked !== undefined) {
				unsent = hooked.blocked;
				throw new Error(`A UserPromptSubmit hook blocked the message; it was not sent: ${hooked.blocked}`);
			}
			// UserPromptSubmit's context is accepted with the message, beside the text, which stays as typed (replay puts it first).
			const hookContext = hooked?.context.map((entry) => ({ event: entry.event, text: entry.text }));
			scope.transcript.append({
				kind: 'user',
				id: ids.next(),
				turnId,
				at: clock.now(),
				text,
				...(hookContext?.length ? { hookContext } : {}),
				...(retryOf === undefined ? {} : { retryOf }),
				...(command === undefined ? {} : { command }),
				...(startedBy === undefined ? {} : { startedBy }),
				...(images?.length ? { images: imageRecords(images) } : {}),
			});
			const model = await this.ports.dispatch.resolve(signal);
			scope.onUpdate?.({ type: 'resolved', model });
			scope.onUpdate?.({ type: 'status', status: 'preparing' });
			this.attached = (await scope.attachments?.(text, this.owner, signal)) ?? [];
			// The tools from outside (MCP servers) start with the chat's first message, and are waited for.
			await this.ports.tools.ready?.(signal);
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
