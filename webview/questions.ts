// The questions feature's part of the webview (`questions.*`, src/features/questions/ on the host):
// the cards of the model's questions above the composer, like the approval card (questionCard.ts).
// The host sends the current chat's waiting cards whole: a card that stays keeps what was picked
// and typed. A new card takes the focus unless the person is typing elsewhere; a card that goes with
// the focus in it hands it to the next card, or to the message box.
import type { HostMessage, ViewMessage } from '../src/protocol/messages';
import type { QuestionCardView } from '../src/protocol/questions';
import type { ViewFeaturePart } from './featurePart';
import { el } from './dom';
import { cardTitle, QuestionCard } from './questionCard';

type CardMessage = Extract<ViewMessage, { type: 'questions.answer' | 'questions.skip' }>;

/** Whether the person is typing in a text field outside the cards (a new card must not take their keystrokes). */
function typingElsewhere(cards: HTMLElement): boolean {
	const active = document.activeElement;
	if (!(active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) || cards.contains(active)) {
		return false;
	}
	return active.value !== '';
}

function composer(): void {
	document.querySelector<HTMLElement>('.composer-input')?.focus();
}

export class QuestionCards implements ViewFeaturePart {
	readonly id = 'questions';
	private readonly announcer = el('span', { class: 'sr-only', 'aria-live': 'polite' });
	private readonly slot = el('div', { class: 'question-cards' });
	readonly bottom = el('div', { class: 'questions', hidden: true }, this.announcer, this.slot);
	private readonly cards = new Map<string, QuestionCard>();

	constructor(private readonly post: (message: CardMessage) => void) {}

	receive(message: HostMessage): void {
		if (message.type === 'questions.changed') {
			this.update(message.cards);
		}
	}

	private update(cards: readonly QuestionCardView[]): void {
		const hadFocus = this.bottom.contains(document.activeElement);
		const ids = new Set(cards.map((card) => card.id));
		for (const [id, card] of this.cards) {
			if (!ids.has(id)) {
				card.element.remove();
				this.cards.delete(id);
			}
		}
		const added: QuestionCard[] = [];
		for (const view of cards) {
			if (!this.cards.has(view.id)) {
				const card = new QuestionCard(view, this.post, composer);
				this.cards.set(view.id, card);
				added.push(card);
			}
		}
		const ordered = cards.flatMap((view) => {
			const card = this.cards.get(view.id);
			return card ? [card.element] : [];
		});
		if (ordered.some((node, index) => this.slot.children[index] !== node) || this.slot.children.length !== ordered.length) {
			this.slot.replaceChildren(...ordered);
		}
		this.bottom.hidden = cards.length === 0;
		if (added.length > 0) {
			this.announcer.textContent = `${added.map((card) => cardTitle(card.card)).join('. ')}.`;
		}
		const [first] = added;
		if (first && !hadFocus && !typingElsewhere(this.bottom)) {
			first.focusFirst();
		} else if (hadFocus && !this.bottom.contains(document.activeElement)) {
			// To the next card itself, not an option in it: a repeated Enter must not answer it.
			const next = this.slot.firstElementChild;
			if (next instanceof HTMLElement) {
				next.focus();
			} else {
				composer();
			}
		}
	}
}
