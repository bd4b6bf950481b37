// The chat webview. It renders what the host sends and posts what the person does; all state
// lives in the extension host. Every message from the host is validated here, at the one
// listener, and an invalid one is reported to the host's log and dropped.
import './zodConfig';
import { type AgentView, type HostMessage, parseHostMessage, PROTOCOL_VERSION, type SessionAccessView, type StreamView, type ViewState } from '../src/protocol/messages';
import { ApprovalCard } from './approval';
import { PlanCard } from './plan';
import { RestorePreviewCard, setRestoreBusy } from './restore';
import { ContextUseLine } from './contextUse';
import { featureParts, partFor } from './features';
import { SessionList } from './sessionList';
import { Composer } from './composer';
import { el, icon } from './dom';
import { post } from './host';
import { ChatScope } from './chatScope';
import { giveBack } from './giveBack';
import { type NoticeLevel, Notices } from './notices';
import { noticeButton } from './noticeButton';
import { LiveView, renderStatus } from './live';
import { Toolbar } from './toolbar';
import { emptyState, TranscriptView } from './transcript';
import { ChatRows } from './chatRows';

class ChatApp {
	/** The last snapshot, kept current by the deltas, but for its rows: the transcript holds those (in O(1) per delta). */
	private state: ViewState | undefined;
	private expectedSeq: number | undefined;
	private resyncRequested = false;

	private readonly title = el('h1', { class: 'session-title' }, 'Aside');
	private readonly contextLine = new ContextUseLine(post);
	private readonly features = featureParts(post);
	private readonly sessionList = new SessionList(post);
	private readonly live = new LiveView((mutate) => {
		this.rows.keepPinned(mutate);
	});
	private readonly empty = el('div', { class: 'empty-slot' });
	private readonly status = el('div', { class: 'agent-status', role: 'status', hidden: true });
	/** The shown chat's draft and notices. */
	private readonly chat = new ChatScope();
	private readonly notices = new Notices(this.chat, () => {
		this.composer.focus();
	});
	/** Says, while it holds, that this chat is read-only here or a copy (another window writes the original). */
	private readonly access = el('div', { class: 'session-access notice notice-info', role: 'status', hidden: true });
	private readonly scroller = el('main', { class: 'scroller', tabindex: '-1' });
	private readonly transcript = new TranscriptView(this.scroller);
	private readonly rows = new ChatRows(
		this.transcript,
		this.live,
		() => this.state?.agent.status.state === 'running',
		() => {
			this.updateEmptyState();
		},
	);
	private readonly toolbar = new Toolbar(post);
	private readonly approval = new ApprovalCard(post, () => {
		this.composer.focus();
	});
	private readonly plan = new PlanCard(post, () => {
		this.composer.focus();
	});
	private readonly restore = new RestorePreviewCard(post, () => {
		this.composer.focus();
	});
	private readonly composer: Composer;

	constructor(private readonly root: HTMLElement) {
		this.composer = new Composer(this.chat.initialDraft, this.toolbar.element, {
			submit: (text, images) => {
				const mode = this.toolbar.takeOverride();
				post({ type: 'submit', text, ...(mode === undefined ? {} : { mode }), ...(images ? { images: [...images] } : {}) });
			},
			stop: () => {
				post({ type: 'stop' });
			},
			draftChanged: (draft) => {
				this.chat.draftChanged(draft);
			},
			refuse: (reason) => {
				this.showNotice('error', reason);
			},
			queryMentions: (requestId, query, trigger) => {
				post({ type: 'mentions.query', requestId, query, ...(trigger === '$' ? { trigger } : {}) });
			},
		});
		this.features.forEach((part) => part.composer?.(this.composer));
		this.scroller.append(this.empty, this.transcript.element, this.transcript.announcer, this.live.element);
		root.replaceChildren(
			// One row: the context line, the features' actions, the chat list and New Chat (also the commands Aside: Open Chat… and Aside: New Chat).
			el('header', { class: 'header' }, this.title, this.contextLine.element, el('div', { class: 'header-actions' }, ...this.features.flatMap((part) => part.headerActions ?? []), this.sessionList.toggle, this.sessionList.newChat)),
			this.sessionList.panel,
			this.access,
			...this.features.flatMap((part) => (part.top ? [part.top] : [])),
			this.scroller,
			this.chat.notices,
			this.approval.element,
			this.plan.element,
			this.restore.element,
			...this.features.flatMap((part) => (part.bottom ? [part.bottom] : [])),
			this.status,
			this.composer.element,
		);
	}

	receive(data: unknown): void {
		const parsed = parseHostMessage(data);
		if (!parsed.ok) {
			post({ type: 'log', level: 'warning', message: `dropped a host message: ${parsed.error}`.slice(0, 4000) });
			return;
		}
		this.apply(parsed.message);
	}

	private apply(message: HostMessage): void {
		if (message.type === 'snapshot') {
			this.expectedSeq = message.seq + 1;
			this.resyncRequested = false;
			this.render(message.state);
			return;
		}
		if (this.state === undefined || message.seq !== this.expectedSeq) {
			// A missed message (the view was hidden): ask for the whole state instead of guessing.
			this.requestResync(`expected #${this.expectedSeq ?? 'snapshot'}, got ${message.type} #${message.seq}`);
			return;
		}
		this.expectedSeq = message.seq + 1;
		const part = partFor(this.features, message.type);
		if (part) {
			part.receive(message);
			return;
		}
		switch (message.type) {
			case 'items.appended':
				if (message.sessionId !== this.state.session.id) {
					this.requestResync(`delta for session ${message.sessionId}`);
					return;
				}
				this.rows.append(message.items);
				return;
			case 'items.inserted': {
				if (message.sessionId !== this.state.session.id || !this.transcript.has(message.before)) {
					this.requestResync(`rows before ${message.before} of session ${message.sessionId}`);
					return;
				}
				this.rows.append(message.items, message.before);
				return;
			}
			case 'items.updated':
				if (message.sessionId !== this.state.session.id) {
					this.requestResync(`changed rows of session ${message.sessionId}`);
					return;
				}
				this.rows.update(message.items);
				return;
			case 'session.retitled':
				if (message.sessionId !== this.state.session.id) {
					this.requestResync(`title for session ${message.sessionId}`);
					return;
				}
				this.state.session.title = message.title;
				this.showTitle(message.title);
				return;
			case 'settings.changed':
				this.state.settings = message.settings;
				this.composer.applySettings(message.settings);
				return;
			case 'agent.changed':
				this.showAgent(message.agent);
				return;
			case 'text.streamed':
				if (!this.transcript.streamText(message.requestId, message.text)) {
					this.live.appendText(message.requestId, message.text);
				}
				return;
			case 'notice':
				this.notices.show(message.level, message.text, noticeButton(message.action, post), message.sessionId);
				this.plan.refused();
				return;
			case 'composer.restore':
				this.composerRestore(message);
				return;
			case 'restore.preview':
				this.restore.show(message.preview);
				return;
			case 'context.changed':
				this.state.context = message.context;
				this.contextLine.update(message.context);
				return;
			case 'setup.changed':
				this.state.setup = message.setup;
				this.updateEmptyState();
				return;
			case 'sessions.listed':
				this.sessionList.show(message.sessions);
				return;
			case 'composer.focus':
				this.composer.focus();
				return;
			case 'commands.changed':
				this.composer.setCommands(message.commands);
				return;
			case 'commands.completed':
				this.composer.completionsAnswered(message.requestId, message.values);
				return;
			case 'mentions.answer':
				this.composer.mentionsAnswered(message.requestId, message.candidates, message.skills, message.offers);
				return;
		}
	}

	private render(state: ViewState): void {
		this.chat.show(state.session.id, this.composer);
		this.state = state;
		this.showTitle(state.session.title);
		this.showAccess(state.session.access);
		this.contextLine.update(state.context);
		this.rows.reset(state.session.items);
		for (const part of this.features) {
			part.snapshot?.(state);
		}
		this.composer.applySettings(state.settings);
		this.composer.setCommands(state.commands);
		this.showAgent(state.agent, state.stream, state.childStreams);
		this.root.setAttribute('aria-busy', 'false');
		this.rows.scrollToEnd();
	}

	/** Everything that follows the agent view: controls, live rows, approval, status. */
	private showAgent(agent: AgentView, stream?: StreamView, childStreams?: readonly StreamView[]): void {
		if (this.state) {
			this.state.agent = agent;
		}
		this.composer.setRunning(agent.status.state === 'running');
		this.rows.gateFork();
		setRestoreBusy(agent.status.state === 'running');
		this.contextLine.setSituation({ agent: agent.status.state, readOnly: this.state?.session.access?.kind === 'read-only' });
		this.toolbar.update(agent);
		this.live.update(agent, stream);
		this.rows.keepPinned(() => {
			this.transcript.showChildren(agent.children, childStreams);
		});
		this.approval.update(agent.approval);
		this.plan.update(agent.plan);
		this.updateEmptyState();
	}

	private showTitle(title: string): void {
		this.title.textContent = title;
		this.title.title = title;
	}

	private showAccess(access: SessionAccessView | undefined): void {
		this.access.hidden = access === undefined;
		this.access.replaceChildren(...(access ? [icon(access.kind === 'read-only' ? 'lock' : 'repo-forked'), el('span', { class: 'notice-text' }, access.text)] : []));
	}

	private updateEmptyState(): void {
		const isEmpty = this.transcript.size === 0;
		for (const part of this.features) {
			part.chatHasRows?.(!isEmpty);
		}
		// Rebuilt on every change: a focused action keeps the focus in its new button.
		const focused = this.empty.contains(document.activeElement) ? document.activeElement?.getAttribute('data-action') : null;
		this.empty.replaceChildren(...(isEmpty && this.state ? [emptyState(this.state.agent.status, this.state.setup, post)] : []));
		if (focused) {
			Array.from(this.empty.querySelectorAll<HTMLElement>('[data-action]')).find((button) => button.getAttribute('data-action') === focused)?.focus();
		}
		if (this.state) {
			renderStatus(this.status, this.state.agent.status, isEmpty);
		}
	}

	private showNotice(level: NoticeLevel, text: string, action?: HTMLButtonElement): HTMLElement {
		return this.notices.show(level, text, action);
	}

	private composerRestore(message: Extract<HostMessage, { type: 'composer.restore' }>): void {
		giveBack(message, this.composer, this.chat, this.notices);
	}

	private requestResync(reason: string): void {
		if (this.resyncRequested) {
			return;
		}
		this.resyncRequested = true;
		post({ type: 'log', level: 'info', message: `resyncing: ${reason}` });
		post({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'resync' });
	}
}

const root = document.getElementById('app');
if (root) {
	const app = new ChatApp(root);
	window.addEventListener('message', (event: MessageEvent) => {
		app.receive(event.data);
	});
	post({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
}
