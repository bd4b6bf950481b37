// The person's decision on a proposed plan: approved (with the mode and a link to the plan file),
// revised (with their feedback) or rejected, and the note they gave. The link names the decision,
// not the path: the host opens the file that approval saved.
import type { PlanDecisionItem } from '../../src/protocol/messages';
import { el, icon } from '../dom';
import { post } from '../host';
import { rowElement } from './common';

const DECISIONS = {
	approved: { icon: 'check', text: 'Plan approved' },
	revised: { icon: 'edit', text: 'Plan revision asked for' },
	rejected: { icon: 'circle-slash', text: 'Plan rejected' },
} as const;

/** The file's own name (`plan-1.md`); the whole path is its title. */
export function fileName(path: string): string {
	return path.split(/[\\/]/).filter((part) => part !== '').at(-1) ?? path;
}

/** The button that asks the host to open the plan file approval `decision` saved. */
export function planFileLink(decision: string, file: string): HTMLButtonElement {
	const name = fileName(file);
	const button = el('button', { type: 'button', class: 'plan-file-link', 'data-decision': decision, title: file, 'aria-label': `Open the plan, ${name}` }, icon('go-to-file'), el('span', { class: 'plan-file-name' }, name));
	button.addEventListener('click', () => {
		post({ type: 'plan.open', decision });
	});
	return button;
}

export function planDecisionRow(item: PlanDecisionItem): HTMLLIElement {
	const decision = DECISIONS[item.decision];
	return rowElement(
		item,
		`plan-decision-${item.decision}`,
		icon(decision.icon),
		el(
			'div',
			{ class: 'plan-decision-body' },
			el('span', { class: 'plan-decision-text' }, item.mode ? `${decision.text}: implemented in ${item.mode} mode.` : `${decision.text}.`),
			item.file === undefined ? null : planFileLink(item.id, item.file),
			item.note === undefined ? null : el('div', { class: 'plan-decision-note' }, item.note),
		),
	);
}
