// A row a chat restore rolled back (the host marks it from the records: src/view/rolledBack.ts):
// it stays, dimmed but readable and still expandable; the first of them says "Rolled back" where
// it can be seen, and every one of them says so to a screen reader.
import type { TranscriptItem } from '../../src/protocol/messages';
import { el, icon, srOnly } from '../dom';

const LABEL_CLASS = 'rolled-back-label';
const SR_CLASS = 'rolled-back-sr';

/** Marks `row` as `item` says, or unmarks it; the same mark again changes nothing. */
export function markRolledBack(row: HTMLElement, item: Pick<TranscriptItem, 'rolledBack'> | undefined): void {
	const mark = item?.rolledBack;
	if (row.dataset.rolledBack === mark) {
		return;
	}
	row.querySelector(`:scope > .${LABEL_CLASS}`)?.remove();
	row.querySelector(`:scope > .${SR_CLASS}`)?.remove();
	row.classList.toggle('rolled-back', mark !== undefined);
	if (mark === undefined) {
		delete row.dataset.rolledBack;
		return;
	}
	row.dataset.rolledBack = mark;
	const spoken = srOnly('Rolled back: ');
	spoken.classList.add(SR_CLASS);
	row.prepend(spoken);
	if (mark === 'first') {
		// Seen, not read twice: the words above are what a screen reader hears.
		row.prepend(el('div', { class: LABEL_CLASS, 'aria-hidden': 'true', title: 'A restore of the chat rolled back this row and the ones after it, down to the restored row: they stay here to read, and the model no longer sees them' }, icon('discard'), 'Rolled back'));
	}
}
