// The agent of one window: runs the current session's turns one at a time and says what it is
// doing (AgentState; src/view/ turns that into what the chat shows). It composes the parts:
// the permission gate (approvals.ts), steering (steering.ts), the model state (modelState.ts),
// each chat's plans (plans.ts) and chat features (chatFeature.ts), and turn loops (turn.ts) built
// from its ports (ports.ts). Pure: VS Code comes in through them.
import { Emitter, type Event } from '../base/event';
import { Disposable, toDisposable } from '../base/lifecycle';
import type { PermissionMode } from '../vocabulary/permissionModes';
import { recoveryAfter } from '../reminders/builtin/sessionRecovery';
import type { AgentEnvironment } from './agentEnvironment';
import type { AgentState, TurnActivity } from './agentState';
import { Approvals } from './approvals';
import type { ApprovedPlans } from './approvedPlan';
import { HeldWork } from './betweenTurns';
import { oneReviewAtATime, showPendingReview } from './changeReview';
import { ChatFeatures } from './chatFeature';
import { ChatModes } from './chatModes';
import { ChatWork } from './chatWork';
import { featureChatOf } from './featureChats';
import { ModelState } from './modelState';
import type { AgentPorts } from './ports';
import type { ImagePart } from '../providers/messages';
import { retryOf } from './retry';
import { RootStream } from './rootStream';
import { RootTurns } from './rootTurns';
import { RunningChildren } from './runningChildren';
import type { ChatSession } from './session';
import { type ReturnedMessages, Steering } from './steering';
import { Turn, type TurnMessage } from './turn';
import type { TurnOutcome } from './turnScope';
import type { StartedBy } from '../transcript/startedBy';

export type { AgentSettings } from './agentSettings';
export type { AgentEnvironment } from './agentEnvironment';

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
	/** The root turn's activity and the response streaming now. */
	private readonly stream: RootStream;
	/** The sub-agents running now; their text streams through onDidStream like the root's. */
	private readonly children: RunningChildren;
	private readonly approvals: Approvals;
	private readonly steering: Steering;
	private readonly modelState: ModelState;
	/** Each chat's plans and prompt hooks. */
	private readonly work: ChatWork;
	/** Each chat's state of each chat feature. */
	readonly features: ChatFeatures;
	/** Each chat's permission mode. */
	private readonly modes: ChatModes;
	/** What a chat's root turns are made of. */
	private readonly roots: RootTurns;
	/** The current chat's approved plan (edits.verify reads it). */
	readonly approvedPlans: ApprovedPlans = { current: () => this.work.plansOf(this.env.sessions.current).current() };

	private readonly _onDidChange = this._register(new Emitter<AgentState>());
	readonly onDidChange: Event<AgentState> = this._onDidChange.event;
	private readonly _onDidStream = this._register(new Emitter<{ readonly requestId: string; readonly text: string }>());
	readonly onDidStream: Event<{ readonly requestId: string; readonly text: string }> = this._onDidStream.event;
	private readonly _onDidEndTurn = this._register(new Emitter<TurnOutcome & { readonly returned?: ReturnedMessages }>());
	/** A turn ended; `returned`: what the person typed meanwhile that never reached the model and is not sent next. */
	readonly onDidEndTurn: Event<TurnOutcome & { readonly returned?: ReturnedMessages }> = this._onDidEndTurn.event;
	private readonly _onDidReturnMessages = this._register(new Emitter<ReturnedMessages>());
	/** Messages sent while work between turns ran that were not sent after it (it was stopped, or another chat opened). */
	readonly onDidReturnMessages: Event<ReturnedMessages> = this._onDidReturnMessages.event;

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
		this.features = new ChatFeatures(env.features ?? [], featureChatOf({
			env,
			ports: this.ports,
			held: this.held,
			plansOf: (session) => this.work.plansOf(session),
			modeOf: (session) => ({ current: () => this.modes.of(session), select: (mode) => { this.modes.select(session, mode); } }),
			isChildRunning: (path) => this.children.has(path),
			busy: (doing) => this.busy(doing),
			rootRequest: (session, signal) => this.roots.request(session, signal),
			restored: (session) => { this.roots.restored(session); },
			compacted: (session) => { this.roots.compacted(session); },
			startTurn: (text) => { void this.startTurn(text); },
			startUnasked: (session, started) => this.startUnasked(session, started),
			returnMessages: (sessionId, texts) => { this._onDidReturnMessages.fire({ sessionId, texts }); },
			changed,
		}));
		this.steering = new Steering(changed, log);
		this.modes = new ChatModes(env.settings, changed);
		this._register(this.modes.watchSetting());
		this.modelState = this._register(new ModelState(env.models, changed, log));
		this.stream = new RootStream({ resolved: (model) => { this.modelState.use(model); }, stream: (delta) => { this._onDidStream.fire(delta); }, changed });
		const { approvals, features, work, children, modes } = this;
		this.roots = new RootTurns({ env, ports: this.ports, approvals, features, work, children, modes, models: this.modelState });
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
			mode: this.modes.of(this.env.sessions.current),
			approval: this.approvals.request,
			...this.stream.live,
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
		const pending = this.work.plansOf(this.env.sessions.current).pending();
		return pending ? { ...pending, mode: this.modes.forImplementation } : null;
	}

	/**
	 * Sends the person's message. `mode`: the one-message override, the mode its turn runs in instead of the chat's; a
	 * message that joins a running turn as steering runs in that turn's. `command`: the slash command it came from, as typed.
	 */
	submit(text: string, mode?: PermissionMode, command?: string): void {
		if (this.held.hold(text)) {
			return;
		}
		const running = this.running;
		if (running) {
			this.steering.steer(running.session.reminders, running.turn.owner, text);
			return;
		}
		void this.startTurn(text, { ...(mode ? { mode } : {}), ...(command === undefined ? {} : { command }) });
	}

	/** A message with the images the person attached: only between turns (steering is text); returns why not, or undefined. */
	submitImages(text: string, images: readonly ImagePart[], mode?: PermissionMode): string | undefined {
		return this.busy('sending images') ?? void this.startTurn(text, { ...(mode ? { mode } : {}), images });
	}

	/** Why nothing can be done to the chat now ("… before `doing`."): a turn, or work between turns, runs. */
	private busy(doing: string): string | undefined {
		return this.running || this.held.active ? `The agent is working: stop it or wait for it to finish before ${doing}.` : undefined;
	}

	/** Retry on the chat's last turn, which failed: its message goes out again; returns why it cannot, or undefined. */
	retry(turnId: string): string | undefined {
		const target = this.busy('retrying') ?? retryOf(this.env.sessions.current.records, turnId);
		if (typeof target === 'string') {
			return target;
		}
		const { text, ...message } = target;
		void this.startTurn(text, { ...message, retryOf: turnId });
		return undefined;
	}

	/** A turn no person asked for, in chat `session`: only when it is current and idle, no plan waiting for the person. */
	private startUnasked(session: ChatSession, startedBy: StartedBy): boolean {
		if (this.running || this.held.active || this.env.sessions.current !== session || session.access !== undefined || this.work.plansOf(session).pending()) {
			return false;
		}
		void this.startTurn('', { startedBy });
		return true;
	}

	/**
	 * Starts a turn with the person's message `text` (`options.mode`: the mode it runs in rather than the chat's; the rest:
	 * TurnMessage) and resolves when it ended (for the API and tests).
	 */
	async startTurn(text: string, options: Omit<TurnMessage, 'text'> & { readonly mode?: PermissionMode } = {}): Promise<TurnOutcome> {
		const { mode: override, ...message } = options;
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
		// Its plan and its features' reminders are installed before its first WAIT.
		this.work.plansOf(session);
		this.features.open(session);
		const turnId = this.ports.runtime.ids.next();
		const turn = new Turn(this.ports, this.roots.scope(session, turnId, override, (update) => {
			if (this.running) {
				this.stream.update(this.running, update);
			}
		}), turnId);
		this.running = { turn, session, controller, activity: { kind: 'choosing-model' } };
		this.changed();
		const outcome = await turn.run({ text, ...message }, controller.signal);
		this.running = undefined;
		this.stream.clear();
		this.children.clear();
		this.approvals.clear();
		const undelivered = this.steering.take();
		// What a Stop caught running goes with the next request, once (never when nothing ran).
		const recovery = outcome.outcome === 'interrupted' && env.sessions.current === session ? recoveryAfter(session.records, 'stopped', this.features.recoveryNotes(session)) : undefined;
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
		this.features.afterTurn(session, outcome.outcome);
		return outcome;
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
		showPendingReview(this.approvals.request, this.ports, callId, path);
	}

	selectModel(model: string): void {
		this.modelState.select(model);
	}

	/** The toolbar's choice: the current chat's mode from now on (recorded with the chat). */
	selectMode(mode: PermissionMode): void {
		this.modes.select(this.env.sessions.current, mode);
	}

	private changed(): void {
		if (!this.store.isDisposed) {
			this._onDidChange.fire(this.state);
		}
	}
}
