// The rows of a virtual list that are in the DOM, and the spacing that stands in for the rest:
// the list's padding above the first mounted row and below the last, and a top margin on a
// mounted row that follows a gap (a focused row stays mounted however far from the view it is).
// Spacing, not extra elements: the list's children are its rows and nothing else.
import type { Heights } from './heights';

type Spacing = 'paddingTop' | 'paddingBottom' | 'marginTop';
/** What was last written, as a number: the browser reads large lengths back rounded (1.54261e+06px). */
const written = new WeakMap<HTMLElement, Partial<Record<Spacing, number>>>();

function setSpacing(element: HTMLElement, property: Spacing, pixels: number): void {
	const value = Math.max(0, pixels);
	let record = written.get(element);
	if (!record) {
		record = {};
		written.set(element, record);
	}
	if ((record[property] ?? 0) !== value) {
		record[property] = value;
		// CSSOM, which the webview's CSP allows (a style attribute in markup it would not).
		element.style[property] = value > 0 ? `${value}px` : '';
	}
}

export function setAttribute(element: HTMLElement, name: string, value: string): void {
	if (element.getAttribute(name) !== value) {
		element.setAttribute(name, value);
	}
}

export interface RowSource {
	/** The element for a row coming into range (new, or one its owner kept). */
	readonly render: (key: string) => HTMLElement;
	/** A row left the DOM; its owner may keep the element to give it back to `render`. */
	readonly release?: (key: string, element: HTMLElement) => void;
}

export class MountedRows {
	private readonly elements = new Map<string, HTMLElement>();
	private readonly keys = new WeakMap<Element, string>();
	private readonly observer: ResizeObserver;

	/** `resized` hears of mounted rows whose height changed, by key. */
	constructor(
		private readonly list: HTMLElement,
		private readonly source: RowSource,
		resized: (changes: readonly (readonly [string, number])[]) => void,
	) {
		this.observer = new ResizeObserver((entries) => {
			const changes: [string, number][] = [];
			for (const { target, borderBoxSize } of entries) {
				const key = this.keys.get(target);
				if (key !== undefined && this.elements.get(key) === target) {
					changes.push([key, borderBoxSize[0]?.blockSize ?? target.getBoundingClientRect().height]);
				}
			}
			resized(changes);
		});
	}

	has(key: string): boolean {
		return this.elements.has(key);
	}

	/** The key of the mounted row that holds `node`, if one does. */
	keyOf(node: Element | null): string | undefined {
		let row = node;
		while (row && row.parentElement !== this.list) {
			row = row.parentElement;
		}
		return row ? this.keys.get(row) : undefined;
	}

	/** Unmounts the rows not wanted and mounts the missing ones, in order; returns those it mounted. */
	reconcile(wanted: readonly (readonly [number, string])[]): [number, HTMLElement][] {
		const wantedKeys = new Set(wanted.map(([, key]) => key));
		for (const key of this.elements.keys()) {
			if (!wantedKeys.has(key)) {
				this.unmount(key);
			}
		}
		const added: [number, HTMLElement][] = [];
		// The rows left are in order; new ones go in between, so no mounted row is ever moved
		// (moving a node would drop the focus inside it).
		let cursor = this.list.firstElementChild;
		for (const [index, key] of wanted) {
			const existing = this.elements.get(key);
			if (existing) {
				cursor = existing.nextElementSibling;
				continue;
			}
			const element = this.source.render(key);
			this.keys.set(element, key);
			this.elements.set(key, element);
			this.list.insertBefore(element, cursor);
			this.observer.observe(element);
			added.push([index, element]);
		}
		return added;
	}

	clear(): void {
		for (const key of this.elements.keys()) {
			this.unmount(key);
		}
	}

	/** Spaces the mounted rows to where they are in the whole list, and sets their feed positions. */
	place(indexOf: ReadonlyMap<string, number>, heights: Heights): void {
		const rows: [number, HTMLElement][] = [];
		for (const [key, element] of this.elements) {
			const index = indexOf.get(key);
			if (index !== undefined) {
				rows.push([index, element]);
			}
		}
		rows.sort((a, b) => a[0] - b[0]);
		let top: number | undefined;
		let end = 0;
		for (const [index, element] of rows) {
			const gap = heights.offsetOf(index) - end;
			setSpacing(element, 'marginTop', top === undefined ? 0 : gap);
			top ??= gap;
			end = heights.offsetOf(index + 1);
			setAttribute(element, 'aria-posinset', String(index + 1));
			setAttribute(element, 'aria-setsize', String(heights.length));
		}
		setSpacing(this.list, 'paddingTop', top ?? 0);
		setSpacing(this.list, 'paddingBottom', heights.total - end);
	}

	private unmount(key: string): void {
		const element = this.elements.get(key);
		if (element) {
			this.observer.unobserve(element);
			element.remove();
			this.elements.delete(key);
			this.source.release?.(key, element);
		}
	}
}
