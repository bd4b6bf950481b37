// The transcript list. Rows are appended as deltas arrive; a snapshot rebuilds the list.
import type { AgentStatus, TranscriptItem } from '../src/protocol/messages';
import { el, icon } from './dom';

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

function userRow(item: Extract<TranscriptItem, { kind: 'user' }>): HTMLLIElement {
	const when = new Date(item.at);
	return el(
		'li',
		{ class: 'row row-user', 'data-kind': 'user', 'data-id': item.id },
		el(
			'div',
			{ class: 'row-header' },
			icon('account'),
			el('span', { class: 'row-author' }, 'You'),
			el('time', { class: 'row-time', datetime: when.toISOString(), title: when.toLocaleString() }, timeFormat.format(when)),
		),
		el('div', { class: 'user-text' }, item.text),
	);
}

// Each new TranscriptItem kind must get its row here; until then this does not compile.
function rowFor(item: TranscriptItem): HTMLLIElement {
	return userRow(item);
}

export function emptyState(agent: AgentStatus): HTMLElement {
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
		agent.state === 'unavailable' ? el('p', { class: 'empty-state-status' }, icon('info'), ' ', agent.detail) : null,
	);
}

export class TranscriptView {
	readonly element = el('ol', { class: 'transcript', role: 'log', 'aria-label': 'Transcript', 'aria-live': 'polite' });
	private readonly ids = new Set<string>();

	reset(items: readonly TranscriptItem[]): void {
		this.ids.clear();
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
			fragment.append(rowFor(item));
		}
		this.element.append(fragment);
	}

	get size(): number {
		return this.ids.size;
	}
}
