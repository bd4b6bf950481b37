// The values of a slash command's argument as it is typed (`/mcp.everything.completable-prompt Sa`),
// for a command whose values the host completes (an MCP server that offers completion): asked of
// the host (`commands.complete`) once the typing pauses, an answer to an older question dropped;
// until the new answer comes, the last one's values that still match. Which argument the caret is
// in is read as the host reads the command (src/protocol/commandArguments.ts). The composer's list
// (composerList.ts), as the `@` list is: Enter or Tab puts the value in place of the word (quoted
// when it must be), Escape closes it until the word changes. Values are text, never markup.
import { argumentAt, quoteArgument } from '../src/protocol/commandArguments';
import type { SlashCommandView } from '../src/protocol/messages';
import { ComposerList } from './composerList';
import { post } from './host';

/** How long the typing must pause before the host is asked. */
export const COMPLETION_DEBOUNCE_MS = 200;

interface Target {
	readonly command: string;
	readonly argument: string;
	readonly value: string;
	/** Where the value's word starts in the message. */
	readonly start: number;
	readonly context: Readonly<Record<string, string>>;
	/** The question it asks: the same key, the same answer. */
	readonly key: string;
}

export class ArgumentMenu {
	private readonly list: ComposerList;
	private commands: readonly SlashCommandView[] = [];
	private target: Target | undefined;
	/** The question asked last, waiting for its answer. */
	private pending: { readonly requestId: string; readonly key: string } | undefined;
	private asked = 0;
	private timer: ReturnType<typeof setTimeout> | undefined;
	/** The last answer, and the argument it is for (`command argument start`). */
	private answer: { readonly values: readonly string[]; readonly word: string; readonly key: string } | undefined;
	/** The values the list shows. */
	private values: readonly string[] = [];
	/** The question Escape closed the list for. */
	private dismissed: string | undefined;

	constructor(private readonly input: HTMLTextAreaElement) {
		this.list = new ComposerList(input, {
			id: 'composer-arguments',
			optionId: 'composer-argument',
			className: 'argument-menu',
			optionClass: 'argument-option',
			label: 'Values for the argument',
			expands: false,
			choose: (index) => {
				this.choose(index);
			},
			dismiss: () => {
				this.dismissed = this.target?.key;
				this.hide();
			},
		});
	}

	get element(): HTMLUListElement {
		return this.list.element;
	}

	get isOpen(): boolean {
		return this.list.isOpen;
	}

	setCommands(commands: readonly SlashCommandView[]): void {
		this.commands = commands;
		this.refresh();
	}

	/** The text or the caret changed. */
	refresh(): void {
		const target = this.targetAtCaret();
		if (target?.key === this.target?.key) {
			return;
		}
		this.target = target;
		clearTimeout(this.timer);
		if (!target || this.dismissed === target.key) {
			this.dismissed = target === undefined ? undefined : this.dismissed;
			this.hide();
			return;
		}
		this.dismissed = undefined;
		this.show();
		this.timer = setTimeout(() => {
			this.asked += 1;
			this.pending = { requestId: `complete-${this.asked}`, key: target.key };
			post({ type: 'commands.complete', requestId: this.pending.requestId, command: target.command, argument: target.argument, value: target.value, context: { ...target.context } });
		}, COMPLETION_DEBOUNCE_MS);
	}

	/** The host's answer to a `commands.complete`; one to an older question is dropped. */
	answered(requestId: string, values: readonly string[]): void {
		const { target } = this;
		if (this.pending?.requestId !== requestId || target?.key !== this.pending.key) {
			return;
		}
		this.pending = undefined;
		this.answer = { values, word: wordOf(target), key: target.key };
		this.list.resetActive();
		this.show();
	}

	/** Arrows, Enter, Tab and Escape while the list is open; true when the key was its. */
	handleKey(event: KeyboardEvent): boolean {
		return this.list.handleKey(event);
	}

	/** The argument under the caret of a command whose values the host completes. */
	private targetAtCaret(): Target | undefined {
		const caret = this.input.selectionStart;
		const text = this.input.value;
		const name = /^\/\S+/u.exec(text)?.[0];
		if (name === undefined || caret !== this.input.selectionEnd || caret <= name.length) {
			return undefined;
		}
		const command = this.commands.find((candidate) => candidate.name === name);
		const at = command?.completes && command.arguments ? argumentAt(text.slice(name.length, caret), command.arguments) : undefined;
		if (!at) {
			return undefined;
		}
		const start = name.length + at.start;
		const key = JSON.stringify([name, at.name, at.value, start, at.context]);
		return { command: name, argument: at.name, value: at.value, start, context: at.context, key };
	}

	private choose(index: number): void {
		const value = this.values[index];
		const target = this.target;
		if (value === undefined || !target) {
			return;
		}
		const caret = this.input.selectionStart;
		const text = this.input.value;
		const rest = text.slice(caret);
		const inserted = `${quoteArgument(value)}${rest.startsWith(' ') ? '' : ' '}`;
		this.input.value = `${text.slice(0, target.start)}${inserted}${rest}`;
		const end = target.start + inserted.length;
		this.input.setSelectionRange(end, end);
		this.hide();
		this.input.dispatchEvent(new Event('input'));
	}

	/** The last answer's values that still fit the word typed (all of them when it is the answer to this very word). */
	private show(): void {
		const target = this.target;
		const answer = this.answer;
		if (!target || !answer || answer.word !== wordOf(target)) {
			this.hide();
			return;
		}
		const typed = target.value.toLowerCase();
		this.values = answer.key === target.key ? answer.values : answer.values.filter((value) => value.toLowerCase().startsWith(typed));
		this.list.show(this.values.map((value) => ({ content: [value] })));
	}

	private hide(): void {
		this.values = [];
		this.list.hide();
	}
}

/** The argument a target is in, whatever its value: an answer for it still narrows as the word is typed on. */
function wordOf(target: Target): string {
	return JSON.stringify([target.command, target.argument, target.start, target.context]);
}
