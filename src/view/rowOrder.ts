// Where each shown row goes in the chat: the rows of each conversation as a block, a child's block
// after its header, the turn-start reminders above the message they came with.
import { conversationOfItem, type TranscriptItem } from '../protocol/messages';
import { isShown } from './rows';

/** Where a row goes: after the last row, or just before the row with the id `before`. */
export interface RowPlacement {
	readonly row: TranscriptItem;
	readonly before?: string;
}

/** The rows of one conversation, the root's or a child's, in display order. */
interface Block {
	readonly entries: Entry[];
	/** Where its header is in its parent's block; absent for the root's. */
	readonly header?: { readonly parent: Block; readonly index: number };
	/** Its last row is a user message that nothing has followed yet. */
	userIsLast: boolean;
}

interface Entry {
	row: TranscriptItem;
	/** A child's header row: the child's own rows. */
	readonly child?: Block;
}

/**
 * The shown rows in display order. Read top to bottom, what was injected before the model saw a
 * message comes first: the host records the user's message, then (once the request is accepted)
 * the turn-start reminders, and those go above the message. Mid-turn ones stay where delivered.
 * A child's rows follow its header row, together, however its records interleave with others':
 * each conversation is a block, and a row goes at the end of its own block. A header never moves
 * in its parent's block (only a last user row does), so where a block ends is found in O(depth).
 */
export class RowOrder {
	private readonly root: Block = { entries: [], userIsLast: false };
	private readonly blocks = new Map<string, Block>();
	private readonly entries = new Map<string, Entry>();
	private flat: TranscriptItem[] | undefined = [];

	/** Every row in display order (made again after a change, on demand). */
	get rows(): readonly TranscriptItem[] {
		this.flat ??= this.flatten();
		return this.flat;
	}

	/** Takes the next item in record order: where its row goes, or undefined when it is not shown. */
	place(item: TranscriptItem): RowPlacement | undefined {
		// A child's row whose header never came (a damaged transcript) is shown at the root's level.
		const path = conversationOfItem(item);
		const block = (path === undefined ? undefined : this.blocks.get(path)) ?? this.root;
		if (!isShown(item)) {
			block.userIsLast = false;
			return undefined;
		}
		this.flat = undefined;
		const last = block.entries.at(-1);
		if (item.kind === 'reminders' && item.phase === 'turn-start' && block.userIsLast && last) {
			const entry: Entry = { row: item };
			block.entries.splice(block.entries.length - 1, 0, entry);
			this.entries.set(item.id, entry);
			return { row: item, before: last.row.id };
		}
		const entry: Entry = item.kind === 'agent' ? { row: item, child: { entries: [], header: { parent: block, index: block.entries.length }, userIsLast: false } } : { row: item };
		if (entry.child && item.kind === 'agent') {
			this.blocks.set(item.path, entry.child);
		}
		block.entries.push(entry);
		this.entries.set(item.id, entry);
		block.userIsLast = item.kind === 'user';
		const before = this.after(block);
		return before === undefined ? { row: item } : { row: item, before };
	}

	/** Replaces a row shown already (a child's header as it runs, a user row's chips); false when there is none of its id. */
	replace(item: TranscriptItem): boolean {
		const entry = this.entries.get(item.id);
		if (!entry) {
			return false;
		}
		entry.row = item;
		this.flat = undefined;
		return true;
	}

	/** The first row after this block's last: what a row added to its end goes before (undefined: the end). */
	private after(block: Block): string | undefined {
		for (let current = block; current.header; current = current.header.parent) {
			const next = current.header.parent.entries[current.header.index + 1];
			if (next) {
				return next.row.id;
			}
		}
		return undefined;
	}

	private flatten(): TranscriptItem[] {
		const rows: TranscriptItem[] = [];
		const visit = (block: Block): void => {
			for (const entry of block.entries) {
				rows.push(entry.row);
				if (entry.child) {
					visit(entry.child);
				}
			}
		};
		visit(this.root);
		return rows;
	}
}

/** The rows these items show, in display order (what a snapshot carries). */
export function displayRows(items: readonly TranscriptItem[]): TranscriptItem[] {
	const order = new RowOrder();
	for (const item of items) {
		order.place(item);
	}
	return [...order.rows];
}
