// The agent of one window: runs the current session's turns one at a time, turns a message
// typed during a turn into steering, asks the person about writes and commands, and says what it
// is doing (AgentState; src/view/ turns that into what the chat shows). Pure: providers, tools and
// settings come in through AgentEnvironment.
import type { Clock, IdSource } from '../base/clock';
import { Emitter, type Event } from '../base/event';
import { Disposable, MutableDisposable, toDisposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { ChatMessage } from '../providers/messages';
import { isWindow } from '../providers/contextWindow';
import type { ChatProvider, ChatRequest, ModelInfo, ProviderError, StreamEvent, ToolSpec } from '../providers/provider';
import { userSteering } from '../reminders/builtin/userSteering';
import type { Preparation } from '../tools/registry';
import type { Tool, ToolContext, ToolResult } from '../tools/tool';
import type { AgentState, TurnActivity } from './agentState';
import type { TurnObservers } from './observers';
import type { ChatSession } from './session';
import type { ChatSessions } from './sessions';
import type { AgentRecord } from '../transcript/records';
import type { PermissionMode } from './permissionMode';
import { type PermissionDecision, type PermissionGate, type PermissionRequest, Turn, type TurnOutcome, type TurnUpdate } from './turn';

/** The provider and model a turn will use. */
export interface ResolvedModel {
	readonly provider: ChatProvider;
	readonly model: string;
	readonly contextWindow?: number;
}

/** Where models come from (settings, API keys, vscode.lm), implemented in src/vscode/. */
export interface ModelSource {
	readonly providerId: string;
	/** The configured model id; '' lets the provider choose. */
	readonly configuredModel: string;
	/** The provider and model to use now. Throws an Error saying what to configure. */
	resolve(signal: AbortSignal): Promise<ResolvedModel>;
	/** The models on offer, for the picker, or why there are none. */
	listModels(signal: AbortSignal): Promise<{ readonly models: readonly ModelInfo[]; readonly problem?: string }>;
	/** Remembers the person's choice (the `aside.model` setting). */
	selectModel(model: string): Promise<void>;
	/** Settings or keys changed: the choice may differ now. */
	readonly onDidChange: Event<void>;
	/**
	 * The model's context window as known now: `aside.contextWindow`, else what the provider's API
	 * or server said, else the known-models table; undefined when unknown. Never waits: what is
	 * learned in the background fires `onDidChangeContextWindow`.
	 */
	contextWindow?(model: string): number | undefined;
	readonly onDidChangeContextWindow?: Event<void>;
	/** A request with this model finished: a window that was only a guess is asked again, in the background. */
	requestFinished?(resolved: ResolvedModel): void;
}

export interface AgentSettings {
	readonly maxOutputTokens: number;
	readonly maxSteps: number;
	readonly permissionMode: PermissionMode;
}

export interface AgentEnvironment {
	readonly sessions: ChatSessions;
	readonly models: ModelSource;
	readonly settings: () => AgentSettings;
	readonly onDidChangeSettings: Event<unknown>;
	/** The tools on offer in `mode` (workspace trust applied). */
	readonly tools: (mode: PermissionMode) => readonly Tool[];
	readonly toolSpecs: (tools: readonly Tool[]) => ToolSpec[];
	readonly invoke: (tool: Tool, input: unknown, context: ToolContext) => Promise<ToolResult>;
	readonly prepare: (tool: Tool, input: unknown, context: ToolContext) => Promise<Preparation>;
	readonly toolContext: (signal: AbortSignal) => ToolContext;
	readonly history: (records: readonly AgentRecord[]) => ChatMessage[];
	readonly stream: (provider: ChatProvider, request: ChatRequest, signal: AbortSignal, onRetry: (attempt: number, error: ProviderError, delayMs: number) => void) => AsyncIterable<StreamEvent>;
	readonly system: () => string;
	/** The current session's observers (edited files, AGENTS.md), when the editor provides them. */
	readonly observers?: () => TurnObservers | undefined;
	readonly clock: Clock;
	readonly ids: IdSource;
	readonly log: Logger;
}

interface Running {
	readonly turn: Turn;
	readonly session: ChatSession;
	readonly controller: AbortController;
	activity: TurnActivity;
}

interface PendingApproval {
	readonly request: PermissionRequest;
	readonly resolve: (decision: PermissionDecision) => void;
}

export class Agent extends Disposable implements PermissionGate {
	private running: Running | undefined;
	private streaming: { readonly requestId: string; text: string } | null = null;
	private approval: PendingApproval | undefined;
	private steering: string[] = [];
	private models: readonly ModelInfo[] = [];
	private problem: string | undefined;
	/** The model the last turn used: its window is shown when no model is configured. */
	private used: ResolvedModel | undefined;
	private mode: PermissionMode;
	private readonly steeringWatch = this._register(new MutableDisposable());

	private readonly _onDidChange = this._register(new Emitter<AgentState>());
	readonly onDidChange: Event<AgentState> = this._onDidChange.event;
	private readonly _onDidStream = this._register(new Emitter<{ readonly requestId: string; readonly text: string }>());
	readonly onDidStream: Event<{ readonly requestId: string; readonly text: string }> = this._onDidStream.event;
	private readonly _onDidEndTurn = this._register(new Emitter<TurnOutcome>());
	readonly onDidEndTurn: Event<TurnOutcome> = this._onDidEndTurn.event;

	constructor(private readonly env: AgentEnvironment) {
		super();
		this.mode = env.settings().permissionMode;
		let lastMode = this.mode;
		this._register(env.onDidChangeSettings(() => {
			// A changed setting wins over the view's choice; an unrelated change keeps it.
			const configured = env.settings().permissionMode;
			if (configured !== lastMode) {
				lastMode = configured;
				this.mode = configured;
				this.changed();
			}
		}));
		this._register(env.models.onDidChange(() => {
			void this.refreshModels();
		}));
		if (env.models.onDidChangeContextWindow) {
			this._register(env.models.onDidChangeContextWindow(() => {
				this.changed();
			}));
		}
		this._register(env.sessions.onDidChangeCurrent(() => {
			this.stop();
		}));
		this._register(toDisposable(() => {
			this.running?.controller.abort();
		}));
		void this.refreshModels();
	}

	get isRunning(): boolean {
		return this.running !== undefined;
	}

	get state(): AgentState {
		return {
			activity: this.running?.activity,
			problem: this.problem,
			provider: this.env.models.providerId,
			model: this.env.models.configuredModel,
			models: this.models,
			mode: this.mode,
			approval: this.approval?.request ?? null,
			streaming: this.streaming && { requestId: this.streaming.requestId, text: this.streaming.text },
			steering: [...this.steering],
			contextWindow: this.contextWindow(),
		};
	}

	/** The window of the model a turn would use now: the configured one, else the last used, else the provider's first. */
	private contextWindow(): number | undefined {
		const model = this.env.models.configuredModel || this.used?.model || this.models[0]?.id;
		return model === undefined ? undefined : this.windowOf(model);
	}

	/** What the model source knows now (it may learn more later); without that, what the model list or resolve said. */
	private windowOf(model: string): number | undefined {
		const { models } = this.env;
		const window = models.contextWindow
			? models.contextWindow(model)
			: (this.models.find((m) => m.id === model)?.contextWindow ?? (this.used?.model === model ? this.used.contextWindow : undefined));
		return isWindow(window) ? window : undefined;
	}

	submit(text: string): void {
		if (this.running) {
			this.steer(text);
			return;
		}
		void this.startTurn(text);
	}

	/** Starts a turn and resolves when it ended (for the API and tests). */
	async startTurn(text: string): Promise<TurnOutcome> {
		if (this.running) {
			throw new Error('A turn is already running; stop it first.');
		}
		const { env } = this;
		// A chat another window writes continues in a copy (which becomes current) rather than fail.
		const session = env.sessions.forWriting();
		let resolved: ResolvedModel | undefined;
		const controller = new AbortController();
		const observers = env.observers?.();
		const turn = new Turn(
			{
				engine: session.reminders,
				transcript: session,
				history: env.history,
				stream: (request, signal, onRetry) => {
					if (!resolved) {
						throw new Error('No model was chosen for this turn.');
					}
					return this.reportingEnd(env.stream(resolved.provider, request, signal, onRetry), resolved);
				},
				tools: () => env.tools(this.mode),
				toolSpecs: env.toolSpecs,
				invoke: env.invoke,
				prepare: env.prepare,
				toolContext: env.toolContext,
				permissions: this,
				settings: () => {
					const settings = env.settings();
					// Read at every step: a window learned during the turn counts from the next request.
					const contextWindow = resolved ? this.windowOf(resolved.model) : undefined;
					return {
						model: resolved?.model ?? '',
						maxOutputTokens: settings.maxOutputTokens,
						maxSteps: settings.maxSteps,
						permissionMode: this.mode,
						...(contextWindow ? { contextWindow } : {}),
					};
				},
				system: env.system,
				clock: env.clock,
				ids: env.ids,
				log: env.log,
				onUpdate: (update) => {
					this.update(update);
				},
				...(observers ? { observers } : {}),
			},
			env.ids.next(),
		);
		const running: Running = { turn, session, controller, activity: { kind: 'choosing-model' } };
		this.running = running;
		this.watchSteering(session);
		this.changed();
		const outcome = await turn.run(text, controller.signal, async () => {
			resolved = await env.models.resolve(controller.signal);
			const changed = resolved.model !== this.used?.model || resolved.contextWindow !== this.used.contextWindow;
			this.used = resolved;
			if (changed) {
				this.changed();
			}
		});
		this.running = undefined;
		this.streaming = null;
		this.approval = undefined;
		const undelivered = this.steering;
		this.steering = [];
		this.changed();
		this._onDidEndTurn.fire(outcome);
		if (undelivered.length > 0 && outcome.outcome !== 'interrupted' && env.sessions.current === session) {
			// Typed after the agent's last step: it is the person's next message, not lost.
			void this.startTurn(undelivered.join('\n\n'));
		}
		return outcome;
	}

	/** The request's events, then (however it ended) a word to the model source, which may ask about the window again. */
	private async *reportingEnd(events: AsyncIterable<StreamEvent>, resolved: ResolvedModel): AsyncGenerator<StreamEvent, void, undefined> {
		try {
			yield* events;
		} finally {
			this.env.models.requestFinished?.(resolved);
		}
	}

	stop(): void {
		if (!this.running) {
			return;
		}
		this.running.activity = { kind: 'stopping' };
		this.running.controller.abort();
		this.approval?.resolve({ granted: false });
		this.approval = undefined;
		this.changed();
	}

	approve(callId: string, granted: boolean, note: string | undefined): void {
		if (this.approval?.request.callId !== callId) {
			this.env.log.warn(`Aside: an approval for ${callId} arrived, but no call is waiting for it.`);
			return;
		}
		const { resolve } = this.approval;
		this.approval = undefined;
		resolve({ granted, ...(note?.trim() ? { note: note.trim() } : {}) });
		this.changed();
	}

	selectModel(model: string): void {
		void this.env.models.selectModel(model).then(
			() => {
				this.changed();
			},
			(error: unknown) => {
				this.env.log.error(`Aside: could not select the model ${model}: ${error instanceof Error ? error.message : String(error)}`);
			},
		);
	}

	selectMode(mode: PermissionMode): void {
		this.mode = mode;
		this.changed();
	}

	/** PermissionGate: shows the approval card and waits for the person. */
	ask(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
		return new Promise((resolve) => {
			const onAbort = (): void => {
				if (this.approval?.request === request) {
					this.approval = undefined;
					this.changed();
				}
				resolve({ granted: false });
			};
			if (signal.aborted) {
				onAbort();
				return;
			}
			signal.addEventListener('abort', onAbort, { once: true });
			this.approval = {
				request,
				resolve: (decision) => {
					signal.removeEventListener('abort', onAbort);
					resolve(decision);
				},
			};
			this.changed();
		});
	}

	private steer(text: string): void {
		const running = this.running;
		if (!running) {
			return;
		}
		if (!running.session.reminders.queueTurnEvent(running.turn.rootOwner, userSteering(text))) {
			this.env.log.warn('Aside: a steering message arrived after its turn ended; it becomes the next message.');
		}
		this.steering.push(text);
		this.changed();
	}

	private watchSteering(session: ChatSession): void {
		this.steeringWatch.value = session.reminders.onDidRecord((record) => {
			if (record.entries.some((entry) => entry.key === 'steering.user')) {
				this.steering = [];
				this.changed();
			}
		});
	}

	private update(update: TurnUpdate): void {
		const running = this.running;
		if (!running) {
			return;
		}
		switch (update.type) {
			case 'text':
				if (this.streaming?.requestId !== update.requestId) {
					// A new response: the state says so before its first text arrives.
					this.streaming = { requestId: update.requestId, text: '' };
					this.changed();
				}
				this.streaming.text += update.text;
				this._onDidStream.fire({ requestId: update.requestId, text: update.text });
				return;
			case 'retrying':
				running.activity = { kind: 'retrying', attempt: update.attempt, delayMs: update.delayMs, reason: update.reason };
				break;
			case 'status':
				if (update.status !== 'streaming') {
					this.streaming = null;
				}
				running.activity =
					update.status === 'running-tool' || update.status === 'asking'
						? { kind: update.status, ...(update.detail === undefined ? {} : { tool: update.detail }) }
						: { kind: update.status };
				break;
		}
		this.changed();
	}

	private async refreshModels(): Promise<void> {
		const controller = new AbortController();
		const timer = setTimeout(() => {
			controller.abort();
		}, 15_000);
		try {
			const { models, problem } = await this.env.models.listModels(controller.signal);
			this.models = models;
			this.problem = problem;
		} catch (error) {
			this.models = [];
			this.problem = error instanceof Error ? error.message : String(error);
		} finally {
			clearTimeout(timer);
		}
		this.changed();
	}

	private changed(): void {
		if (!this.store.isDisposed) {
			this._onDidChange.fire(this.state);
		}
	}
}
