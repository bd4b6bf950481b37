// One user turn of the agent: user message → WAIT → request → stream → tool calls → results →
// WAIT → … until the model stops, the step limit is reached, the person stops it, or a request
// fails. Every request goes through the reminder engine's WAIT; the reminders it carried are
// committed on the provider's `accepted` event and at no other time.
import type { Clock, IdSource } from '../base/clock';
import type { Logger } from '../base/log';
import type { ChatMessage } from '../providers/messages';
import { type ChatRequest, ProviderError, type StopReason, type StreamEvent, type ToolSpec } from '../providers/provider';
import { noToolNudge } from '../reminders/builtin/agentNudge';
import { permissionVerdict } from '../reminders/builtin/permissionVerdict';
import type { Owner, WaitFacts } from '../reminders/definition';
import type { ReminderEngine } from '../reminders/engine';
import type { Injection, PreparedRequest } from '../reminders/injector';
import { RequestStaging, stageEntry } from '../reminders/staging';
import { declareTouches, type Preparation } from '../tools/registry';
import { type Confirmation, NO_TOUCHES, type Tool, type ToolContext, type ToolResult } from '../tools/tool';
import type { AgentRecord, AssistantRecord, ToolResultRecord, TurnEndRecord } from '../transcript/records';
import type { TurnObservers } from './observers';
import type { PermissionMode } from './permissionMode';

/** The session's transcript as the turn sees it: what is recorded, and where new records go. */
export interface TurnTranscript {
	readonly records: readonly AgentRecord[];
	/** Writes the record (to disk first) and adds it to `records`. Throws when it cannot be written. */
	append(record: AgentRecord): void;
}

export interface PermissionRequest {
	readonly callId: string;
	readonly tool: string;
	readonly kind: Tool['kind'];
	readonly confirmation: Confirmation;
}

export interface PermissionDecision {
	readonly granted: boolean;
	/** What the person wrote with the verdict, if anything. */
	readonly note?: string;
}

/** Asks the person (the approval card in the chat view). Rejects when `signal` aborts. */
export interface PermissionGate {
	ask(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision>;
}

export interface TurnSettings {
	readonly model: string;
	readonly maxOutputTokens: number;
	readonly maxSteps: number;
	readonly permissionMode: PermissionMode;
	/** The model's context window in tokens, when known (for the context-use reminder). */
	readonly contextWindow?: number;
}

export type TurnUpdate =
	| { readonly type: 'status'; readonly status: 'waiting' | 'streaming' | 'running-tool' | 'asking'; readonly detail?: string }
	| { readonly type: 'retrying'; readonly attempt: number; readonly delayMs: number; readonly reason: string }
	| { readonly type: 'text'; readonly requestId: string; readonly text: string };

export interface TurnDependencies {
	readonly engine: ReminderEngine;
	readonly transcript: TurnTranscript;
	/** Provider messages for the records (the same function replays a reopened session). */
	readonly history: (records: readonly AgentRecord[]) => ChatMessage[];
	/** Streams with the current provider, retrying failures before `accepted`. */
	readonly stream: (request: ChatRequest, signal: AbortSignal, onRetry: (attempt: number, error: ProviderError, delayMs: number) => void) => AsyncIterable<StreamEvent>;
	/** The tools on offer now (permission mode and workspace trust applied). */
	readonly tools: () => readonly Tool[];
	readonly toolSpecs: (tools: readonly Tool[]) => ToolSpec[];
	/** Validates and runs a tool; never throws. */
	readonly invoke: (tool: Tool, input: unknown, context: ToolContext) => Promise<ToolResult>;
	/** Before asking the person: validates and builds what they confirm; never throws. */
	readonly prepare: (tool: Tool, input: unknown, context: ToolContext) => Promise<Preparation>;
	readonly toolContext: (signal: AbortSignal) => ToolContext;
	readonly permissions: PermissionGate;
	readonly settings: () => TurnSettings;
	readonly system: () => string;
	readonly clock: Clock;
	readonly ids: IdSource;
	readonly log: Logger;
	readonly onUpdate: (update: TurnUpdate) => void;
	/** What the editor tells the engine around tool calls and WAITs (edited files, AGENTS.md). */
	readonly observers?: TurnObservers;
}

export interface TurnOutcome {
	readonly turnId: string;
	readonly outcome: TurnEndRecord['outcome'];
	readonly error?: string;
}

interface Sample {
	readonly accepted: boolean;
	readonly text: string;
	readonly toolCalls: { readonly id: string; readonly name: string; readonly input: unknown }[];
	readonly stop: AssistantRecord['stop'];
	readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
	readonly error?: unknown;
}

const DENIED = 'The user denied this call; it did not run.';

function isCancellation(error: unknown, signal: AbortSignal): boolean {
	return signal.aborted || (error instanceof ProviderError && error.kind === 'cancelled');
}

function describeError(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function lastUsage(records: readonly AgentRecord[]): { inputTokens: number; outputTokens: number } | undefined {
	for (let i = records.length - 1; i >= 0; i--) {
		const record = records[i];
		if (record?.kind === 'assistant' && record.usage) {
			return { ...record.usage };
		}
	}
	return undefined;
}

/**
 * Whether a call waits for the person: a command always; a write in ask mode; and, in any mode,
 * a write whose confirmation says it must always be asked about (a file with more than one hard
 * link may be the same file as one outside the workspace). So every write and command is
 * prepared (validated, its confirmation built) before the decision; a read never asks.
 */
function needsPermission(kind: Tool['kind'], mode: PermissionMode, confirmation?: Confirmation): boolean {
	return kind === 'run' || (kind === 'write' && (mode === 'ask' || confirmation?.alwaysAsk !== undefined));
}

export class Turn {
	private readonly owner: Owner;
	private usage: { inputTokens: number; outputTokens: number } | undefined;

	constructor(
		private readonly deps: TurnDependencies,
		readonly turnId: string,
	) {
		this.owner = deps.engine.beginUserTurn(turnId);
		// The last answer's usage is what this turn's first request starts from (as the context meter shows).
		this.usage = lastUsage(deps.transcript.records);
	}

	get rootOwner(): Owner {
		return this.owner;
	}

	/**
	 * Runs the turn to its end. Never throws: failures end the turn with a recorded outcome.
	 * `prepare` runs after the user message is recorded (choosing the model, say); if it fails,
	 * the turn fails with its message and nothing is sent.
	 */
	async run(text: string, signal: AbortSignal, prepare?: () => Promise<void>): Promise<TurnOutcome> {
		const { deps, turnId } = this;
		let outcome: TurnEndRecord['outcome'];
		let error: string | undefined;
		try {
			deps.transcript.append({ kind: 'user', id: deps.ids.next(), turnId, at: deps.clock.now(), text });
			await prepare?.();
			outcome = await this.loop(signal);
		} catch (caught) {
			if (isCancellation(caught, signal)) {
				outcome = 'interrupted';
			} else {
				outcome = 'failed';
				error = describeError(caught);
				deps.log.error(`Aside: the turn failed: ${error}`);
			}
		} finally {
			deps.engine.endUserTurn();
			deps.observers?.endOwner(this.owner);
		}
		try {
			deps.transcript.append({ kind: 'turn-end', turnId, at: deps.clock.now(), outcome, ...(error === undefined ? {} : { error }) });
		} catch (caught) {
			deps.log.error(`Aside: could not record the end of the turn: ${describeError(caught)}`);
		}
		return { turnId, outcome, ...(error === undefined ? {} : { error }) };
	}

	private async loop(signal: AbortSignal): Promise<TurnEndRecord['outcome']> {
		const { deps } = this;
		let nudge = false;
		let nudged = false;
		for (let step = 1; ; step++) {
			if (signal.aborted) {
				return 'interrupted';
			}
			const settings = deps.settings();
			const staging = new RequestStaging();
			if (nudge) {
				stageEntry(staging, 'steering', noToolNudge());
				nudge = false;
			}
			const requestId = deps.ids.next();
			const request: PreparedRequest = {
				requestId,
				owner: this.owner,
				phase: step === 1 ? 'turn-start' : 'mid-turn',
				messages: deps.history(deps.transcript.records),
			};
			const facts: WaitFacts = {
				step,
				stepLimit: settings.maxSteps,
				...(this.usage && settings.contextWindow ? { context: { usedTokens: this.usage.inputTokens + this.usage.outputTokens, limitTokens: settings.contextWindow } } : {}),
			};
			await deps.observers?.beforeWait(this.owner, signal);
			const injection = deps.engine.wait(request, staging, facts);
			const tools = deps.tools();
			const sample = await this.sample(injection, tools, settings, signal);
			if (sample.accepted) {
				deps.transcript.append({
					kind: 'assistant',
					id: deps.ids.next(),
					turnId: this.turnId,
					requestId,
					at: deps.clock.now(),
					text: sample.text,
					toolCalls: sample.toolCalls,
					stop: sample.stop,
					...(sample.usage ? { usage: sample.usage } : {}),
					model: settings.model,
				});
			}
			if (sample.error !== undefined) {
				throw sample.error instanceof Error ? sample.error : new Error(describeError(sample.error));
			}
			if (sample.toolCalls.length === 0) {
				if (sample.text.trim() === '' && !nudged && step < settings.maxSteps) {
					nudge = true;
					nudged = true;
					continue;
				}
				return 'done';
			}
			const final = step >= settings.maxSteps;
			for (const call of sample.toolCalls) {
				await this.runToolCall(call, tools, settings.permissionMode, final, signal);
			}
			if (final) {
				return 'step-limit';
			}
		}
	}

	/** One request: commits its reminders when the provider accepts it, collects the response. */
	private async sample(injection: Injection<PreparedRequest>, tools: readonly Tool[], settings: TurnSettings, signal: AbortSignal): Promise<Sample> {
		const { deps } = this;
		const requestId = injection.request.requestId;
		const chatRequest: ChatRequest = {
			model: settings.model,
			system: deps.system(),
			messages: injection.request.messages,
			tools: deps.toolSpecs(tools),
			maxOutputTokens: settings.maxOutputTokens,
		};
		let accepted = false;
		let text = '';
		const toolCalls: { id: string; name: string; input: unknown }[] = [];
		let stop: StopReason | undefined;
		let usage: Sample['usage'];
		deps.onUpdate({ type: 'status', status: 'waiting' });
		try {
			const events = deps.stream(chatRequest, signal, (attempt, error, delayMs) => {
				deps.onUpdate({ type: 'retrying', attempt, delayMs, reason: error.message });
			});
			for await (const event of events) {
				switch (event.type) {
					case 'accepted':
						accepted = true;
						await this.commit(injection);
						deps.onUpdate({ type: 'status', status: 'streaming' });
						break;
					case 'text':
						text += event.text;
						deps.onUpdate({ type: 'text', requestId, text: event.text });
						break;
					case 'reasoning':
						// The model's thinking is not its answer: neither recorded nor shown as one.
						break;
					case 'tool-call':
						toolCalls.push({ id: event.id, name: event.name, input: event.input });
						break;
					case 'usage':
						usage = { inputTokens: event.inputTokens, outputTokens: event.outputTokens };
						this.usage = usage;
						break;
					case 'stop':
						stop = event.reason;
						break;
				}
			}
		} catch (error) {
			// Tool calls of a broken response are not run: their input may be incomplete.
			const interrupted = isCancellation(error, signal);
			return { accepted, text, toolCalls: [], stop: interrupted ? 'interrupted' : 'failed', ...(usage ? { usage } : {}), error };
		}
		return { accepted, text, toolCalls, stop: stop ?? (toolCalls.length ? 'tool-use' : 'end'), ...(usage ? { usage } : {}) };
	}

	/** The payload went out: record what it carried, then mark it delivered. */
	private async commit(injection: Injection<PreparedRequest>): Promise<void> {
		try {
			await injection.commit();
		} catch (error) {
			// The request is already on its way; failing it now would lose the answer. Unrecorded
			// reminders stay uncommitted and are offered again at the next WAIT.
			this.deps.log.error(`Aside: the reminders of request ${injection.request.requestId} could not be recorded: ${describeError(error)}`);
		}
	}

	private async invoke(tool: Tool, call: Sample['toolCalls'][number], context: ToolContext, signal: AbortSignal): Promise<ToolResult> {
		const touches = this.deps.observers ? await declareTouches(tool, call.input, context) : NO_TOUCHES;
		await this.deps.observers?.beforeTool({ name: call.name, touches }, this.owner, signal);
		return this.deps.invoke(tool, call.input, context);
	}

	private async runToolCall(call: Sample['toolCalls'][number], tools: readonly Tool[], mode: PermissionMode, final: boolean, signal: AbortSignal): Promise<void> {
		const { deps } = this;
		const started = deps.clock.now();
		const tool = tools.find((candidate) => candidate.name === call.name);
		let result: ToolResult;
		let verdict: ToolResultRecord['verdict'];
		if (final) {
			result = { isError: true, content: 'Not run: this was the last step allowed for this turn.' };
		} else if (!tool) {
			result = { isError: true, content: `There is no tool named "${call.name}"${mode === 'plan' ? ' in plan mode, which is read-only' : ''}. Available: ${tools.map((t) => t.name).join(', ') || 'none'}.` };
		} else {
			const context = deps.toolContext(signal);
			const prepared = tool.kind !== 'read' ? await deps.prepare(tool, call.input, context) : undefined;
			if (prepared && !prepared.ok) {
				// Invalid input, or a change that cannot apply: that is the result; nothing to ask.
				result = prepared.result;
			} else if (prepared && needsPermission(tool.kind, mode, prepared.confirmation)) {
				const confirmation = prepared.confirmation ?? { title: `Allow ${tool.name}?`, target: JSON.stringify(call.input) };
				deps.onUpdate({ type: 'status', status: 'asking', detail: tool.name });
				const decision = await deps.permissions.ask({ callId: call.id, tool: tool.name, kind: tool.kind, confirmation }, signal);
				verdict = decision.granted ? 'granted' : 'denied';
				deps.engine.queueTurnEvent(this.owner, permissionVerdict({ granted: decision.granted, tool: tool.name, target: confirmation.target, ...(decision.note ? { note: decision.note } : {}) }));
				result = decision.granted ? await this.invoke(tool, call, context, signal) : { isError: true, content: decision.note ? `${DENIED} The user said: ${decision.note}` : DENIED };
			} else {
				deps.onUpdate({ type: 'status', status: 'running-tool', detail: tool.name });
				result = await this.invoke(tool, call, context, signal);
			}
		}
		deps.transcript.append({
			kind: 'tool-result',
			id: deps.ids.next(),
			turnId: this.turnId,
			callId: call.id,
			name: call.name,
			at: deps.clock.now(),
			content: result.content,
			isError: result.isError ?? false,
			...(result.notices?.length ? { notices: [...result.notices] } : {}),
			...(result.detail ? { detail: result.detail } : {}),
			durationMs: deps.clock.now() - started,
			...(verdict ? { verdict } : {}),
		});
		await deps.observers?.afterTool(call, result, this.owner, signal);
		if (signal.aborted) {
			throw new ProviderError('cancelled', 'The turn was stopped.');
		}
	}
}
