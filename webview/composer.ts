// The message box. Sends with the configured shortcut, keeps the draft across reloads, and
// refuses (without losing the text) a message over the configured length. While the agent runs,
// Send becomes Stop (Escape too); text sent meanwhile still goes out, and the host delivers it
// at the agent's next step. A slash command at the start (`/compact`) gets a hint (slashHint.ts).
import type { ViewSettings } from '../src/protocol/messages';
import { el, icon } from './dom';
import type { MentionCandidate, MentionOffer, SkillCandidate } from '../src/protocol/mentions';
import { MentionMenu, type MenuTrigger } from './mentionMenu';
import { SlashHint } from './slashHint';
import { ArgumentMenu } from './argumentMenu';
import type { SlashCommandView } from '../src/protocol/messages';
import type { ImageUpload } from '../src/protocol/images';

export interface ComposerEvents {
	/** `images`: what the tray holds (webview/images.ts), sent with the text; they stay in the tray until the host says they went. */
	submit(text: string, images?: readonly ImageUpload[]): void;
	stop(): void;
	draftChanged(draft: string): void;
	refuse(reason: string): void;
	/** What follows an `@` at the caret, for the host to list matching files (mentionMenu.ts). */
	queryMentions(requestId: string, query: string, trigger: MenuTrigger): void;
}

/** What the composer sends beside its text: the images tray (webview/images.ts). */
export interface ComposerAttachments {
	count(): number;
	uploads(): ImageUpload[];
	/** A file the `@` list picked: true when it becomes an attachment (an image), so no mention text goes in. */
	pickFile(path: string): boolean;
}

const isMac = /Mac|iPhone|iPad/.test(navigator.userAgent);

export class Composer {
	readonly element: HTMLFormElement;
	private readonly input: HTMLTextAreaElement;
	private readonly send: HTMLButtonElement;
	private readonly stopButton: HTMLButtonElement;
	private readonly hint: HTMLElement;
	/** `/compact …`: what a slash command at the start does. */
	private readonly slash: SlashHint;
	/** The values of a slash command's argument being typed, when the host completes them. */
	private readonly arguments: ArgumentMenu;
	/** `@…`: the list of mentions to insert. */
	private readonly mentions: MentionMenu;
	private settings: ViewSettings = { sendShortcut: 'enter', maxMessageLength: 100_000 };
	private running = false;
	private attachments: ComposerAttachments | undefined;

	constructor(
		draft: string,
		toolbar: HTMLElement,
		private readonly events: ComposerEvents,
	) {
		this.input = el('textarea', { class: 'composer-input', rows: '3', 'aria-label': 'Message Aside', spellcheck: 'true' });
		this.input.value = draft;
		this.send = el('button', { type: 'submit', class: 'composer-send', 'aria-label': 'Send' }, icon('send'));
		this.stopButton = el('button', { type: 'button', class: 'composer-send composer-stop', 'aria-label': 'Stop', title: 'Stop (Escape)', hidden: true }, icon('debug-stop'));
		this.hint = el('div', { class: 'composer-hint', id: 'composer-hint' });
		this.slash = new SlashHint(this.input);
		this.arguments = new ArgumentMenu(this.input);
		this.mentions = new MentionMenu(this.input, (requestId, query, trigger) => {
			this.events.queryMentions(requestId, query, trigger);
		}, (path) => this.attachments?.pickFile(path) ?? false);
		this.input.setAttribute('aria-describedby', `composer-hint ${this.slash.element.id}`);
		this.element = el(
			'form',
			{ class: 'composer', 'aria-label': 'Composer' },
			this.slash.element,
			this.arguments.element,
			this.mentions.element,
			el('div', { class: 'composer-box' }, this.input, this.send, this.stopButton),
			el('div', { class: 'composer-footer' }, toolbar, this.hint),
		);

		// Focus given to the whole view (Focus on Chat View, the workbench's focus moving in) lands
		// in the message box; focus the page already placed somewhere stays there. A view the
		// command created may have had the focus before this page listened: looked at once drawn.
		const land = (): void => {
			if (document.hasFocus() && (document.activeElement === null || document.activeElement === document.body)) {
				this.input.focus();
			}
		};
		window.addEventListener('focus', land);
		requestAnimationFrame(land);

		this.element.addEventListener('submit', (event) => {
			event.preventDefault();
			this.trySubmit();
		});
		this.stopButton.addEventListener('click', () => {
			this.events.stop();
		});
		this.input.addEventListener('keydown', (event) => {
			if (this.mentions.handleKey(event) || this.arguments.handleKey(event) || this.slash.handleKey(event)) {
				// An open hint takes Tab and Escape first: Escape closes it before it would stop the agent.
				event.preventDefault();
			} else if (event.key === 'Escape' && this.running && !event.isComposing) {
				event.preventDefault();
				this.events.stop();
			} else if (this.isSendKey(event)) {
				event.preventDefault();
				this.trySubmit();
			}
		});
		this.input.addEventListener('input', () => {
			this.events.draftChanged(this.input.value);
			this.refresh();
			this.mentions.refresh();
		});
		// The caret moved without typing (arrows outside the list, a click): the `@` word may have changed.
		this.input.addEventListener('click', () => {
			this.mentions.refresh();
		});
		this.input.addEventListener('keyup', (event) => {
			if (event.key === 'ArrowLeft' || event.key === 'ArrowRight' || event.key === 'Home' || event.key === 'End') {
				this.mentions.refresh();
			}
		});
		this.applySettings(this.settings);
	}

	/** What goes with the text (the images tray). */
	setAttachments(attachments: ComposerAttachments): void {
		this.attachments = attachments;
	}

	/** The tray changed: a message of images alone may be sent. */
	attachmentsChanged(): void {
		this.refresh();
	}

	/** The slash commands the host offers (its registry). */
	setCommands(commands: readonly SlashCommandView[]): void {
		this.slash.setCommands(commands);
		this.arguments.setCommands(commands);
	}

	/** The host's answer to a `commands.complete`. */
	completionsAnswered(requestId: string, values: readonly string[]): void {
		this.arguments.answered(requestId, values);
	}

	applySettings(settings: ViewSettings): void {
		this.settings = settings;
		this.refresh();
	}

	setRunning(running: boolean): void {
		if (running === this.running) {
			return;
		}
		this.running = running;
		// The focus follows the button it was on, so a keyboard user is not dropped to <body>.
		const focused = document.activeElement === this.send || document.activeElement === this.stopButton;
		this.send.hidden = running;
		this.stopButton.hidden = !running;
		if (focused) {
			(running ? this.stopButton : this.send.disabled ? this.input : this.send).focus();
		}
		this.refresh();
	}

	focus(): void {
		this.input.focus();
	}

	/** The text in the box. */
	get value(): string {
		return this.input.value;
	}

	/** Another chat's draft replaces the text (a chat switch): nothing is sent, the focus stays where it is. */
	replace(text: string): void {
		this.input.value = text;
		this.refresh();
		this.mentions.refresh();
	}

	/** Whether the message box holds a draft (anything but blanks). */
	get hasDraft(): boolean {
		return this.input.value.trim() !== '';
	}

	/**
	 * Puts a message that was not sent back in the box. Over a draft the person typed since, only
	 * when `keepDraft` (the Restore button): the message goes first and the draft stays after it.
	 */
	restore(text: string, keepDraft = false): void {
		const draft = this.input.value;
		this.input.value = keepDraft && draft.trim() !== '' ? `${text}\n\n${draft}` : text;
		this.events.draftChanged(this.input.value);
		this.refresh();
		this.input.focus();
		this.input.setSelectionRange(text.length, text.length);
	}

	/** The host's answer to a `mentions.query`. */
	mentionsAnswered(requestId: string, candidates: readonly MentionCandidate[], skills?: readonly SkillCandidate[], offers?: readonly MentionOffer[]): void {
		this.mentions.answered(requestId, candidates, skills, offers);
	}

	private isSendKey(event: KeyboardEvent): boolean {
		if (event.key !== 'Enter' || event.isComposing) {
			return false;
		}
		if (this.settings.sendShortcut === 'enter') {
			return !event.shiftKey && !event.ctrlKey && !event.metaKey && !event.altKey;
		}
		return isMac ? event.metaKey : event.ctrlKey;
	}

	private trySubmit(): void {
		const text = this.input.value;
		const images = this.attachments?.count() ? this.attachments.uploads() : undefined;
		if (text.trim() === '' && !images) {
			return;
		}
		if (text.length > this.settings.maxMessageLength) {
			this.events.refuse(
				`The message has ${text.length.toLocaleString()} characters; the limit is ${this.settings.maxMessageLength.toLocaleString()} (setting aside.chat.maxMessageLength). Your text is still in the box.`,
			);
			return;
		}
		this.events.submit(text, images);
		this.input.value = '';
		this.events.draftChanged('');
		this.refresh();
	}

	private refresh(): void {
		const send = this.settings.sendShortcut === 'enter' ? 'Enter' : isMac ? '⌘Enter' : 'Ctrl+Enter';
		const newline = this.settings.sendShortcut === 'enter' ? 'Shift+Enter' : 'Enter';
		this.input.placeholder = this.running
			? `Add to what Aside is doing — ${send} to send, Escape to stop`
			: `Message Aside — ${send} to send, ${newline} for a new line`;
		this.send.title = `Send (${send})`;
		const length = this.input.value.length;
		const limit = this.settings.maxMessageLength;
		this.send.disabled = this.input.value.trim() === '' && !this.attachments?.count();
		const over = length > limit;
		this.element.classList.toggle('over-limit', over);
		this.slash.refresh();
		this.arguments.refresh();
		this.hint.textContent = length > limit * 0.9 ? `${length.toLocaleString()} / ${limit.toLocaleString()} characters` : '';
	}
}
