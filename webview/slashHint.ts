// The slash commands the composer knows (the host's registry: the snapshot's list, then every
// `commands.changed` as MCP servers come and go), shown as a hint while the message starts with
// one: `/compact [what to keep] — compact the chat now`; while the command's word is being typed,
// every command it may still become (`/mcp.` lists the servers' prompts). Keyboard first: Tab
// completes the command (as far as the candidates agree), Escape closes the hint; Enter sends the
// text as usual (the host recognises the command). The hint is a polite live region the message
// box is described by, so a screen reader says it once.
import type { SlashCommandView as SlashCommand } from '../src/protocol/messages';
import { el } from './dom';

/** How many candidates the hint lists; the rest are counted. */
const MAX_LISTED = 8;

/**
 * The commands the text may be: those whose name starts with its first word while that word is
 * typed ("/", "/co"), the one it names once a space follows it; none for any other text.
 */
export function slashCommandsOf(text: string, commands: readonly SlashCommand[]): SlashCommand[] {
	if (!text.startsWith('/')) {
		return [];
	}
	const word = /^\/\S*/u.exec(text)?.[0] ?? '/';
	const complete = text.length > word.length;
	return commands.filter((command) => (complete ? command.name === word : command.name.startsWith(word)));
}

function commonPrefix(names: readonly string[]): string {
	let prefix = names[0] ?? '';
	for (const name of names) {
		while (!name.startsWith(prefix)) {
			prefix = prefix.slice(0, -1);
		}
	}
	return prefix;
}

function line(command: SlashCommand): HTMLElement[] {
	return [el('code', { class: 'slash-hint-command' }, command.args === '' ? command.name : `${command.name} ${command.args}`), el('span', { class: 'slash-hint-summary' }, ` — ${command.summary}`)];
}

export class SlashHint {
	readonly element = el('div', { class: 'slash-hint', id: 'composer-slash-hint', role: 'status', 'aria-live': 'polite', hidden: true });
	/** Escape closed it: it stays closed until the message no longer starts with `/`. */
	private dismissed = false;
	private shown: SlashCommand[] = [];
	/** What the hint says now, to write it only when that changes. */
	private said = '';
	private commands: readonly SlashCommand[] = [];

	constructor(private readonly input: HTMLTextAreaElement) {}

	/** The commands the host offers now (the snapshot's, or a change of them). */
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
		this.shown = this.dismissed ? [] : slashCommandsOf(text, this.commands);
		const keys = this.shown.length > 0 && this.completes() ? ' (Tab completes, Escape closes)' : ' (Enter sends, Escape closes)';
		const said = this.shown.length > 0 ? `${this.shown.map((command) => `${command.name} ${command.args} ${command.summary}`).join('\n')}${keys}` : '';
		if (said === this.said) {
			return; // unchanged: a live region re-announces whatever is written into it
		}
		this.said = said;
		this.element.hidden = this.shown.length === 0;
		const [only] = this.shown;
		if (only && this.shown.length === 1) {
			this.element.replaceChildren(...line(only), el('span', { class: 'slash-hint-keys' }, keys));
			return;
		}
		const more = this.shown.length - MAX_LISTED;
		this.element.replaceChildren(
			...this.shown.slice(0, MAX_LISTED).map((command) => el('div', { class: 'slash-hint-line' }, ...line(command))),
			...(more > 0 ? [el('div', { class: 'slash-hint-more' }, `and ${more} more: type on to narrow them`)] : []),
			...(this.shown.length > 0 ? [el('div', { class: 'slash-hint-keys' }, keys.trim())] : []),
		);
	}

	/** Handles Tab and Escape while the hint is open; true when the key was its. */
	handleKey(event: KeyboardEvent): boolean {
		if (this.shown.length === 0 || event.isComposing || event.ctrlKey || event.metaKey || event.altKey) {
			return false;
		}
		if (event.key === 'Escape') {
			this.dismissed = true;
			this.refresh();
			return true;
		}
		if (event.key === 'Tab' && !event.shiftKey && this.completes()) {
			const word = /^\/\S*/u.exec(this.input.value)?.[0] ?? '/';
			const rest = this.input.value.slice(word.length).replace(/^\s*/u, '');
			const common = commonPrefix(this.shown.map((command) => command.name));
			const [first] = this.shown;
			// As far as the candidates agree; the first one once they agree on nothing more.
			this.input.value = this.shown.length > 1 && common.length > word.length ? `${common}${rest === '' ? '' : ` ${rest}`}` : `${first?.name ?? word} ${rest}`;
			const end = this.input.value.length;
			this.input.setSelectionRange(end, end);
			this.input.dispatchEvent(new Event('input'));
			return true;
		}
		return false;
	}

	/** Whether Tab has something to complete: the command is not typed out yet with its space. */
	private completes(): boolean {
		const [first] = this.shown;
		return first !== undefined && !(this.shown.length === 1 && this.input.value.startsWith(`${first.name} `));
	}
}
