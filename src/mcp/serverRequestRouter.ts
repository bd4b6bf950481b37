// The window's answers to its MCP servers' requests (docs/mcp.md, "When a server asks"): which
// chat shows the card (src/features/mcp/requestCards.ts shows them) — the chat whose tool call on that server runs, else the chat in view; none
// open, and the server gets an error — and what each answer sends back. Sampling follows
// `aside.mcp.sampling` (`ask` shows a card, `allow` runs without one, `off` refuses); an
// elicitation is always a card. Nothing of either enters a chat's model context.
import { Emitter } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import { checkEntries, type ElicitationField, fieldsOf, type FormEntries, type FormValue } from '../vocabulary/elicitationForm';
import type { ElicitationRequest, ElicitationResult, SamplingRequest, SamplingResult, ServerRequestContext, ServerRequestHandlers } from './serverRequests';

export const SAMPLING_MODES = ['ask', 'off', 'allow'] as const;
export type SamplingMode = (typeof SAMPLING_MODES)[number];

export interface RouterDeps {
	/** The chat in view (its id), while a chat view is there to show a card. */
	chatInView(): string | undefined;
	/** Whether the chat of this id is open in the window. */
	hasChat(id: string): boolean;
	samplingMode(): SamplingMode;
	/** The chat's provider and model answer `request` (no tools, at most its maxTokens). */
	sample(request: SamplingRequest, signal: AbortSignal): Promise<SamplingResult>;
	/** The model that would answer, in words, for the card. */
	modelWords?(): string | undefined;
	/** Opens a URL outside VS Code (the person clicked Open); false when it was not opened. */
	openExternal(url: string): Promise<boolean>;
	readonly log: Logger;
}

/** The spec's answers: accept (Allow, Submit, Open), decline (Deny, Decline) or cancel. */
export type RequestAction = 'accept' | 'decline' | 'cancel';

/** A request waiting for the person, as its card shows it. */
export type WaitingRequest =
	| { readonly kind: 'sampling'; readonly id: string; readonly server: string; readonly request: SamplingRequest; readonly model?: string }
	| { readonly kind: 'form'; readonly id: string; readonly server: string; readonly message: string; readonly fields: readonly ElicitationField[] }
	/** `origin`: the URL's scheme, host and port, what the person must see before opening it. */
	| { readonly kind: 'url'; readonly id: string; readonly server: string; readonly message: string; readonly url: string; readonly origin: string };

interface Waiting {
	readonly chat: string;
	readonly view: WaitingRequest;
	readonly settle: (action: RequestAction, entries?: FormEntries) => string | undefined;
}

/** The errors the server gets when nobody can answer. */
export const NO_CHAT = 'Aside has no chat open to ask the person in; open the Aside chat and try again.';

export class McpRequestRouter {
	private readonly _onDidChange = new Emitter<void>();
	readonly onDidChange = this._onDidChange.event;
	private readonly waiting: Waiting[] = [];
	private views = 0;
	private next = 0;

	constructor(private readonly deps: RouterDeps) {}

	/** A chat view is there to show cards, until disposed. */
	attachView(): IDisposable {
		this.views += 1;
		let attached = true;
		return {
			dispose: () => {
				if (attached) {
					attached = false;
					this.views -= 1;
				}
			},
		};
	}

	/** The cards `chat` shows, in the order they came. */
	requests(chat: string): readonly WaitingRequest[] {
		return this.waiting.filter((entry) => entry.chat === chat).map((entry) => entry.view);
	}

	/** Every card waiting, with its chat (the test hooks'). */
	all(): readonly { readonly chat: string; readonly view: WaitingRequest }[] {
		return this.waiting.map(({ chat, view }) => ({ chat, view }));
	}

	/** The person's answer to card `id` (the webview's and the test hooks' one path); what is wrong, or undefined. */
	answer(id: string, action: RequestAction, entries?: FormEntries): string | undefined {
		const entry = this.waiting.find((candidate) => candidate.view.id === id);
		if (!entry) {
			return 'That request is no longer waiting: the server or the tool call ended it.';
		}
		return entry.settle(action, entries);
	}

	/** What answers the requests of the server `server`. */
	handlers(server: string): ServerRequestHandlers {
		return {
			sampling: (request, context) => this.sampling(server, request, context),
			elicitation: (request, context) => this.elicitation(server, request, context),
		};
	}

	/** The chat to ask in: the one calling a tool on the server, else the one in view. */
	private chatFor(context: ServerRequestContext): string {
		if (this.views > 0) {
			const chat = context.callers.find((candidate) => this.deps.hasChat(candidate)) ?? this.deps.chatInView();
			if (chat !== undefined) {
				return chat;
			}
		}
		throw new Error(NO_CHAT);
	}

	private async sampling(server: string, request: SamplingRequest, context: ServerRequestContext): Promise<SamplingResult> {
		const mode = this.deps.samplingMode();
		if (mode === 'off') {
			throw new Error('Sampling is turned off in Aside (aside.mcp.sampling is "off").');
		}
		if (mode === 'ask') {
			const chat = this.chatFor(context);
			const model = this.deps.modelWords?.();
			const view: WaitingRequest = { kind: 'sampling', id: this.newId(), server, request, ...(model === undefined ? {} : { model }) };
			const action = await this.ask(chat, view, undefined, context.signal);
			if (action.action !== 'accept') {
				throw new Error(`The person ${action.action === 'decline' ? 'denied' : 'cancelled'} the sampling request.`);
			}
		}
		this.deps.log.info(`Aside: the MCP server "${server}" sampled the model (${mode === 'allow' ? 'allowed by aside.mcp.sampling' : 'the person allowed it'}).`);
		return this.deps.sample(request, context.signal);
	}

	private async elicitation(server: string, request: ElicitationRequest, context: ServerRequestContext): Promise<ElicitationResult> {
		const chat = this.chatFor(context);
		if (request.mode === 'url') {
			const url = URL.canParse(request.url) ? new URL(request.url) : undefined;
			if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
				throw new Error(`Aside opens only http and https addresses, not ${JSON.stringify(request.url.slice(0, 200))}.`);
			}
			const view: WaitingRequest = { kind: 'url', id: this.newId(), server, message: request.message, url: url.href, origin: url.origin };
			const answered = await this.ask(chat, view, undefined, context.signal);
			if (answered.action === 'accept' && !(await this.deps.openExternal(url.href))) {
				return { action: 'cancel' };
			}
			return { action: answered.action };
		}
		const form = fieldsOf(request.requestedSchema);
		if ('problem' in form) {
			throw new Error(`Aside cannot show this form: ${form.problem}.`);
		}
		const view: WaitingRequest = { kind: 'form', id: this.newId(), server, message: request.message, fields: form.fields };
		const answered = await this.ask(chat, view, form.fields, context.signal);
		return answered.action === 'accept' ? { action: 'accept', content: answered.content ?? {} } : { action: answered.action };
	}

	/** Shows the card in `chat` until the person answers or `signal` ends it (a cancel). */
	private ask(
		chat: string,
		view: WaitingRequest,
		fields: readonly ElicitationField[] | undefined,
		signal: AbortSignal,
	): Promise<{ readonly action: RequestAction; readonly content?: Readonly<Record<string, FormValue>> }> {
		return new Promise((resolve) => {
			const done = (): void => {
				signal.removeEventListener('abort', cancelled);
				const index = this.waiting.indexOf(entry);
				if (index >= 0) {
					this.waiting.splice(index, 1);
					this._onDidChange.fire();
				}
			};
			const cancelled = (): void => {
				done();
				resolve({ action: 'cancel' });
			};
			const entry: Waiting = {
				chat,
				view,
				settle: (action, entries) => {
					if (action === 'accept' && fields) {
						const checked = checkEntries(fields, entries ?? {});
						if ('problems' in checked) {
							return `The form is not complete: ${Object.entries(checked.problems).map(([name, problem]) => `${name}: ${problem}`).join(' ')}`;
						}
						done();
						resolve({ action, content: checked.content });
						return undefined;
					}
					done();
					resolve({ action });
					return undefined;
				},
			};
			if (signal.aborted) {
				resolve({ action: 'cancel' });
				return;
			}
			signal.addEventListener('abort', cancelled, { once: true });
			this.waiting.push(entry);
			this._onDidChange.fire();
		});
	}

	private newId(): string {
		this.next += 1;
		return `mcp-request-${this.next}`;
	}

	dispose(): void {
		for (const entry of [...this.waiting]) {
			entry.settle('cancel');
		}
		this._onDidChange.dispose();
	}
}
