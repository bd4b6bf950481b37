// Markdown that grows while it streams. Each update re-lexes the whole text but keeps the DOM of
// the leading top-level blocks whose source did not change, so a long answer stays cheap to
// update and a focused Copy button or a selection in an earlier block survives new text.
import type { TokensList } from 'marked';
import { el } from '../dom';
import { plainReason } from './guard';
import { FAILED, lex, plainText, renderBlock } from './render';

interface Block {
	readonly raw: string;
	/** Null for a block that shows nothing (a blank line, a link definition). */
	readonly node: Node | null;
}

/** An update slower than this means hostile text: the rest of this stream is shown plain. */
const SLOW_UPDATE_MS = 250;

export class MarkdownView {
	readonly element: HTMLElement;
	private blocks: Block[] = [];
	/** The link definitions the blocks were rendered with: a new one can turn `[x]` anywhere into a link. */
	private links = '';
	private text = '';
	/** Showing plain text, and whether that sticks for as long as the text only grows. */
	private plain: 'no' | 'now' | 'sticky' = 'no';

	constructor(extraClass = '') {
		this.element = el('div', { class: extraClass === '' ? 'markdown' : `markdown ${extraClass}` });
	}

	update(text: string): void {
		const grows = text.startsWith(this.text);
		this.text = text;
		if (this.plain === 'sticky' && grows) {
			this.showPlain(text, 'Too slow to format while streaming: shown as plain text.', 'sticky');
			return;
		}
		const reason = plainReason(text);
		if (reason !== null) {
			this.showPlain(text, reason, 'now');
			return;
		}
		const started = performance.now();
		try {
			this.render(lex(text));
		} catch {
			this.showPlain(text, FAILED, 'now');
			return;
		}
		if (performance.now() - started > SLOW_UPDATE_MS) {
			this.plain = 'sticky';
		}
	}

	private render(tokens: TokensList): void {
		const links = JSON.stringify(tokens.links);
		if (this.plain !== 'no' || links !== this.links) {
			this.element.replaceChildren();
			this.blocks = [];
			this.plain = 'no';
			this.links = links;
		}
		let same = 0;
		while (same < this.blocks.length && same < tokens.length && this.blocks[same]?.raw === tokens[same]?.raw) {
			same += 1;
		}
		for (const block of this.blocks.slice(same)) {
			block.node?.parentNode?.removeChild(block.node);
		}
		const kept = this.blocks.slice(0, same);
		const added = tokens.slice(same).map((token): Block => ({ raw: token.raw, node: renderBlock(token) }));
		this.element.append(...added.flatMap((block) => (block.node === null ? [] : [block.node])));
		this.blocks = [...kept, ...added];
	}

	private showPlain(text: string, reason: string, plain: 'now' | 'sticky'): void {
		this.element.replaceChildren(...plainText(text, reason));
		this.blocks = [];
		this.links = '';
		this.plain = plain;
	}
}
