// The host side of one chat webview: validates what it posts, answers `ready` with a complete
// snapshot, then streams small deltas numbered by `seq`. Pure: src/vscode/chatView.ts only
// connects it to a real webview.
import { whileCurrent } from '../base/current';
import { errorMessage } from '../base/errors';
import { Disposable, DisposableStore } from '../base/lifecycle';
import { type FeatureViewPart, partFor, type Unsequenced } from './featureView';
import { SlashCommands } from './slashCommands';
import { commandQueryHandlers } from './commandQueries';
import { submitFromComposer } from './submission';
import type { HeldNotices, NoticeAction } from './heldNotices';
import type { Logger } from '../base/log';
import { type AgentView, type ContextUseView, type HostMessage, parseViewMessage, PROTOCOL_VERSION, type ViewMessage, type ViewState } from '../protocol/messages';
import type { AgentControls, SetupControls, ViewSettingsSource, WorkbenchActions } from './controls';
import { type ChatListSource, chatListHandlers } from './chatListHandlers';
import { type ComposerListSource, composerQueryHandlers } from './composerQueries';
import { setupHandlers, workbenchHandlers } from './workbenchHandlers';
import { type HandlerPort, handlerFor, type ViewHandlers } from './viewHandlers';
import type { SessionProjection, SessionProjections } from './sessionView';
import { SentMessages } from './sentMessages';
import { ApprovalAnswers } from './approvalAnswers';
import { agentHandlers } from './agentHandlers';
import type { UserRulesSetting } from '../agent/permissions/alwaysAllow';

export interface ViewConnectionOptions extends ChatListSource, ComposerListSource {
	/** What the chat shows of the current session. */
	readonly projections: SessionProjections;
	readonly workbench: WorkbenchActions;
	readonly settings: ViewSettingsSource;
	readonly agent: AgentControls;
	/** The empty state's first-run actions, when the host offers them. */
	readonly setup?: SetupControls;
	/** Notices the host raised on its own, shown once a view is ready (see heldNotices.ts). */
	readonly notices?: HeldNotices;
	/** The chat features' view parts (src/features/features.ts): their messages are routed to them by prefix. */
	readonly features?: readonly FeatureViewPart[];
	/** The person's own aside.permissions.rules, where the approval card's "Always allow" saves its rules. */
	readonly userRules?: UserRulesSetting;
	/** Posts to the webview; resolves false when the webview could not take it (hidden, gone). */
	readonly post: (message: HostMessage) => PromiseLike<boolean>;
	readonly log: Logger;
}

export class ViewConnection extends Disposable {
	private ready = false;
	private focusAfterHandshake = false;
	private seq = 0;
	/** The context use sent last (in a snapshot or a delta), as JSON: one that says nothing new is not sent again. */
	private sentContext: string | undefined;
	/** Messages this composer sent lately: one that never reached the model is given back here. */
	private readonly sent = new SentMessages();
	private readonly parts: readonly FeatureViewPart[];
	/** What a feature part or a core handler may do to the webview. */
	private readonly port: HandlerPort;
	/** The core's handlers of the messages that are no feature's. */
	private readonly handlers: ViewHandlers;
	/** The composer's slash commands: the features'. */
	private readonly commands: SlashCommands;

	constructor(private readonly options: ViewConnectionOptions) {
		super();
		this.port = {
			send: (message) => {
				this.send(message);
			},
			notice: (level, text) => {
				this.notice(level, text);
			},
			log: options.log,
		};
		this.parts = options.features ?? [];
		const sources = this.parts.flatMap((part) => part.commandSource ?? []);
		this.commands = this._register(new SlashCommands(this.parts.flatMap((part) => part.commands ?? []), sources, options.log));
		this.handlers = {
			...agentHandlers(options.agent, new ApprovalAnswers(options.agent, options.userRules, this.notice.bind(this)), this.port),
			...chatListHandlers(options, this.port),
			...composerQueryHandlers(options, this.port),
			...commandQueryHandlers(this.commands, this.port),
			...workbenchHandlers(options.workbench, this.port),
			...setupHandlers(options.setup, this.port),
		};
		this._register(whileCurrent(options.projections, (projection) => this.watch(projection)));
		// After the new projection is watched: its rows and their deltas are one sequence.
		this._register(options.projections.onDidChangeCurrent(() => {
			this.sendSnapshot();
		}));
		this._register(options.settings.onDidChange((settings) => {
			this.send({ type: 'settings.changed', settings });
			this.sendContext();
		}));
		this._register(options.agent.onDidChange((agent) => {
			this.send({ type: 'agent.changed', agent });
			this.sendContext(agent);
		}));
		this._register(this.commands.onDidChange((commands) => {
			this.send({ type: 'commands.changed', commands });
		}));
		this._register(options.agent.onDidStream(({ requestId, text }) => {
			this.send({ type: 'text.streamed', requestId, text });
		}));
		this._register(options.agent.onDidReturnMessage((returned) => {
			const back = this.sent.giveBack(returned);
			if (back) {
				this.send(back);
			}
		}));
		const { notices } = options;
		if (notices) {
			this._register(notices.onDidAdd(() => {
				this.showHeldNotices();
			}));
		}
		for (const part of this.parts) {
			this._register(part.connect(this.port));
		}
		if (options.setup) {
			this._register(options.setup.onDidChange((setup) => {
				this.send({ type: 'setup.changed', setup });
			}));
		}
	}

	/**
	 * The view's page went away (hidden without retained context): post nothing until it loads
	 * again and says `ready`, and keep a focus request for then.
	 */
	detach(): void {
		this.ready = false;
	}

	/** Moves the keyboard focus to the composer, as soon as the view can take it. */
	focusComposer(): void {
		if (this.ready) {
			this.send({ type: 'composer.focus' });
		} else {
			this.focusAfterHandshake = true;
		}
	}

	/** The single entry point for everything the webview posts. */
	receive(data: unknown): void {
		const parsed = parseViewMessage(data);
		if (!parsed.ok) {
			this.options.log.warn(`Dropped a message from the chat view: ${parsed.error}`);
			return;
		}
		this.handle(parsed.message);
	}

	private handle(message: ViewMessage): void {
		const part = partFor(this.parts, message.type);
		if (part) {
			part.receive?.(message, this.port);
			return;
		}
		switch (message.type) {
			case 'ready':
				if (message.protocol !== PROTOCOL_VERSION) {
					this.options.log.warn(`The chat view speaks protocol ${message.protocol}, the host ${PROTOCOL_VERSION}; reload the window if the view misbehaves.`);
				}
				this.ready = true;
				this.sendSnapshot();
				if (this.focusAfterHandshake) {
					this.focusAfterHandshake = false;
					this.send({ type: 'composer.focus' });
				}
				this.options.setup?.viewShown();
				this.showHeldNotices();
				for (const part of this.parts) {
					part.shown?.(this.port);
				}
				return;
			case 'submit':
				submitFromComposer({ ...this.options, commands: this.commands, sent: this.sent, port: this.port }, message.text, message.mode, message.images);
				return;
			default: {
				const handler = handlerFor(this.handlers, message);
				if (handler) {
					handler(message);
					return;
				}
				// A feature's message (its type's prefix is its id) with no part of that feature in this window.
				this.options.log.warn(`The chat view sent ${message.type}, which nothing in this window takes.`);
				this.notice('warning', 'That is not available here.');
			}
		}
	}

	/** Held notices go to a ready view only: a hidden one would lose them, so they wait for its `ready`. */
	private showHeldNotices(): void {
		if (!this.ready || !this.options.notices) {
			return;
		}
		for (const { level, text, action, sessionId } of this.options.notices.take()) {
			this.notice(level, text, action, sessionId);
		}
	}

	private notice(level: 'info' | 'warning' | 'error', text: string, action?: NoticeAction, sessionId?: string): void {
		this.send({ type: 'notice', level, text: text.slice(0, 2000), ...(action ? { action } : {}), ...(sessionId ? { sessionId } : {}) });
	}

	/** `agent`: the agent's view when the caller has it already. */
	private contextView(agent = this.options.agent.view()): ContextUseView {
		const autoCompactAt = this.options.settings.autoCompactAt?.();
		const context = this.options.projections.current.contextView(agent.contextWindow, {
			// Compact needs a model to write the summary, and no turn running.
			ready: agent.status.state === 'ready',
			...(autoCompactAt === undefined ? {} : { autoCompactAt }),
		});
		this.sentContext = JSON.stringify(context);
		return context;
	}

	/** The records, the agent or the settings changed: the context use is sent when what it says did. */
	private sendContext(agent?: AgentView): void {
		const sent = this.sentContext;
		const context = this.contextView(agent);
		if (this.sentContext !== sent) {
			this.send({ type: 'context.changed', context });
		}
	}

	/** What the view is sent of one projection: its rows as they are placed, its title, its context use. */
	private watch(projection: SessionProjection): DisposableStore {
		const { session } = projection;
		const wiring = new DisposableStore();
		wiring.add(projection.onDidPlace(({ rows, before }) => {
			const items = [...rows];
			this.send(before === undefined ? { type: 'items.appended', sessionId: session.id, items } : { type: 'items.inserted', sessionId: session.id, before, items });
		}));
		wiring.add(projection.onDidUpdate((rows) => {
			this.send({ type: 'items.updated', sessionId: session.id, items: [...rows] });
		}));
		wiring.add(session.onDidChangeTitle((title) => {
			this.send({ type: 'session.retitled', sessionId: session.id, title });
		}));
		wiring.add(projection.onDidChangeContext(() => {
			this.sendContext();
		}));
		return wiring;
	}

	private sendSnapshot(): void {
		const agent = this.options.agent.view();
		const stream = agent.streaming ? this.options.agent.streamed() : undefined;
		const childStreams = agent.children.length > 0 ? this.options.agent.childStreams() : [];
		this.send({
			type: 'snapshot',
			protocol: PROTOCOL_VERSION,
			state: {
				// The features' own fields first: the core's are never theirs to replace.
				...this.parts.reduce<Partial<ViewState>>((fields, part) => ({ ...fields, ...part.snapshot?.() }), {}),
				session: this.options.projections.current.toView(),
				settings: this.options.settings.current,
				agent,
				context: this.contextView(agent),
				...(this.options.setup ? { setup: this.options.setup.view() } : {}),
				...(stream ? { stream } : {}),
				...(childStreams.length > 0 ? { childStreams: [...childStreams] } : {}),
				commands: this.commands.views(),
			},
		});
	}

	private send(message: Unsequenced): void {
		// Before the handshake the view cannot listen yet; the snapshot it asks for covers all.
		if (!this.ready || this.store.isDisposed) {
			return;
		}
		const sequenced: HostMessage = { ...message, seq: this.seq++ };
		this.options.post(sequenced).then(
			(delivered) => {
				if (!delivered) {
					this.options.log.debug(`Chat view did not take ${sequenced.type} #${sequenced.seq}; it will resync when shown.`);
				}
			},
			(error: unknown) => {
				this.options.log.warn(`Posting ${sequenced.type} to the chat view failed: ${errorMessage(error)}`);
			},
		);
	}
}
