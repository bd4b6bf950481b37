// Builds DOM from structure. Text always goes in through textContent: the view never parses a
// string from the host as HTML.

type Attributes = Record<string, string | boolean | undefined>;
export type Child = Node | string | null | undefined;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
	const element = document.createElement(tag);
	for (const [name, value] of Object.entries(attributes)) {
		if (value === undefined || value === false) {
			continue;
		}
		element.setAttribute(name, value === true ? '' : value);
	}
	for (const child of children) {
		if (child === null || child === undefined) {
			continue;
		}
		element.append(typeof child === 'string' ? document.createTextNode(child) : child);
	}
	return element;
}

export function icon(name: string, extraClass = ''): HTMLSpanElement {
	return el('span', { class: `codicon codicon-${name}${extraClass ? ` ${extraClass}` : ''}`, 'aria-hidden': 'true' });
}

/** Text for screen readers only, where an icon alone carries the meaning on screen. */
export function srOnly(text: string): HTMLSpanElement {
	return el('span', { class: 'sr-only' }, text);
}

let lastId = 0;

/** A document-unique id, for aria-controls and aria-labelledby. */
export function uniqueId(prefix: string): string {
	lastId += 1;
	return `${prefix}-${lastId}`;
}
