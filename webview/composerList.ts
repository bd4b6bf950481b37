// The list above the message box that the composer's menus share (the `@` list, mentionMenu.ts;
// an argument's values, argumentMenu.ts): a listbox the message box points into with
// aria-activedescendant, so a screen reader says the option under the keyboard. Keyboard first:
// arrows move (wrapping), Enter or Tab takes the option, Escape closes; pressing an option keeps
// the focus in the message box. Options are text, never markup. What the list offers and what
// taking one does are its menu's.
import { el } from './dom';

export interface ListOption {
	/** The option's text, or its parts (a label and a detail). */
	readonly content: readonly (string | Node)[];
	/** Says something instead of offering it: shown, never taken. */
	readonly inert?: boolean;
}

export interface ComposerListOptions {
	/** The listbox's id. */
	readonly id: string;
	/** Each option's id is this, `-`, its index. */
	readonly optionId: string;
	/** Its class (the menu's, beside the shared `composer-list`), and its options' class. */
	readonly className: string;
	readonly optionClass: string;
	readonly label: string;
	/** Whether the message box says the list is open (`aria-expanded`), as a combobox's popup. */
	readonly expands: boolean;
	/** Takes the option at `index`. */
	readonly choose: (index: number) => void;
	/** Escape closed the list. */
	readonly dismiss: () => void;
}

export class ComposerList {
	readonly element: HTMLUListElement;
	private options: readonly ListOption[] = [];
	private active = 0;

	constructor(
		private readonly input: HTMLTextAreaElement,
		private readonly config: ComposerListOptions,
	) {
		this.element = el('ul', { class: `composer-list ${config.className}`, id: config.id, role: 'listbox', 'aria-label': config.label, hidden: true });
		if (config.expands) {
			input.setAttribute('aria-autocomplete', 'list');
			input.setAttribute('aria-controls', config.id);
			input.setAttribute('aria-expanded', 'false');
		}
		this.element.addEventListener('mousedown', (event) => {
			event.preventDefault();
		});
		this.element.addEventListener('click', (event) => {
			const item = (event.target as Element).closest('[role="option"]');
			const index = item ? Number(item.getAttribute('data-index')) : -1;
			if (index >= 0 && this.options[index]?.inert !== true) {
				config.choose(index);
			}
		});
	}

	get isOpen(): boolean {
		return !this.element.hidden;
	}

	/** The option under the keyboard. */
	get activeIndex(): number {
		return this.active;
	}

	/** The keyboard goes back to the first option (the list offers something else now). */
	resetActive(): void {
		this.active = 0;
	}

	/** Shows these options (none: hides the list), the one under the keyboard kept where it can be. */
	show(options: readonly ListOption[]): void {
		this.options = options;
		if (options.length === 0) {
			this.hide();
			return;
		}
		this.active = Math.min(this.active, options.length - 1);
		this.render();
	}

	hide(): void {
		this.element.hidden = true;
		this.element.replaceChildren();
		this.options = [];
		if (this.config.expands) {
			this.input.setAttribute('aria-expanded', 'false');
		}
		// Only its own: another list may point the message box at its option.
		if (this.input.getAttribute('aria-activedescendant')?.startsWith(`${this.config.optionId}-`) === true) {
			this.input.removeAttribute('aria-activedescendant');
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
				if (this.options[this.active]?.inert !== true) {
					this.config.choose(this.active);
				}
				return true;
			case 'Escape':
				this.config.dismiss();
				return true;
			default:
				return false;
		}
	}

	private render(): void {
		const { optionId, optionClass } = this.config;
		this.element.replaceChildren(
			...this.options.map((option, index) =>
				el(
					'li',
					{
						class: `composer-list-option ${optionClass}`,
						role: 'option',
						id: `${optionId}-${index}`,
						'data-index': String(index),
						'aria-selected': index === this.active ? 'true' : 'false',
						...(option.inert === true ? { 'aria-disabled': 'true' } : {}),
					},
					...option.content,
				),
			),
		);
		this.element.hidden = false;
		if (this.config.expands) {
			this.input.setAttribute('aria-expanded', 'true');
		}
		this.input.setAttribute('aria-activedescendant', `${optionId}-${this.active}`);
		this.element.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
	}
}
