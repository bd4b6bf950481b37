// A code block: a header with the language and a Copy button, then the code, highlighted as
// <span>s of text. Copy sends the exact code to the host, which owns the clipboard.
import { el, icon } from '../dom';
import { post } from '../host';
import { highlight } from './highlight';

const COPIED_MS = 1500;
/** A label longer than this is a runaway info string, not a language. */
const MAX_LANGUAGE_CHARS = 40;

function codeContent(text: string, language: string): (Node | string)[] {
	const spans = highlight(text, language);
	if (spans === null) {
		return [text];
	}
	return spans.map((span) => (span.kind === undefined ? span.text : el('span', { class: `hl-${span.kind}` }, span.text)));
}

function copyButton(text: string): HTMLButtonElement {
	const glyph = icon('copy');
	const label = el('span', { class: 'md-copy-label' });
	const button = el('button', { type: 'button', class: 'icon-button md-copy', 'aria-label': 'Copy code', title: 'Copy code' }, glyph, label);
	let timer: number | undefined;
	button.addEventListener('click', () => {
		post({ type: 'copy', text });
		glyph.className = 'codicon codicon-check';
		label.textContent = 'Copied';
		button.setAttribute('aria-label', 'Copied');
		window.clearTimeout(timer);
		timer = window.setTimeout(() => {
			glyph.className = 'codicon codicon-copy';
			label.textContent = '';
			button.setAttribute('aria-label', 'Copy code');
		}, COPIED_MS);
	});
	return button;
}

/** `info` is the fence's info string (`ts title="x"`): its first word names the language. */
export function codeBlock(text: string, info: string | undefined): HTMLDivElement {
	const language = (info ?? '').trim().split(/\s/, 1)[0]?.slice(0, MAX_LANGUAGE_CHARS) ?? '';
	const code = el('code', language === '' ? {} : { 'data-language': language }, ...codeContent(text, language));
	return el(
		'div',
		{ class: 'md-code' },
		el('div', { class: 'md-code-header' }, el('span', { class: 'md-code-language' }, language), copyButton(text)),
		el('pre', {}, code),
	);
}
