// A virtual list: of many keyed rows only those in view (plus a few either side) are in the DOM.
// Rows have any height: estimated until mounted, then measured (at mount, and by a
// ResizeObserver when they change), in a Fenwick tree (heights.ts). The rows not mounted are
// stood in for by spacing (mountedRows.ts), so the scroll height is the sum of all heights.
// A mounted element stays while it is in range and is never moved, so focus and the state of its
// controls survive renders; the row holding the focus stays mounted wherever the view goes.
import { Heights } from './heights';
import { MountedRows, type RowSource, setAttribute } from './mountedRows';

export interface VirtualListOptions extends RowSource {
	/** The scrolling element; it may hold other content before and after the list. */
	readonly scroller: HTMLElement;
	/** The list element the rows are mounted in; nothing else may add children to it. */
	readonly list: HTMLElement;
	/** A height for a row not measured yet, at this list width. */
	readonly estimate: (key: string, width: number) => number;
	/** Rows that hold tab stops: the nearest ones stay mounted beside a focused row, so Tab and Shift+Tab reach them. */
	readonly hasTabStops?: (key: string) => boolean;
	/** Rows mounted beyond each edge of the view. */
	readonly overscan?: number;
}

/** Scrolled down to within this of the end counts as at the end: new content keeps the view there. */
const END_SLACK = 40;
/** Mount-measure-correct passes per update; measuring can bring a row or two more into range. */
const MAX_PASSES = 4;

/** A row, and where the view's top was relative to that row's top. */
type Anchor = readonly [index: number, delta: number];

export class VirtualList {
	private keys: string[] = [];
	private readonly indexOf = new Map<string, number>();
	private readonly heights = new Heights();
	private readonly rows: MountedRows;
	private followEnd = true;
	private lastScrollTop = 0;
	private width = 0;
	private frame: number | undefined;

	constructor(private readonly options: VirtualListOptions) {
		const { scroller, list } = options;
		this.rows = new MountedRows(list, options, (changes) => {
			this.resized(changes);
		});
		// The browser's own scroll anchoring would correct the same height changes a second time
		// (and pick rows about to be unmounted as anchors): this list anchors itself.
		scroller.style.overflowAnchor = 'none';
		scroller.addEventListener('scroll', () => {
			this.scrolled();
		});
		new ResizeObserver(() => {
			this.schedule();
		}).observe(scroller);
		// Synchronously: a Tab pressed before the next frame must find the next row mounted.
		list.addEventListener('focusin', () => {
			this.update();
		});
		list.addEventListener('focusout', () => {
			this.schedule();
		});
	}

	indexOfKey(key: string): number | undefined {
		return this.indexOf.get(key);
	}

	reset(keys: readonly string[]): void {
		this.rows.clear();
		this.keys = [...keys];
		this.indexOf.clear();
		this.reindex(0);
		this.width = this.options.list.clientWidth;
		this.heights.reset(this.keys.map((key) => this.options.estimate(key, this.width)));
		this.place();
		this.schedule();
	}

	/** Adds rows at `index` (the end when omitted). Added above the view, they push it down with them. */
	insert(keys: readonly string[], index = this.keys.length): void {
		if (keys.length === 0) {
			return;
		}
		const top = this.viewTop();
		const above = !this.followEnd && top > 0 && index <= this.heights.indexAt(top);
		const estimates = keys.map((key) => this.options.estimate(key, this.width));
		if (index === this.keys.length) {
			for (const key of keys) {
				this.keys.push(key); // not a spread: a 10,000-row append would be 10,000 arguments
			}
		} else {
			this.keys.splice(index, 0, ...keys);
		}
		this.reindex(index);
		this.heights.insert(index, estimates);
		this.place();
		if (above) {
			this.options.scroller.scrollTop += estimates.reduce((sum, height) => sum + height, 0);
		}
		this.schedule();
	}

	/** Whether new content should keep the view at the end: it was there, or was put there. */
	isAtEnd(): boolean {
		return this.followEnd;
	}

	/** Goes to the end, and stays there as rows are measured and added until the person scrolls up. */
	scrollToEnd(): void {
		this.followEnd = true;
		// Streaming calls this on every flush. Going to the end needs one layout; the full pass
		// (mount, measure, anchor) can wait for the next frame, which runs before it is painted.
		const { scroller } = this.options;
		scroller.scrollTop = scroller.scrollHeight;
		this.schedule();
	}

	scrollToKey(key: string): void {
		const index = this.indexOf.get(key);
		if (index !== undefined) {
			this.followEnd = false;
			this.options.scroller.scrollTop = this.listTop() + this.heights.offsetOf(index);
			this.update();
		}
	}

	private scrolled(): void {
		const { scrollTop, scrollHeight, clientHeight } = this.options.scroller;
		// Any move up lets go of the end, so a slow trackpad scroll is not pulled back by streaming.
		const up = scrollTop < this.lastScrollTop - 1;
		this.lastScrollTop = scrollTop;
		this.followEnd = scrollHeight - scrollTop - clientHeight < (up ? 1 : END_SLACK);
		this.schedule();
	}

	private schedule(): void {
		this.frame ??= requestAnimationFrame(() => {
			this.frame = undefined;
			this.update();
		});
	}

	/** Mounts the rows in range, measures the new ones and corrects the scroll position, before paint. */
	private update(): void {
		if (this.frame !== undefined) {
			cancelAnimationFrame(this.frame);
			this.frame = undefined;
		}
		this.rewidth(this.options.list.clientWidth);
		this.restore(undefined);
		for (let pass = 0; pass < MAX_PASSES; pass++) {
			const anchor = this.anchor();
			const added = this.rows.reconcile(this.wanted().map((index) => [index, this.keys[index] ?? '']));
			this.place();
			if (added.length === 0) {
				break;
			}
			// Until the observer reports the new rows (and clears this), the feed is being updated.
			setAttribute(this.options.list, 'aria-busy', 'true');
			// Measured now, not when the observer reports: the view is corrected before it is painted.
			for (const [index, element] of added) {
				this.heights.set(index, element.getBoundingClientRect().height);
			}
			this.place();
			this.restore(anchor);
		}
	}

	/** Mounted rows changed height (expanded, rewrapped, content changed): keep the view where it was. */
	private resized(changes: readonly (readonly [string, number])[]): void {
		const anchor = this.anchor();
		let changed = false;
		for (const [key, height] of changes) {
			const index = this.indexOf.get(key);
			if (index !== undefined && height !== this.heights.get(index)) {
				this.heights.set(index, height);
				changed = true;
			}
		}
		setAttribute(this.options.list, 'aria-busy', 'false');
		if (changed) {
			// Spacing and scroll only: mounting rows inside an observer callback would make the
			// browser report a ResizeObserver loop. The next frame mounts what came into range.
			this.place();
			this.restore(anchor);
			this.schedule();
		}
	}

	/** What to keep in place: the focused row when it is in view, else the row at the view's top. */
	private anchor(): Anchor | undefined {
		if (this.followEnd || this.keys.length === 0) {
			return undefined;
		}
		const top = this.viewTop();
		const focused = this.focusedIndex();
		if (focused !== undefined) {
			const rowTop = this.heights.offsetOf(focused);
			if (rowTop < top + this.options.scroller.clientHeight && rowTop + this.heights.get(focused) > top) {
				return [focused, top - rowTop];
			}
		}
		if (top <= 0) {
			return undefined; // the list's start is in view: nothing above it can move it
		}
		const index = this.heights.indexAt(top);
		return [index, top - this.heights.offsetOf(index)];
	}

	private restore(anchor: Anchor | undefined): void {
		const { scroller } = this.options;
		if (this.followEnd) {
			scroller.scrollTop = scroller.scrollHeight;
		} else if (anchor) {
			const target = this.listTop() + this.heights.offsetOf(anchor[0]) + anchor[1];
			if (Math.abs(scroller.scrollTop - target) >= 1) {
				scroller.scrollTop = target;
			}
		}
	}

	/** Sorted indices: the view with overscan, the focused row, and the nearest rows with tab stops either side of it. */
	private wanted(): number[] {
		const count = this.keys.length;
		if (count === 0) {
			return [];
		}
		const overscan = this.options.overscan ?? 4;
		const top = this.viewTop();
		const first = Math.max(0, this.heights.indexAt(top) - overscan);
		const last = Math.min(count - 1, this.heights.indexAt(top + this.options.scroller.clientHeight) + overscan);
		const wanted = new Set<number>();
		for (let i = first; i <= last; i++) {
			wanted.add(i);
		}
		const focused = this.focusedIndex();
		const { hasTabStops } = this.options;
		if (focused !== undefined) {
			// Kept however far it is scrolled away: unmounting it would drop the focus.
			wanted.add(focused);
			for (const step of hasTabStops ? [-1, 1] : []) {
				let i = focused + step;
				while (i >= 0 && i < count && !hasTabStops?.(this.keys[i] ?? '')) {
					i += step;
				}
				if (i >= 0 && i < count) {
					wanted.add(i);
				}
			}
		}
		return [...wanted].sort((a, b) => a - b);
	}

	private place(): void {
		this.rows.place(this.indexOf, this.heights);
	}

	private focusedIndex(): number | undefined {
		const key = this.rows.keyOf(document.activeElement);
		return key === undefined ? undefined : this.indexOf.get(key);
	}

	/** The list's top within the scroller's content (other content may come before it). */
	private listTop(): number {
		const { scroller, list } = this.options;
		return list.getBoundingClientRect().top - scroller.getBoundingClientRect().top - scroller.clientTop + scroller.scrollTop;
	}

	private viewTop(): number {
		return this.options.scroller.scrollTop - this.listTop();
	}

	/** Text rewraps at a new width: rows not mounted get new estimates (the observer re-measures the mounted ones). */
	private rewidth(width: number): void {
		if (width === this.width) {
			return;
		}
		this.width = width;
		const anchor = this.anchor();
		for (let i = 0; i < this.keys.length; i++) {
			const key = this.keys[i] ?? '';
			if (!this.rows.has(key)) {
				this.heights.set(i, this.options.estimate(key, width));
			}
		}
		this.place();
		this.restore(anchor);
	}

	private reindex(from: number): void {
		for (let i = from; i < this.keys.length; i++) {
			this.indexOf.set(this.keys[i] ?? '', i);
		}
	}
}
