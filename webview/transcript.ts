// The transcript: the rows the host sent, in the order it sent them, mounted through a virtual
// list so a 10,000-row session costs what its visible rows cost. Rows are added where each delta
// says (the end, or before a row); a snapshot rebuilds the list. The host decides which rows
// there are and their order; this only puts them where it is told.
import { type AgentStatus, type ChildAgentView, conversationOfItem, type SetupView, type StreamView, type TranscriptItem, type TurnEndItem, type ViewMessage } from '../src/protocol/messages';
import { el, icon } from './dom';
import { estimateHeight } from './estimate';
import { plural } from './format';
import { AgentBlock } from './rows/agent';
import { rowFor, updateRow } from './rows/index';
import { markRolledBack } from './rows/rolledBack';
import { VirtualList } from './virtualList';

/** A button of the empty state; `data-action` lets a rebuilt state give the focus back. */
function action(label: string, message: ViewMessage, post: (message: ViewMessage) => void, primary: boolean): HTMLButtonElement {
	const button = el('button', { type: 'button', class: primary ? 'button-primary' : 'button-secondary', 'data-action': JSON.stringify(message) }, label);
	button.addEventListener('click', () => {
		post(message);
	});
	return button;
}

/**
 * When nothing can answer, the ways on from here: store the key the provider lacks, use a local
 * server the host found running, or choose a provider. Never a dead end that needs settings names.
 */
function setupActions(setup: SetupView | undefined, post: (message: ViewMessage) => void): HTMLElement {
	const buttons: HTMLButtonElement[] = [];
	if (setup?.keyNeeded) {
		const { provider, origin } = setup.keyNeeded;
		buttons.push(action(`Store ${/^[AEIOU]/i.test(provider) ? 'an' : 'a'} ${provider} API key for ${origin}`, { type: 'apiKey.store' }, post, true));
	}
	for (const server of setup?.detected ?? []) {
		buttons.push(action(server.label, { type: 'provider.useDetected', id: server.id }, post, buttons.length === 0));
	}
	buttons.push(action('Choose a provider', { type: 'provider.choose' }, post, buttons.length === 0));
	return el('div', { class: 'empty-state-actions', role: 'group', 'aria-label': 'Set up a model' }, ...buttons);
}

export function emptyState(status: AgentStatus, setup?: SetupView, post?: (message: ViewMessage) => void): HTMLElement {
	const unavailable = status.state === 'unavailable';
	return el(
		'section',
		{ class: 'empty-state', 'aria-label': 'About Aside' },
		el('h2', {}, 'Aside'),
		el('p', {}, 'A coding-agent chat that never hides what it tells the model.'),
		el(
			'p',
			{},
			'Everything Aside adds to the conversation on its own — the date, project instructions, files that changed, new errors after an edit — will appear in this chat as a collapsed ◇ system reminders row that you can expand and read in full.',
		),
		unavailable ? el('p', { class: 'empty-state-status' }, icon('info'), ' ', status.detail) : null,
		unavailable && post ? setupActions(setup, post) : null,
	);
}

const TURN_ENDS: Record<Exclude<TurnEndItem['outcome'], 'done'>, string> = {
	interrupted: 'Stopped',
	failed: 'The turn failed',
	'step-limit': 'Stopped at the step limit',
};

/** What a screen reader hears when rows arrive: the news, not the rows' whole text. */
function announcement(items: readonly (TranscriptItem | undefined)[]): string {
	const news: string[] = [];
	let replied = false;
	let tools = 0;
	let reminders = 0;
	for (const item of items) {
		if (item?.kind === 'assistant') {
			replied = true;
		} else if (item?.kind === 'tool') {
			tools += 1;
		} else if (item?.kind === 'reminders') {
			reminders += item.entries.length;
		} else if (item?.kind === 'turn-end' && item.outcome !== 'done') {
			news.push(TURN_ENDS[item.outcome]);
		} else if (item?.kind === 'compaction') {
			news.push('Chat compacted');
		} else if (item?.kind === 'agent') {
			// Its own rows go inside its row unannounced: the person opens it to read them.
			news.push(`Agent ${item.profile} started: ${item.description.slice(0, 200)}`);
		}
	}
	if (replied) {
		news.unshift('Aside replied');
	}
	if (tools > 0) {
		news.push(plural(tools, 'tool call', 'tool calls'));
	}
	if (reminders > 0) {
		news.push(plural(reminders, 'system reminder', 'system reminders'));
	}
	return news.join(', ');
}

export class TranscriptView {
	// A feed, not a live log: rows mounted by scrolling must not be read out as news. New rows are
	// announced by `announcer` instead; each row is an article with its position in the feed.
	readonly element = el('ol', { class: 'transcript', role: 'feed', 'aria-label': 'Transcript', 'aria-busy': 'false' });
	readonly announcer = el('div', { class: 'sr-only', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
	/** Every row received, by id: a delta replayed after a resync must not show a row twice. */
	private readonly items = new Map<string, TranscriptItem>();
	/**
	 * Rows unmounted while something in them was expanded, kept whole: the row modules build their
	 * panels lazily and own their state, so keeping the element (only for the few rows opened)
	 * brings back every open disclosure, and the scroll inside its panels, exactly as left.
	 */
	private readonly kept = new Map<string, HTMLElement>();
	/**
	 * Each child agent's block, by its owner path: its header is one row (of the list, or of its
	 * parent's block), and its own rows live inside it, rendered when it is first opened.
	 */
	private readonly blocks = new Map<string, AgentBlock>();
	/** The running children as the agent view said last, and their streams' text so far. */
	private children: readonly ChildAgentView[] = [];
	private metrics = { width: -1, fontSize: 13 };
	private readonly list: VirtualList;

	constructor(scroller: HTMLElement) {
		this.list = new VirtualList({
			scroller,
			list: this.element,
			render: (id) => this.row(id),
			release: (id, element) => {
				// A child's block keeps its own element (and with it, what is open inside).
				if (this.items.get(id)?.kind !== 'agent' && element.querySelector('[aria-expanded="true"]')) {
					this.kept.set(id, element);
				}
			},
			estimate: (id, width) => estimateHeight(this.shown(id), width, this.fontSize(width)),
			hasTabStops: (id) => {
				const item = this.items.get(id);
				const kind = item?.kind;
				return kind === 'tool' || kind === 'reminders' || kind === 'agent' || kind === 'compaction' || (item?.kind === 'user' && (item.agent === undefined || item.mentions !== undefined || item.hookContext !== undefined));
			},
		});
	}

	reset(items: readonly TranscriptItem[]): void {
		this.items.clear();
		this.blocks.clear();
		this.kept.clear();
		this.list.reset(this.accept(items));
		this.announcer.textContent = '';
	}

	/**
	 * Adds rows at the end, or just before the row `before` (the caller checked it is shown). A
	 * child's row goes in its block: the host sent it before the row after that block ends, or
	 * before a row of the block itself (its turn-start reminders above its prompt).
	 */
	append(items: readonly TranscriptItem[], before?: string): void {
		const rows = this.accept(items, before);
		this.list.insert(rows, before === undefined ? undefined : this.list.indexOfKey(before));
		this.announce(announcement(rows.map((id) => this.shown(id))));
	}

	/** Rows shown already, changed (a child's header as it runs, a user row's chips and hook context). */
	update(items: readonly TranscriptItem[]): void {
		for (const item of items) {
			if (!this.items.has(item.id)) {
				continue;
			}
			this.items.set(item.id, item);
			// Mounted (or kept while open): changed in place; otherwise it is made from the new item when it mounts.
			const row = this.rowShowing(item);
			if (item.kind === 'agent') {
				this.blocks.get(item.path)?.update(item);
			} else if (row instanceof HTMLElement) {
				updateRow(row, item);
			}
			if (row instanceof HTMLElement) {
				markRolledBack(row, item);
			}
		}
	}

	/** The running children (and, from a snapshot, their streams' text so far) for their blocks' live part. */
	showChildren(children: readonly ChildAgentView[], streams: readonly StreamView[] = []): void {
		// Only the blocks of children running now or until now: a long chat has many finished ones.
		const paths = new Set([...this.children.map((child) => child.path), ...children.map((child) => child.path)]);
		this.children = children;
		const byPath = new Map(children.map((child) => [child.path, child]));
		for (const path of paths) {
			const child = byPath.get(path);
			this.blocks.get(path)?.child(child, child?.streaming ? streams.find((stream) => stream.requestId === child.streaming?.requestId) : undefined);
		}
	}

	/** A `text.streamed` delta for a child's response; false when no child streams it. */
	streamText(requestId: string, text: string): boolean {
		const child = this.children.find((candidate) => candidate.streaming?.requestId === requestId);
		return child !== undefined && (this.blocks.get(child.path)?.streamText(requestId, text) ?? false);
	}

	/** Whether the row `id` was received (a child's rows included). */
	has(id: string): boolean {
		return this.items.has(id);
	}

	get size(): number {
		return this.items.size;
	}

	isAtEnd(): boolean {
		return this.list.isAtEnd();
	}

	scrollToEnd(): void {
		this.list.scrollToEnd();
	}

	/** The ids of the list's own rows not received before, in order; a child's rows go in its block. */
	private accept(items: readonly TranscriptItem[], before?: string): string[] {
		const rows: string[] = [];
		for (const item of items) {
			if (this.items.has(item.id)) {
				continue;
			}
			this.items.set(item.id, item);
			if (item.kind === 'agent') {
				const block = new AgentBlock(item, (id) => this.row(id));
				this.blocks.set(item.path, block);
				const child = this.children.find((candidate) => candidate.path === item.path);
				if (child) {
					block.child(child, undefined);
				}
			}
			const path = conversationOfItem(item);
			const block = path === undefined ? undefined : this.blocks.get(path);
			if (block) {
				const next = before === undefined ? undefined : this.items.get(before);
				const within = next !== undefined && conversationOfItem(next) === path;
				block.add([item.id], within ? before : undefined);
				if (item.kind === 'assistant') {
					block.finishStream();
				}
			} else {
				rows.push(item.id);
			}
		}
		return rows;
	}

	/** The element showing `item` now, if any: mounted in the list or in its block, or kept while open. */
	private rowShowing(item: TranscriptItem): Element | undefined {
		if (item.kind === 'agent') {
			return this.blocks.get(item.path)?.element;
		}
		const path = conversationOfItem(item);
		const inList = () => Array.from(this.element.children).find((child) => child.getAttribute('data-id') === item.id);
		return this.kept.get(item.id) ?? (path === undefined ? inList() : this.blocks.get(path)?.mountedRow(item.id));
	}

		private shown(id: string): TranscriptItem | undefined {
		return this.items.get(id);
	}

	private row(id: string): HTMLElement {
		const kept = this.kept.get(id);
		if (kept) {
			this.kept.delete(id);
			return kept;
		}
		const item = this.shown(id);
		if (item?.kind === 'agent') {
			const block = this.blocks.get(item.path)?.element;
			if (block) {
				markRolledBack(block, item);
			}
			return block ?? el('li', { 'data-id': id, hidden: true });
		}
		const row = item ? rowFor(item) : el('li', { 'data-id': id, hidden: true });
		row.setAttribute('role', 'article');
		markRolledBack(row, item);
		return row;
	}

	private announce(text: string): void {
		if (text === '') {
			return;
		}
		// The same words again must still be heard: a live region speaks only when its text changes.
		this.announcer.textContent = this.announcer.textContent === text ? `${text}.` : text;
	}

	private fontSize(width: number): number {
		if (this.metrics.width !== width) {
			this.metrics = { width, fontSize: Number.parseFloat(getComputedStyle(this.element).fontSize) || 13 };
		}
		return this.metrics.fontSize;
	}
}
