// The cards of an MCP server's requests (docs/mcp.md, "When a server asks"), above the composer
// like the approval card: sampling (what the server would send the model; Allow / Deny), a form
// built from the server's schema (Submit / Decline / Cancel) and a URL to open, its origin first
// (Open / Decline; the host opens the browser on Open only). The host sends the chat's waiting
// requests whole (`mcp.requests`): a card that stays keeps what was typed and the focus. Everything
// in them comes from the server and only goes in as text.
import type { McpRequestAction, McpRequestView } from '../src/protocol/mcpRequests';
import type { ViewMessage } from '../src/protocol/messages';
import { el, icon, uniqueId } from './dom';
import { ElicitationFormView } from './mcpForm';

type AnswerMessage = Extract<ViewMessage, { type: 'mcp.answer' }>;
type Sampling = Extract<McpRequestView, { kind: 'sampling' }>;

const ICONS: Readonly<Record<McpRequestView['kind'], string>> = { sampling: 'sparkle', form: 'checklist', url: 'link-external' };

/** The card's title: the server, and what it asks. */
export function requestTitle(request: McpRequestView): string {
	switch (request.kind) {
		case 'sampling':
			return `${request.server} asks for a model's answer`;
		case 'form':
			return `${request.server} asks for input`;
		case 'url':
			return `${request.server} asks you to open a page`;
	}
}

interface Card {
	readonly element: HTMLElement;
}

export class McpRequestCards {
	private readonly announcer = el('span', { class: 'sr-only', 'aria-live': 'polite' });
	private readonly slot = el('div', { class: 'mcp-request-cards' });
	readonly element = el('div', { class: 'mcp-requests', hidden: true }, this.announcer, this.slot);
	private readonly cards = new Map<string, Card>();

	constructor(private readonly post: (message: AnswerMessage) => void) {}

	update(requests: readonly McpRequestView[]): void {
		const hadFocus = this.element.contains(document.activeElement);
		const ids = new Set(requests.map((request) => request.id));
		for (const [id, card] of this.cards) {
			if (!ids.has(id)) {
				card.element.remove();
				this.cards.delete(id);
			}
		}
		const added: McpRequestView[] = [];
		for (const request of requests) {
			if (!this.cards.has(request.id)) {
				this.cards.set(request.id, this.card(request));
				added.push(request);
			}
		}
		// In the order the host sends them; a card that stays is moved, not rebuilt.
		const ordered = requests.flatMap((request) => {
			const card = this.cards.get(request.id);
			return card ? [card.element] : [];
		});
		if (ordered.some((node, index) => this.slot.children[index] !== node) || this.slot.children.length !== ordered.length) {
			this.slot.replaceChildren(...ordered);
		}
		this.element.hidden = requests.length === 0;
		if (added.length > 0) {
			this.announcer.textContent = `${added.map(requestTitle).join('. ')}.`;
		}
		if (hadFocus && !this.element.contains(document.activeElement)) {
			// To the next card itself, not a button in it: a repeated Enter must not answer it.
			const next = this.slot.firstElementChild;
			if (next instanceof HTMLElement) {
				next.focus();
			} else {
				document.querySelector<HTMLElement>('.composer-input')?.focus();
			}
		}
	}

	private card(request: McpRequestView): Card {
		const titleId = uniqueId('mcp-request-title');
		const actions = el('div', { class: 'mcp-request-actions' });
		const element = el(
			'section',
			{ class: `mcp-request mcp-request-${request.kind}`, role: 'region', 'aria-labelledby': titleId, 'data-request-id': request.id, tabindex: '-1' },
			el('div', { class: 'mcp-request-head' }, icon(ICONS[request.kind]), el('h2', { class: 'mcp-request-title', id: titleId }, requestTitle(request))),
		);
		let answered = false;
		const buttons: HTMLButtonElement[] = [];
		const answer = (action: McpRequestAction, entries?: AnswerMessage['entries']): void => {
			if (answered) {
				return;
			}
			answered = true;
			this.post({ type: 'mcp.answer', id: request.id, action, ...(entries === undefined ? {} : { entries }) });
			// Answered: the host takes the card away. aria-disabled, so the focus stays where it is.
			for (const button of buttons) {
				button.setAttribute('aria-disabled', 'true');
			}
		};
		const button = (label: string, codicon: string, primary: boolean, run: () => void): void => {
			const node = el('button', { type: 'button', class: `${primary ? 'button-primary' : 'button-secondary'} mcp-request-action` }, icon(codicon), label);
			node.addEventListener('click', run);
			buttons.push(node);
			actions.append(node);
		};
		switch (request.kind) {
			case 'sampling':
				element.append(...samplingBody(request));
				button('Allow', 'check', true, () => {
					answer('accept');
				});
				button('Deny', 'circle-slash', false, () => {
					answer('decline');
				});
				break;
			case 'form': {
				const form = new ElicitationFormView(request.fields);
				element.append(el('p', { class: 'mcp-request-message' }, request.message), form.element);
				button('Submit', 'check', true, () => {
					const entries = answered ? undefined : form.check();
					if (entries) {
						answer('accept', entries);
						form.setReadOnly();
					}
				});
				button('Decline', 'circle-slash', false, () => {
					answer('decline');
				});
				button('Cancel', 'close', false, () => {
					answer('cancel');
				});
				// Enter in a text box submits, as in any form.
				form.element.addEventListener('keydown', (event) => {
					if (event.key === 'Enter' && event.target instanceof HTMLInputElement && event.target.type === 'text') {
						event.preventDefault();
						buttons[0]?.click();
					}
				});
				break;
			}
			case 'url':
				element.append(
					el('p', { class: 'mcp-request-message' }, request.message),
					el('div', { class: 'mcp-request-origin' }, el('span', { class: 'mcp-request-label' }, 'Opens '), el('strong', { class: 'mcp-url-origin' }, request.origin)),
					el('code', { class: 'mcp-url-full', title: 'The full address' }, request.url),
				);
				button(`Open ${request.origin}`, 'link-external', true, () => {
					answer('accept');
				});
				button('Decline', 'circle-slash', false, () => {
					answer('decline');
				});
				break;
		}
		element.append(actions);
		return { element };
	}
}

/** What the server would send the model, as it would go: the model, the token limit, the system prompt and each message. */
function samplingBody(request: Sampling): HTMLElement[] {
	const facts = `Up to ${request.maxTokens.toLocaleString('en-US')} tokens${request.model === undefined ? '' : ` from ${request.model}`}. Nothing of it enters this chat.`;
	return [
		el('p', { class: 'mcp-request-facts' }, facts),
		...(request.systemPrompt === undefined ? [] : [el('div', { class: 'mcp-sampling-part' }, el('div', { class: 'mcp-request-label' }, 'System prompt'), el('pre', { class: 'mcp-sampling-text mcp-sampling-system' }, request.systemPrompt))]),
		el('ol', { class: 'mcp-sampling-messages', 'aria-label': 'Messages' },
			...request.messages.map((message) => el('li', { class: `mcp-sampling-message mcp-sampling-${message.role}` },
				el('div', { class: 'mcp-request-label' }, message.role === 'user' ? 'User' : 'Assistant'),
				el('pre', { class: 'mcp-sampling-text' }, message.text)))),
	];
}
