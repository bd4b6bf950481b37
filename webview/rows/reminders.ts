// What the harness told the model on its own. One collapsed row per injection; expanded, every
// reminder with its key, why it fired, and its body exactly as sent. Rows come only from
// structure (reminders items, tool notices), never from scanning text for <system-reminder>.
import type { ReminderEntryView, RemindersItem } from '../../src/protocol/messages';
import { disclosure } from '../disclosure';
import { el } from '../dom';
import { lineCount, plural } from '../format';
import { rowElement } from './common';

export function remindersLabel(item: RemindersItem): string {
	const labels = item.entries.map((entry) => entry.label).join(', ');
	return `◇ ${plural(item.entries.length, 'system reminder', 'system reminders')} (${labels})`;
}

function entryView(entry: ReminderEntryView): HTMLElement {
	return el(
		'div',
		{ class: 'reminder-entry', 'data-key': entry.key },
		el('div', { class: 'reminder-entry-head' }, el('span', { class: 'reminder-label' }, entry.label), el('code', { class: 'reminder-key' }, entry.key)),
		el('div', { class: 'reminder-reason' }, el('span', { class: 'reminder-field' }, 'Why: '), entry.reason),
		el('pre', { class: 'reminder-body', tabindex: '0', 'aria-label': `Body of ${entry.key}` }, entry.body),
	);
}

export function remindersRow(item: RemindersItem): HTMLLIElement {
	const when = item.phase === 'turn-start' ? 'at the start of this turn' : 'during this turn';
	const { button, panel } = disclosure({
		buttonClass: 'reminders-toggle',
		panelClass: 'reminders-panel',
		label: [el('span', { class: 'reminders-label' }, remindersLabel(item))],
		// The label may be cut short in a narrow view; the tooltip has all of it.
		title: `${remindersLabel(item)}: what Aside added to the conversation ${when}`,
		body: () => item.entries.map(entryView),
	});
	return rowElement(item, `reminders-${item.phase}`, button, panel);
}

/** A notice that rode a tool result, as its own collapsed row. */
export function noticeRow(notice: { readonly key: string; readonly body: string }): HTMLElement {
	const { button, panel } = disclosure({
		buttonClass: 'notice-toggle',
		panelClass: 'notice-panel',
		label: [el('span', { class: 'reminders-label' }, `◇ System reminder (${plural(lineCount(notice.body), 'line', 'lines')})`)],
		title: `A notice Aside added after this tool result (${notice.key})`,
		body: () => [
			el('div', { class: 'reminder-entry-head' }, el('code', { class: 'reminder-key' }, notice.key)),
			el('pre', { class: 'reminder-body', tabindex: '0', 'aria-label': `Body of ${notice.key}` }, notice.body),
		],
	});
	return el('div', { class: 'notice-row', 'data-kind': 'notice', 'data-key': notice.key }, button, panel);
}
