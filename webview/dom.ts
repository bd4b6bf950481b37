// Builds DOM from structure. Text always goes in through textContent: the view never parses a
// string from the host as HTML.

type Attributes = Record<string, string | boolean | undefined>;

export function el<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	attributes: Attributes = {},
	...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
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

export function icon(name: string): HTMLSpanElement {
	return el('span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
}
