// The composer's `@` list: while the word at the caret starts with `@`, the keywords and the
// workspace files and folders matching what follows (the host ranks the files: a
// `mentions.query` answered by `mentions.answer`, a newer query cancelling the older); while it
// starts with `$`, the skills on offer whose names match (`$name` attaches one). What a chat
// feature's kind of mention offers comes with the host's answer, after the keywords (`@mcp:` and,
// past it, the MCP servers' resources), each with the text it inserts. The composer's list
// (composerList.ts): Enter or Tab inserts the mention text, Escape closes it until the `@` word is
// left. Names are text, never markup.
import { fuzzyScore, type MentionCandidate, type MentionOffer, mentionText, type SkillCandidate } from '../src/protocol/mentions';
import { ComposerList } from './composerList';
import { el } from './dom';

interface MenuOption {
	/** What is inserted in place of the `@` word. */
	readonly insert: string;
	readonly label: string;
	readonly detail: string;
	/** Says something instead of offering it (no skills): never chosen. */
	readonly inert?: boolean;
	/** Inserted without a space after it, so the list goes on with what it starts (`@mcp:`). */
	readonly partial?: boolean;
	/** A workspace file's path: the composer may take it as an attachment instead (an image). */
	readonly file?: string;
}

export type MenuTrigger = '@' | '$';

/** Longer descriptions are cut to one line in the list (the whole is in the skill's file). */
const DETAIL_CHARS = 100;

function oneLine(text: string): string {
	const line = text.replace(/\s+/gu, ' ').trim();
	return line.length > DETAIL_CHARS ? `${line.slice(0, DETAIL_CHARS - 1)}…` : line;
}

const NO_SKILLS: MenuOption = { insert: '', label: 'No skills', detail: 'put a folder with a SKILL.md in .aside/skills/, .claude/skills/, .github/skills/ or ~/.aside/skills/', inert: true };

const KEYWORDS: readonly MenuOption[] = [
	{ insert: '@problems', label: '@problems', detail: 'the workspace\'s errors and warnings' },
	{ insert: '@selection', label: '@selection', detail: 'the editor\'s selection' },
	{ insert: '@changes', label: '@changes', detail: 'the uncommitted changes (git)' },
];

// The `@` word ending at the caret: `@` at the start or after a space or an opening bracket or quote.
const AT_WORD = /(?:^|[\s([{<'"`])@([^\s"'`<>|]*)$/u;
// The `$` word ending at the caret, as src/skills/references.ts reads `$name`: `$` after a space
// or an opening bracket or quote, then what a skill name may hold (so `a$b` and `$HOME` open nothing).
const DOLLAR_WORD = /(?:^|[\s([{<'"`])\$([a-z0-9][a-z0-9-]*)?$/u;

export class MentionMenu {
	private readonly list: ComposerList;
	private options: MenuOption[] = [];
	/** Where the `@` word starts and what follows the `@`, while the list is open. */
	private word: { readonly start: number; readonly query: string; readonly trigger: MenuTrigger } | undefined;
	/** The `@` word Escape closed the list for (its start). */
	private dismissed: number | undefined;
	private asked = 0;
	private pending: { readonly requestId: string; readonly query: string; readonly trigger: MenuTrigger } | undefined;
	private files: readonly MentionCandidate[] = [];
	/** The chat features' options of the last `@` answer. */
	private offers: readonly MentionOffer[] = [];
	/** The skills of the last `$` answer (undefined: not answered yet). */
	private skills: readonly SkillCandidate[] | undefined;
	/** The query `files` answer. */
	private filesFor = '';

	constructor(
		private readonly input: HTMLTextAreaElement,
		private readonly query: (requestId: string, query: string, trigger: MenuTrigger) => void,
		/** Takes a picked file as an attachment (an image) instead of its mention: true when it did. */
		private readonly pickFile?: (path: string) => boolean,
	) {
		this.list = new ComposerList(input, {
			id: 'composer-mentions',
			optionId: 'composer-mention',
			className: 'mention-menu',
			optionClass: 'mention-option',
			label: 'Mention a file, folder, problems, selection, changes or an MCP resource, or a skill',
			expands: true,
			choose: (index) => {
				this.choose(index);
			},
			dismiss: () => {
				this.dismissed = this.word?.start;
				this.close();
			},
		});
	}

	get element(): HTMLUListElement {
		return this.list.element;
	}

	get isOpen(): boolean {
		return this.list.isOpen;
	}

	/** The text or the caret changed. */
	refresh(): void {
		const caret = this.input.selectionStart;
		const before = caret === this.input.selectionEnd ? this.input.value.slice(0, caret) : undefined;
		const at = before === undefined ? null : AT_WORD.exec(before);
		const dollar = before === undefined || at ? null : DOLLAR_WORD.exec(before);
		const match = at ?? dollar;
		if (!match) {
			this.dismissed = undefined;
			this.close();
			return;
		}
		const trigger: MenuTrigger = at ? '@' : '$';
		const query = match[1] ?? '';
		const start = caret - query.length - 1;
		if (this.dismissed === start) {
			this.close();
			return;
		}
		this.dismissed = undefined;
		if (this.word?.query !== query || this.word.start !== start || this.word.trigger !== trigger) {
			if (this.word?.start !== start || this.word.trigger !== trigger) {
				this.files = []; // another word: the last one's answer does not apply
				this.offers = [];
				this.skills = undefined;
			}
			this.word = { start, query, trigger };
			if (this.pending?.query !== query || this.pending.trigger !== trigger) {
				this.asked += 1;
				this.pending = { requestId: `mention-${this.asked}`, query, trigger };
				this.query(this.pending.requestId, query, trigger);
			}
			this.list.resetActive();
		}
		this.render();
	}

	/** The host's answer; an answer to an older query is dropped. */
	answered(requestId: string, candidates: readonly MentionCandidate[], skills?: readonly SkillCandidate[], offers?: readonly MentionOffer[]): void {
		if (this.pending?.requestId !== requestId) {
			return;
		}
		this.files = candidates;
		this.offers = offers ?? [];
		this.skills = this.pending.trigger === '$' ? (skills ?? []) : undefined;
		this.filesFor = this.pending.query;
		if (this.word) {
			this.render();
		}
	}

	/** Arrows, Enter, Tab and Escape while the list is open; true when the key was its. */
	handleKey(event: KeyboardEvent): boolean {
		return this.list.handleKey(event);
	}

	private choose(index: number): void {
		const option = this.options[index];
		const word = this.word;
		if (!option || !word || option.inert) {
			return;
		}
		const caret = this.input.selectionStart;
		const value = this.input.value;
		const rest = value.slice(caret);
		if (option.file !== undefined && this.pickFile?.(option.file) === true) {
			// Attached as an image: the `@` word goes, nothing is inserted.
			this.input.value = `${value.slice(0, word.start)}${rest}`;
			this.input.setSelectionRange(word.start, word.start);
			this.close();
			this.input.dispatchEvent(new Event('input'));
			return;
		}
		const text = `${option.insert}${option.partial === true || rest.startsWith(' ') ? '' : ' '}`;
		this.input.value = `${value.slice(0, word.start)}${text}${rest}`;
		const end = word.start + text.length;
		this.input.setSelectionRange(end, end);
		this.close();
		this.input.dispatchEvent(new Event('input'));
	}

	private render(): void {
		if (this.word?.trigger === '$') {
			this.renderSkills(this.word.query.toLowerCase());
			return;
		}
		const query = (this.word?.query ?? '').toLowerCase();
		const keywords = KEYWORDS.filter((option) => fuzzyScore(query, option.label.slice(1)) !== undefined);
		// Until the host answers, the files of the previous answer that still match.
		const current = this.filesFor === (this.word?.query ?? '');
		// Until the host answers, the previous answer's options that still match (what a list says instead only for its own query).
		const offers = this.offers
			.filter((offer) => current || (offer.inert !== true && fuzzyScore(query, offer.label.replace(/^@/u, '').toLowerCase()) !== undefined))
			.map((offer): MenuOption => ({ ...offer }));
		const files = this.files.filter(
			(candidate) => current || fuzzyScore(query, candidate.path.toLowerCase()) !== undefined,
		).map((candidate): MenuOption => ({
			insert: mentionText(candidate.kind === 'folder' ? `${candidate.path}/` : candidate.path),
			label: candidate.kind === 'folder' ? `${candidate.path}/` : candidate.path,
			detail: candidate.kind,
			...(candidate.kind === 'file' ? { file: candidate.path } : {}),
		}));
		this.show([...keywords, ...offers, ...files]);
	}

	/** The `$` list: until the host answers, the last answer's skills that still match; none at all says so. */
	private renderSkills(query: string): void {
		if (this.skills === undefined) {
			this.hide();
			return;
		}
		const skills = this.skills.filter((skill) => fuzzyScore(query, skill.name.toLowerCase()) !== undefined);
		// "No skills" answers a bare `$` only: `$5` in a price is not a question about skills.
		this.show(this.skills.length === 0 ? (query === '' ? [NO_SKILLS] : []) : skills.map((skill): MenuOption => ({ insert: `$${skill.name}`, label: `$${skill.name}`, detail: oneLine(skill.description) })));
	}

	private show(options: MenuOption[]): void {
		this.options = options;
		this.list.show(
			options.map((option) => ({
				content: [el('span', { class: 'mention-label' }, option.label), el('span', { class: 'mention-detail' }, ` ${option.detail}`)],
				...(option.inert === true ? { inert: true } : {}),
			})),
		);
	}

	private hide(): void {
		this.options = [];
		this.list.hide();
	}

	private close(): void {
		this.word = undefined;
		this.hide();
	}
}
