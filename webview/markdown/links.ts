// Links in model output. Only http(s) and mailto become anchors, and clicking one never navigates
// the webview: it asks the host (`link.open`), which opens it with VS Code's own confirmation.
// Any other scheme (javascript:, data:, command:, file:, relative...) is shown as text.
import { el } from '../dom';
import { post } from '../host';

const CLICKABLE = new Set(['http:', 'https:', 'mailto:']);
/** The protocol's limit on `link.open`. */
const MAX_HREF = 4000;

/** The normalised URL when `href` may be opened, else null. */
export function safeHref(href: string): string | null {
	if (href.length > MAX_HREF) {
		return null;
	}
	let url: URL;
	try {
		url = new URL(href); // no base: a relative or malformed href throws and is refused
	} catch {
		return null;
	}
	return CLICKABLE.has(url.protocol) && url.href.length <= MAX_HREF ? url.href : null;
}

function onAuxClick(event: MouseEvent): void {
	event.preventDefault(); // a middle click would open a window
	event.stopPropagation();
}

/** An anchor for a safe href; for any other, the label as text and the href beside it, muted. */
export function linkNodes(href: string, label: Node[]): Node[] {
	const safe = safeHref(href);
	if (safe === null) {
		const labelText = label.map((node) => node.textContent ?? '').join('');
		const title = 'Not a web or mail link: not opened from here';
		return labelText === href ? [el('span', { class: 'md-link-refused', title }, ...label)] : [...label, el('span', { class: 'md-link-refused', title }, ` (${href})`)];
	}
	const anchor = el('a', { href: safe, title: safe, class: 'md-link' }, ...label);
	anchor.addEventListener('click', (event) => {
		event.preventDefault();
		// VS Code's webview frame opens any clicked anchor itself; stopping here keeps it to one opener.
		event.stopPropagation();
		post({ type: 'link.open', href: safe });
	});
	anchor.addEventListener('auxclick', onAuxClick);
	return [anchor];
}

/** Images never load (the CSP forbids remote ones anyway): their alt text, and the URL as a link. */
export function imageNodes(href: string, alt: string): Node[] {
	const url = document.createTextNode(href);
	return [el('span', { class: 'md-image' }, `[image: ${alt}] `), ...linkNodes(href, [url])];
}
