// The slash commands the composer knows (the host's registry, sent in the snapshot), shown as a
// hint while the message starts with one:
// `/compact [what to keep] — compact the chat now`. Keyboard first: Tab completes the command,
// Escape closes the hint; Enter sends the text as usual (the host recognises the command). The
// hint is a polite live region the message box is described by, so a screen reader says it once.
import type { SlashCommandView as SlashCommand } from '../src/protocol/messages';
import { el } from './dom';

/** The command the text starts with, or is the beginning of ("/", "/co"); undefined for any other text. */
export function slashCommandOf(text: string, commands: readonly SlashCommand[]): SlashCommand | undefined {
	if (!text.startsWith('/')) {
		return undefined;
	}
	const word = /^\/\S*/.exec(text)?.[0] ?? '/';
	const complete = text.length > word.length;
	return commands.find((command) => (complete ? command.name === word : command.name.startsWith(word)));
}

export class SlashHint {
	readonly element = el('div', { class: 'slash-hint', id: 'composer-slash-hint', role: 'status', 'aria-live': 'polite', hidden: true });
	/** Escape closed it: it stays closed until the message no longer starts with `/`. */
	private dismissed = false;
	private shown: SlashCommand | undefined;
	/** What the hint says now, to write it only when that changes. */
	private said = '';
	private commands: readonly SlashCommand[] = [];

	constructor(private readonly input: HTMLTextAreaElement) {}

	/** The commands the host offers now (from the snapshot). */
	setCommands(commands: readonly SlashCommand[]): void {
		this.commands = commands;
		this.refresh();
	}

	/** The text changed. */
	refresh(): void {
		const text = this.input.value;
		if (!text.startsWith('/')) {
			this.dismissed = false;
		}
		const command = this.dismissed ? undefined : slashCommandOf(text, this.commands);
		this.shown = command;
		const keys = command && this.completes() ? ' (Tab completes, Escape closes)' : ' (Enter sends, Escape closes)';
		const said = command ? `${command.name}${keys}` : '';
		if (said === this.said) {
			return; // unchanged: a live region re-announces whatever is written into it
		}
		this.said = said;
		this.element.hidden = command === undefined;
		this.element.replaceChildren(
			...(command
				? [
						el('code', { class: 'slash-hint-command' }, `${command.name} ${command.args}`),
						el('span', { class: 'slash-hint-summary' }, ` — ${command.summary}`),
						el('span', { class: 'slash-hint-keys' }, keys),
					]
				: []),
		);
	}

	/** Handles Tab and Escape while the hint is open; true when the key was its. */
	handleKey(event: KeyboardEvent): boolean {
		if (this.shown === undefined || event.isComposing || event.ctrlKey || event.metaKey || event.altKey) {
			return false;
		}
		if (event.key === 'Escape') {
			this.dismissed = true;
			this.refresh();
			return true;
		}
		if (event.key === 'Tab' && !event.shiftKey && this.completes()) {
			const rest = this.input.value.replace(/^\/\S*\s*/, '');
			this.input.value = `${this.shown.name} ${rest}`;
			const end = this.input.value.length;
			this.input.setSelectionRange(end, end);
			this.input.dispatchEvent(new Event('input'));
			return true;
		}
		return false;
	}

	/** Whether Tab has something to complete: the command is not typed out yet with its space. */
	private completes(): boolean {
		return this.shown !== undefined && !this.input.value.startsWith(`${this.shown.name} `);
	}
}
