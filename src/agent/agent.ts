// The agent of one window: runs the current session's turns one at a time and says what it is
// doing (AgentState; src/view/ turns that into what the chat shows). It composes the parts:
// the permission gate (approvals.ts), steering (steering.ts), the model state (modelState.ts),
// each chat's plans (plans.ts) and chat features (chatFeature.ts), and turn loops (turn.ts) built
// from its ports (ports.ts). Pure: VS Code comes in through them.
import { errorMessage } from '../base/errors';
import { Emitter, type Event } from '../base/event';
import { Disposable, toDisposable } from '../base/lifecycle';
import type { AgentState, TurnActivity } from './agentState';
import { Approvals } from './approvals';
import { oneReviewAtATime } from './changeReview';
import { ModelState } from './modelState';
import type { TurnObservers } from './observers';
import type { ApprovedPlans } from './approvedPlan';
import type { PermissionMode } from '../vocabulary/permissionModes';
import type { PermissionContext } from './permissions/policy';
import type { PromptHooks, ToolHooks } from '../hooks/toolHooks';
import type { MessageAttachments } from './attachments';
import { ChatWork } from './chatWork';
import type { ChatPlans, PlanFiles } from './plans';
import type { AgentPorts, ModelSource } from './ports';
import type { ChatSession } from './session';
import type { ChatSessions } from './sessions';
import { type ReturnedMessages, Steering } from './steering';
import { recoveryAfter } from '../reminders/builtin/sessionRecovery';
import { rootAgents } from './subagents/childAgents';
import { activityOf, RunningChildren } from './runningChildren';
import type { AgentProfiles } from './subagents/profile';
import { type AgentFeature, ChatFeatures } from './chatFeature';
import { type AgentSettings, turnSettingsOf } from './agentSettings';
import { Turn, type TurnOutcome, type TurnScope, type TurnSettings, type TurnUpdate } from './turn';
import { retryOf } from './retry';
import { type BetweenTurns, HeldWork } from './betweenTurns';

export type { AgentSettings } from './agentSettings';

/** What the agent works on and with, beside its ports. */
export interface AgentEnvironment {
	readonly sessions: ChatSessions;
	/** Where models come from: the catalogue, the person's choice, what is known of windows. */
	readonly models: ModelSource;
	/** The settings now (read at every step), and when they change. */
	readonly settings: { readonly current: AgentSettings; readonly onDidChange: Event<unknown> };
	/** The root turn's system prompt. */
	readonly system: () => string;
	/** The current session's observers (edited files, AGENTS.md), when the editor provides them. */
	readonly observers?: () => TurnObservers | undefined;
	/** What the permission policy reads besides the mode (rules, trust, Aside's storage); no rules, trusted, when absent. */
	readonly permissions?: () => PermissionContext;
	/** Where approved plans are saved; without it an approval is refused with a message. */
	readonly planFiles?: PlanFiles;
	/** The agent profiles the Agent tool may run; without it (or with none) the tool is not offered. */
	readonly profiles?: AgentProfiles;
	/** What a root message brings besides its text (mentions, skills), prepared at send time. */
	readonly attachments?: MessageAttachments;
	/** The person's tool hooks (PreToolUse, PostToolUse), for the root's calls and its sub-agents'. */
	readonly hooks?: ToolHooks;
	/** The person's SessionStart / UserPromptSubmit / Stop hooks, for root messages (each chat's: chatWork.ts). */
	readonly prompt?: PromptHooks;
	/** The chat features (src/features/features.ts): each chat's state of each, opened with the chat. */
	readonly features?: readonly AgentFeature[];
}

interface Running {
	readonly turn: Turn;
	readonly session: ChatSession;
	readonly controller: AbortController;
	activity: TurnActivity;
}

export class Agent extends Disposable {
	private running: Running | undefined;
	/** Work between turns (a compaction the person asked for, a restore); messages sent meanwhile wait for it. */
	private readonly held = new HeldWork();
	private streaming: { readonly requestId: string; text: string } | null = null;
	/** The sub-agents running now; their text streams through onDidStream like the root's. */
	private readonly children: RunningChildren;
	private readonly approvals: Approvals;
	private readonly steering: Steering;
	private readonly modelState: ModelState;
	/** Each chat's plans and prompt hooks. */
	private readonly work: ChatWork;
	/** Each chat's state of each chat feature. */
	readonly features: ChatFeatures;
	/** The mode before plan mode was entered: what the plan card offers first for the implementation. */
	private modeBeforePlan: PermissionMode | undefined;
	/** The current chat's approved plan (edits.verify reads it). */
	readonly approvedPlans: ApprovedPlans = { current: () => this.plansOf(this.env.sessions.current).current() };

	private readonly _onDidChange = this._register(new Emitter<AgentState>());
	readonly onDidChange: Event<AgentState> = this._onDidChange.event;
	private readonly _onDidStream = this._register(new Emitter<{ readonly requestId: string; readonly text: string }>());
	readonly onDidStream: Event<{ readonly requestId: string; readonly text: string }> = this._onDidStream.event;
	private readonly _onDidEndTurn = this._register(new Emitter<TurnOutcome & { readonly returned?: ReturnedMessages }>());
	/** A turn ended; `returned`: what the person typed meanwhile that never reached the model and is not sent next. */
	readonly onDidEndTurn: Event<TurnOutcome & { readonly returned?: ReturnedMessages }> = this._onDidEndTurn.event;

	private readonly ports: AgentPorts;

	constructor(
		private readonly env: AgentEnvironment,
		ports: AgentPorts,
	) {
		super();
		// Sub-agents may ask side by side; the editor shows their reviews one after another.
		this.ports = ports.review ? { ...ports, review: oneReviewAtATime(ports.review) } : ports;
		const changed = (): void => {
			this.changed();
		};
		const { log } = ports.runtime;
		this.approvals = new Approvals(changed, log);
		this.children = new RunningChildren(changed, (delta) => {
			this._onDidStream.fire(delta);
		}, () => this.running !== undefined);
		this.work = new ChatWork({
			clock: ports.runtime.clock,
			ids: ports.runtime.ids,
			...(env.planFiles ? { planFiles: env.planFiles } : {}),
			planReferenceMaxChars: () => env.settings.current.planReferenceMaxChars ?? 4000,
			...(env.prompt ? { promptHooks: env.prompt } : {}),
			log,
			carriedPlan: (session) => this.features.carriedPlan(session),
		});
		const { clock, ids } = ports.runtime;
		this.features = new ChatFeatures(env.features ?? [], (session) => ({
			session,
			clock,
			newId: () => ids.next(),
			plans: this.plansOf(session),
			mode: { current: () => this.chatMode(session), select: (mode) => { this.selectModeOf(session, mode); } },
			isChildRunning: (path) => this.children.has(path),
			between: this.betweenTurns(session),
			log,
		}));
		this.steering = new Steering(changed, log);
		let lastMode = env.settings.current.permissionMode;
		this._register(env.settings.onDidChange(() => {
			// The setting is the mode of every chat that has not chosen its own (the toolbar's choice is the chat's).
			const configured = env.settings.current.permissionMode;
			if (configured !== lastMode) {
				lastMode = configured;
				this.changed();
			}
		}));
		this.modelState = this._register(new ModelState(env.models, changed, log));
		this._register(env.sessions.onDidChangeCurrent(() => {
			this.stop();
			// Another chat: its own mode, and its own plan waiting (or none).
			this.changed();
		}));
		this._register(toDisposable(() => {
			this.running?.controller.abort();
		}));
		void this.modelState.refresh();
	}

	get isRunning(): boolean {
		return this.running !== undefined;
	}

	/** The root turn running now in chat `sessionId`, if any (a fork cannot be made from it). */
	runningTurn(sessionId: string): string | undefined {
		return this.running?.session.id === sessionId ? this.running.turn.turnId : undefined;
	}

	get state(): AgentState {
		return {
			activity: this.running?.activity ?? this.held.activity,
			problem: this.modelState.problem,
			provider: this.env.models.providerId,
			model: this.env.models.configuredModel,
			models: this.modelState.models,
			mode: this.chatMode(this.env.sessions.current),
			approval: this.approvals.request,
			streaming: this.streaming && { requestId: this.streaming.requestId, text: this.streaming.text },
			steering: [...this.steering.pending],
			contextWindow: this.modelState.contextWindow(),
			plan: this.pendingPlan(),
			children: this.children.states,
		};
	}

	/** The plan card's content: only while no turn runs (a decision starts one). */
	private pendingPlan(): AgentState['plan'] {
		if (this.running) {
			return null;
		}
		const pending = this.plansOf(this.env.sessions.current).pending();
		return pending ? { ...pending, mode: this.modeBeforePlan ?? 'ask' } : null;
	}

	/** The plan state of a chat, made (and its plan reminders installed) the first time it is asked for. */
	private plansOf(session: ChatSession): ChatPlans {
		return this.work.plansOf(session);
	}

	/**
	 * Sends the person's message. `mode`: the one-message override, the mode its turn runs in
	 * instead of the chat's; a message that joins a running turn as steering runs in that turn's.
	 */
	submit(text: string, mode?: PermissionMode): void {
		if (this.held.hold(text)) {
			return;
		}
		const running = this.running;
		if (running) {
			this.steering.steer(running.session.reminders, running.turn.owner, text);
			return;
		}
		void this.startTurn(text, mode);
	}

	/** What the chat's features may do to `session` between its turns (compact it, restore it). */
	private betweenTurns(session: ChatSession): BetweenTurns {
		const { env, ports } = this;
		return {
			ports,
			observers: () => env.observers?.(),
			refusal: (doing) => (this.running || this.held.active ? `The agent is working: stop it or wait for it to finish before ${doing}.` : undefined),
			run: async (work, options) => {
				const { result, waiting } = await this.held.run(work, options, () => {
					this.changed();
				});
				if (waiting.length > 0 && env.sessions.current === session) {
					void this.startTurn(waiting.join('\n\n'));
				}
				return result;
			},
			rootRequest: async (signal) => {
				const model = await ports.dispatch.resolve(signal);
				this.modelState.use(model);
				const settings = this.turnSettings(session, model.model);
				return { model, system: env.system(), tools: this.rootToolSpecs(session, settings.permissionMode), settings };
			},
			startTurn: (text) => {
				void this.startTurn(text);
			},
			changed: () => {
				this.changed();
			},
			restored: () => {
				this.features.afterRestore(session);
				this.work.restored(session);
			},
			compacted: () => {
				this.features.afterCompaction(session);
				this.work.compacted(session);
			},
		};
	}

	/** The tool list the root turn sends in `mode` (a manual compaction's request sends the same). */
	private rootToolSpecs(session: ChatSession, mode: PermissionMode) {
		const { tools } = this.ports;
		const specs = tools.specs(tools.offered(mode));
		const agents = this.env.profiles && rootAgents(this.childEnvironment(session, this.env.profiles), this.ports, 'compaction');
		const agentSpec = agents?.spec();
		return agentSpec ? [...specs, agentSpec] : specs;
	}

	/** A root step's limits and mode with `model` (read at every step). */
	private turnSettings(session: ChatSession, model: string, override?: PermissionMode): TurnSettings {
		return turnSettingsOf(this.env.settings.current, override ?? this.chatMode(session), this.modelState.windowOf(model));
	}

	/** The chat's own mode, else the setting's. */
	private chatMode(session: ChatSession): PermissionMode {
		return session.mode ?? this.env.settings.current.permissionMode;
	}

	/** Retry on the chat's last turn, which failed: its message goes out again; returns why it cannot, or undefined. */
	retry(turnId: string): string | undefined {
		const busy = this.running || this.held.active ? 'The agent is working: stop it or wait for it to finish before retrying.' : undefined;
		const target = busy ?? retryOf(this.env.sessions.current.records, turnId);
		if (typeof target === 'string') {
			return target;
		}
		void this.startTurn(target.text, undefined, turnId);
		return undefined;
	}

	/** Starts a turn (in `override` rather than the chat's mode, when given; `retryOf`: the failed turn it sends again) and resolves when it ended (for the API and tests). */
	async startTurn(text: string, override?: PermissionMode, retryOf?: string): Promise<TurnOutcome> {
		if (this.running) {
			throw new Error('A turn is already running; stop it first.');
		}
		if (this.held.active) {
			throw new Error('The chat is being compacted or restored; wait for it to finish, or stop it.');
		}
		const { env } = this;
		// A chat another window writes continues in a copy (which becomes current) rather than fail.
		const session = env.sessions.forWriting();
		const controller = new AbortController();
		const observers = env.observers?.();
		// Its plan and its features' reminders are installed before its first WAIT.
		this.plansOf(session);
		this.features.open(session);
		const turnId = this.ports.runtime.ids.next();
		const prompt = this.work.promptHooksOf(session);
		const scope: TurnScope = {
			engine: session.reminders,
			transcript: session,
			permissions: this.approvals,
			...(env.permissions ? { permissionPolicy: env.permissions } : {}),
			// Read at every step: a window learned during the turn counts from the next request,
			// and so does a mode chosen in the toolbar while it runs (an override holds for the turn).
			settings: (model) => this.turnSettings(session, model.model, override),
			onCompacted: () => {
				this.features.afterCompaction(session);
				this.work.compacted(session);
			},
			system: env.system,
			onUpdate: (update) => {
				this.update(update);
			},
			...(observers ? { observers } : {}),
			...(env.attachments ? { attachments: env.attachments } : {}),
			...(env.hooks ? { hooks: env.hooks } : {}),
			...(prompt ? { prompt } : {}),
			toolAccess: (ownerPath) => this.features.toolAccess(session, ownerPath),
			...(this.ports.checkpoints ? { checkpoint: this.ports.checkpoints.recorder(session.id, turnId) } : {}),
			stopAfterStep: (id) => this.features.stopAfterStep(session, id),
			planFile: () => this.plansOf(session).current()?.file || undefined,
		};
		const agents = env.profiles && rootAgents(this.childEnvironment(session, env.profiles), this.ports, turnId);
		const turn = new Turn(this.ports, agents ? { ...scope, agents } : scope, turnId);
		this.running = { turn, session, controller, activity: { kind: 'choosing-model' } };
		this.changed();
		const outcome = await turn.run(text, controller.signal, retryOf);
		this.running = undefined;
		this.streaming = null;
		this.children.clear();
		this.approvals.clear();
		const undelivered = this.steering.take();
		// What a Stop caught running goes with the next request, once (never when nothing ran).
		const recovery = outcome.outcome === 'interrupted' && env.sessions.current === session ? recoveryAfter(session.records, 'stopped') : undefined;
		if (recovery) {
			session.reminders.enqueuePending(recovery);
		}
		this.changed();
		// Typed after the agent's last step: the person's next message; after a Stop, back to them. Never lost.
		const next = undelivered.length > 0 && outcome.outcome !== 'interrupted' && env.sessions.current === session;
		this._onDidEndTurn.fire(undelivered.length > 0 && !next ? { ...outcome, returned: { sessionId: session.id, texts: undelivered } } : outcome);
		if (next) {
			void this.startTurn(undelivered.join('\n\n'));
		}
		return outcome;
	}

	/** What the root turn's sub-agents run with in `session`. */
	private childEnvironment(session: ChatSession, profiles: AgentProfiles): Parameters<typeof rootAgents>[0] {
		const { env } = this;
		return {
			session,
			profiles,
			settings: () => {
				const settings = env.settings.current;
				return { maxSteps: settings.agentsMaxSteps ?? 30, maxConcurrent: settings.agentsMaxConcurrent ?? 3, maxTurnsWarningAt: settings.agentsMaxTurnsWarningAt ?? 0.8 };
			},
			observer: this.children,
			onChildSettled: (path, outcome) => {
				this.features.afterChildSettled(session, path, outcome);
			},
		};
	}

	stop(): void {
		this.held.stop();
		if (!this.running) {
			return;
		}
		this.running.activity = { kind: 'stopping' };
		this.running.controller.abort();
		this.approvals.deny();
		this.changed();
	}

	approve(callId: string, granted: boolean, note: string | undefined): void {
		this.approvals.answer(callId, granted, note);
	}

	/** The review card's "Open diff": the file of the change set waiting for the person, in the diff editor. */
	showReview(callId: string, path: string | undefined): void {
		if (this.approvals.request?.callId !== callId || !this.ports.review) {
			return;
		}
		this.ports.review.show(callId, path).catch((error: unknown) => {
			this.ports.runtime.log.warn(`Aside: could not show the review of ${callId}: ${errorMessage(error)}`);
		});
	}

	selectModel(model: string): void {
		this.modelState.select(model);
	}

	/** The toolbar's choice: the current chat's mode from now on (recorded with the chat). */
	selectMode(mode: PermissionMode): void {
		this.selectModeOf(this.env.sessions.current, mode);
	}

	private selectModeOf(session: ChatSession, mode: PermissionMode): void {
		const current = this.chatMode(session);
		if (mode === 'plan' && current !== 'plan') {
			this.modeBeforePlan = current;
		}
		session.setMode(mode);
		this.changed();
	}

	private update(update: TurnUpdate): void {
		const running = this.running;
		if (!running) {
			return;
		}
		switch (update.type) {
			case 'resolved':
				this.modelState.use(update.model);
				return;
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
				running.activity = activityOf(update);
				break;
			case 'compacting':
				this.streaming = null;
				running.activity = { kind: 'compacting', cause: update.cause };
				break;
			case 'status':
				if (update.status !== 'streaming') {
					this.streaming = null;
				}
				running.activity = activityOf(update);
				break;
		}
		this.changed();
	}

	private changed(): void {
		if (!this.store.isDisposed) {
			this._onDidChange.fire(this.state);
		}
	}
}
