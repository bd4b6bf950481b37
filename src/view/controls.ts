// What the view connection (connection.ts) drives: the agent, the first-run setup, the view
// settings and the workbench around the view, each as the view sees it.
import type { Event } from '../base/event';
import type { ImagePart } from '../providers/messages';
import type { LineRange } from '../mentions/parse';
import type { AgentView, PermissionMode, SetupView, StreamView, ViewSettings } from '../protocol/messages';

export interface ViewSettingsSource {
	readonly current: ViewSettings;
	/** Fired when any of Aside's settings changed (the view's own, or the context ones below). */
	readonly onDidChange: Event<ViewSettings>;
	/** `aside.context.autoCompactAt` while `aside.context.autoCompact` is on, else undefined: the marker on the context meter. */
	readonly autoCompactAt?: () => number | undefined;
}

/**
 * Messages from the person that did not reach the model, as typed: a UserPromptSubmit hook
 * blocked one (`hook`), or the agent was stopped before the request carrying them went out
 * (`stopped`). `sessionId`: the chat they belong to, when known.
 */
export interface ReturnedMessage {
	readonly texts: readonly string[];
	readonly reason: string;
	readonly cause: 'hook' | 'stopped';
	readonly sessionId?: string;
}

/** What the view can see of the agent and ask of it (AgentPresenter, src/view/agentView.ts). */
export interface AgentControls {
	view(): AgentView;
	readonly onDidChange: Event<AgentView>;
	/** Text streaming into the response `view().streaming` announced, delta by delta. */
	readonly onDidStream: Event<{ readonly requestId: string; readonly text: string }>;
	/** The text that response has streamed so far, for a snapshot. */
	streamed(): StreamView | undefined;
	/** The text the running children's responses have streamed so far, for a snapshot. */
	childStreams(): readonly StreamView[];
	/** Messages that never reached the model (a hook blocked one, or a Stop came first): the view gives them back. */
	readonly onDidReturnMessage: Event<ReturnedMessage>;
	/**
	 * A message from the person: starts a turn (in `mode`, a one-message override, when given), or steers the running one.
	 * `command`: the slash command, as typed, whose message this is (the user row shows it).
	 */
	submit(text: string, mode?: PermissionMode, command?: string): void;
	/** A message with images the person attached: only between turns; returns why not (the composer keeps them), or undefined. */
	submitImages(text: string, images: readonly ImagePart[], mode?: PermissionMode): string | undefined;
	stop(): void;
	/** Retry on a failed turn's row; returns why it cannot, for the chat to say, or undefined. */
	retry(turnId: string): string | undefined;
	approve(callId: string, granted: boolean, note: string | undefined): void;
	/** Shows a file (or all files) of the change set under review in the diff editor. */
	showReview(callId: string, path: string | undefined): void;
	selectModel(model: string): void;
}

/** What the view may ask of the workbench around it. */
export interface WorkbenchActions {
	/** Puts text on the clipboard. */
	copy(text: string): PromiseLike<void>;
	/** Opens an http(s) or mailto link outside VS Code (the workbench asks the person first). */
	openLink(href: string): PromiseLike<boolean>;
	/**
	 * Opens a mentioned file (at its lines) or reveals a folder, given as written in the message; resolves
	 * with why it did not (outside the workspace, missing), or undefined.
	 */
	openMention(path: string, range: LineRange | undefined): PromiseLike<string | undefined>;
	/** Opens an approved plan's file (absolute, beside the transcript); absent where the host has none to open. */
	openPlan?(file: string): PromiseLike<unknown>;
	/** Opens VS Code's workspace trust editor (a notice's button); absent where the host has none. */
	manageTrust?(): PromiseLike<unknown>;
}

/** Links from rendered model output that may be opened; anything else is refused. */
export function openableLink(href: string): string | undefined {
	try {
		const url = new URL(href);
		return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : undefined;
	} catch {
		return undefined;
	}
}

/** What the view connection can see of the setup and ask of it (SetupPresenter, src/view/setupView.ts). */
export interface SetupControls {
	view(): SetupView;
	readonly onDidChange: Event<SetupView>;
	/** A chat view (re)loaded: look again, the person may have started a server meanwhile. */
	viewShown(): void;
	chooseProvider(): void;
	useDetected(id: string): void;
	storeKey(): void;
}

/** Forking the current chat from a root user row (ChatForks, src/agent/forks.ts). */
export interface ForkControls {
	/**
	 * `worktree`: true, in a new git worktree; false, here; absent, the person is asked when a worktree is
	 * offered. Resolves with why not, for the chat to say.
	 */
	fork(from: string, worktree: boolean | undefined): Promise<string | undefined>;
}
