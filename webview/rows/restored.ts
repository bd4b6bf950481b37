// A restore: `⟲ Restored chat to before "…"`, with what was rolled back (turns), what became of
// each file, and the mode when it went back with a rolled-back plan approval. The rows of what was
// rolled back stay above it.
import type { RestoreItem } from '../../src/protocol/messages';
import { disclosure } from '../disclosure';
import { el } from '../dom';
import { restoredLabel, undoControl } from '../restore';
import { modeLabel } from '../toolbar';
import { rowElement, timeElement } from './common';

const OUTCOMES: Readonly<Record<RestoreItem['files'][number]['action'], [done: string, left: string]>> = {
	change: ['changed back', 'not changed back'],
	recreate: ['recreated', 'not recreated'],
	delete: ['deleted', 'not deleted'],
	keep: ['kept (changed since Aside created it)', 'kept (changed since Aside created it)'],
	'person-changed': ['changed back, over your changes', 'kept: you changed it since'],
	missing: ['not restored: its earlier content is no longer kept', 'not restored: its earlier content is no longer kept'],
	outside: ['not restored: outside the workspace folders', 'not restored: outside the workspace folders'],
};

function rolledBack(item: RestoreItem): string {
	const parts: string[] = [];
	if (item.scope !== 'files') {
		parts.push(`${item.turns === 1 ? '1 turn' : `${item.turns} turns`} rolled back`);
	}
	if (item.scope !== 'chat') {
		parts.push(item.files.length === 1 ? '1 file' : `${item.files.length} files`);
	}
	if (item.mode !== undefined) {
		parts.push(`mode back to ${modeLabel(item.mode)}`);
	}
	return parts.join(', ');
}

/** A later restore undid this one: its Undo… is off (a row made later is made so from the item). */
export function updateRestoredRow(row: HTMLElement, item: RestoreItem): void {
	const undo = row.querySelector<HTMLButtonElement>('.restore-undo');
	if (item.undone === true && undo) {
		undo.replaceWith(undoControl(item.id, true));
	}
}

export function restoredRow(item: RestoreItem): HTMLLIElement {
	const label = `${restoredLabel(item.scope, item.message, item.undoes !== undefined)} · ${rolledBack(item)}`;
	const { button, panel } = disclosure({
		buttonClass: 'restored-toggle',
		panelClass: 'restored-panel',
		label: [el('span', { class: 'restored-label' }, label)],
		title: `${label}: the rows above it stay visible${item.scope === 'files' ? '' : '; the chat continues from before that message'}`,
		body: () => [
			item.files.length === 0
				? el('p', {}, item.scope === 'chat' ? 'The files were not restored.' : 'No file needed restoring.')
				: el('ul', { class: 'restored-files' }, ...item.files.map((file) => el('li', { 'data-action': file.action }, el('code', {}, file.shown), ` ${OUTCOMES[file.action][file.done ? 0 : 1]}`))),
			...(item.mode === undefined ? [] : [el('p', { class: 'restored-mode' }, `The plan approval it rolled back had switched the chat's mode: it is back in ${modeLabel(item.mode)} mode, as before that approval.`)]),
		],
	});
	const undo = item.undoable ? undoControl(item.id, item.undone === true) : null;
	return rowElement(item, `restored-${item.scope}`, el('div', { class: 'restored-head' }, button, undo, timeElement(item.at)), panel);
}
