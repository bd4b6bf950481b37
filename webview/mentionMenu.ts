// The composer's `@` list: while the word at the caret starts with `@`, the keywords and the
// workspace files and folders matching what follows (the host ranks the files: a
// `mentions.query` answered by `mentions.answer`, a newer query cancelling the older). Keyboard
// first: arrows move, Enter or Tab inserts the mention text, Escape closes it until the `@` word
// is left. A listbox the message box points into with aria-activedescendant, so a screen reader
// says the option under the keyboard. Names are text, never markup.
import { fuzzyScore, type MentionCandidate, mentionText } from '../src/protocol/mentions';
import { el } from './dom';

interface MenuOption {
	/** What is inserted in place of the `@` word. */
	readonly insert: string;
	readonly label: string;
	readonly detail: string;
}

const KEYWORDS: readonly MenuOption[] = [
	{ insert: '@problems', label: '@problems', detail: 'the workspace\'s errors and warnings' },
	{ insert: '@selection', label: '@selection', detail: 'the editor\'s selection' },
	{ insert: '@changes', label: '@changes', detail: 'the uncommitted changes (git)' },
];

// The `@` word ending at the caret: `@` at the start or after a space or an opening bracket or quote.
const AT_WORD = /(?:^|[\s([{<'"`])@([^\s"'`<>|]*)$/u;

export class MentionMenu {
	readonly element = el('ul', { class: 'mention-menu', id: 'composer-mentions', role: 'listbox', 'aria-label': 'Mention a file, folder, problems, selection or changes', hidden: true });
	private options: MenuOption[] = [];
	private active = 0;
	/** Where the `@` word starts and what follows the `@`, while the list is open. */
	private word: { readonly start: number; readonly query: string } | undefined;
	/** The `@` word Escape closed the list for (its start). */
	private dismissed: number | undefined;
	private asked = 0;
	private pending: { readonly requestId: string; readonly query: string } | undefined;
	private files: readonly MentionCandidate[] = [];
	/** The query `files` answer. */
	private filesFor = '';

	constructor(
		private readonly input: HTMLTextAreaElement,
		private readonly query: (requestId: string, query: string) => void,
	) {
		input.setAttribute('aria-autocomplete', 'list');
		input.setAttribute('aria-controls', this.element.id);
		input.setAttribute('aria-expanded', 'false');
		// Pressing an option keeps the focus in the message box.
		this.element.addEventListener('mousedown', (event) => {
			event.preventDefault();
		});
		this.element.addEventListener('click', (event) => {
			const item = (event.target as Element).closest('[role="option"]');
			const index = item ? Number(item.getAttribute('data-index')) : -1;
			if (index >= 0) {
				this.choose(index);
			}
		});
	}

	get isOpen(): boolean {
		return !this.element.hidden;
	}

	/** The text or the caret changed. */
	refresh(): void {
		const caret = this.input.selectionStart;
		const match = caret === this.input.selectionEnd ? AT_WORD.exec(this.input.value.slice(0, caret)) : null;
		if (!match) {
			this.dismissed = undefined;
			this.close();
			return;
		}
		const query = match[1] ?? '';
		const start = caret - query.length - 1;
		if (this.dismissed === start) {
			this.close();
			return;
		}
		this.dismissed = undefined;
		if (this.word?.query !== query || this.word.start !== start) {
			if (this.word?.start !== start) {
				this.files = []; // another @ word: the last one's files do not apply
			}
			this.word = { start, query };
			if (this.pending?.query !== query) {
				this.asked += 1;
				this.pending = { requestId: `mention-${this.asked}`, query };
				this.query(this.pending.requestId, query);
			}
			this.active = 0;
		}
		this.render();
	}

	/** The host's answer; an answer to an older query is dropped. */
	answered(requestId: string, candidates: readonly MentionCandidate[]): void {
		if (this.pending?.requestId !== requestId) {
			return;
		}
		this.files = candidates;
		this.filesFor = this.pending.query;
		if (this.word) {
			this.render();
		}
	}

	/** Arrows, Enter, Tab and Escape while the list is open; true when the key was its. */
	handleKey(event: KeyboardEvent): boolean {
		if (!this.isOpen || event.isComposing || event.ctrlKey || event.metaKey || event.altKey) {
			return false;
		}
		switch (event.key) {
			case 'ArrowDown':
			case 'ArrowUp': {
				const step = event.key === 'ArrowDown' ? 1 : -1;
				this.active = (this.active + step + this.options.length) % this.options.length;
				this.render();
				return true;
			}
			case 'Enter':
			case 'Tab':
				if (event.shiftKey) {
					return false;
				}
				this.choose(this.active);
				return true;
			case 'Escape':
				this.dismissed = this.word?.start;
				this.close();
				return true;
			default:
				return false;
		}
	}

	private choose(index: number): void {
		const option = this.options[index];
		const word = this.word;
		if (!option || !word) {
			return;
		}
		const caret = this.input.selectionStart;
		const value = this.input.value;
		const rest = value.slice(caret);
		const text = `${option.insert}${rest.startsWith(' ') ? '' : ' '}`;
		this.input.value = `${value.slice(0, word.start)}${text}${rest}`;
		const end = word.start + text.length;
		this.input.setSelectionRange(end, end);
		this.close();
		this.input.dispatchEvent(new Event('input'));
	}

	private render(): void {
		const query = (this.word?.query ?? '').toLowerCase();
		const keywords = KEYWORDS.filter((option) => fuzzyScore(query, option.label.slice(1)) !== undefined);
		// Until the host answers, the files of the previous answer that still match.
		const current = this.filesFor === (this.word?.query ?? '');
		const files = this.files.filter((candidate) => current || fuzzyScore(query, candidate.path.toLowerCase()) !== undefined).map((candidate): MenuOption => ({
			insert: mentionText(candidate.kind === 'folder' ? `${candidate.path}/` : candidate.path),
			label: candidate.kind === 'folder' ? `${candidate.path}/` : candidate.path,
			detail: candidate.kind,
		}));
		this.options = [...keywords, ...files];
		if (this.options.length === 0) {
			this.hide();
			return;
		}
		this.active = Math.min(this.active, this.options.length - 1);
		this.element.replaceChildren(
			...this.options.map((option, index) =>
				el(
					'li',
					{ class: 'mention-option', role: 'option', id: `composer-mention-${index}`, 'data-index': String(index), 'aria-selected': index === this.active ? 'true' : 'false' },
					el('span', { class: 'mention-label' }, option.label),
					el('span', { class: 'mention-detail' }, ` ${option.detail}`),
				),
			),
		);
		this.element.hidden = false;
		this.input.setAttribute('aria-expanded', 'true');
		this.input.setAttribute('aria-activedescendant', `composer-mention-${this.active}`);
		this.element.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
	}

	private hide(): void {
		this.element.hidden = true;
		this.element.replaceChildren();
		this.input.setAttribute('aria-expanded', 'false');
		this.input.removeAttribute('aria-activedescendant');
	}

	private close(): void {
		this.word = undefined;
		this.hide();
	}
}
