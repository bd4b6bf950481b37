// The transcript list. Rows are appended as deltas arrive; a snapshot rebuilds the list.
import type { AgentStatus, TranscriptItem } from '../src/protocol/messages';
import { el, icon } from './dom';
import { rowFor } from './rows/index';

export function emptyState(status: AgentStatus): HTMLElement {
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
		status.state === 'unavailable' ? el('p', { class: 'empty-state-status' }, icon('info'), ' ', status.detail) : null,
	);
}

export class TranscriptView {
	readonly element = el('ol', { class: 'transcript', role: 'log', 'aria-label': 'Transcript', 'aria-live': 'polite' });
	private readonly ids = new Set<string>();
	/** The last row, when it is a user message: turn-start reminders that follow it go above it. */
	private openUserRow: HTMLElement | undefined;

	reset(items: readonly TranscriptItem[]): void {
		this.ids.clear();
		this.openUserRow = undefined;
		this.element.replaceChildren();
		this.append(items);
	}

	append(items: readonly TranscriptItem[]): void {
		const fragment = document.createDocumentFragment();
		for (const item of items) {
			// A delta replayed after a resync must not show a row twice.
			if (this.ids.has(item.id)) {
				continue;
			}
			this.ids.add(item.id);
			const row = rowFor(item);
			// The host records the user's message, then what was injected before the model saw it;
			// read top to bottom, the reminders came first.
			const aboveUser = item.kind === 'reminders' && item.phase === 'turn-start' ? this.openUserRow : undefined;
			if (row && aboveUser) {
				aboveUser.before(row);
			} else if (row) {
				fragment.append(row);
			}
			if (item.kind === 'user') {
				this.openUserRow = row ?? undefined;
			} else if (!aboveUser) {
				this.openUserRow = undefined;
			}
		}
		this.element.append(fragment);
	}

	get size(): number {
		return this.ids.size;
	}
}
