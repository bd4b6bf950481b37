// The person's decision on a proposed plan: approved (with the mode and the plan file), revised
// (with their feedback) or rejected, and the note they gave.
import type { PlanDecisionItem } from '../../src/protocol/messages';
import { el, icon } from '../dom';
import { rowElement } from './common';

const DECISIONS = {
	approved: { icon: 'check', text: 'Plan approved' },
	revised: { icon: 'edit', text: 'Plan revision asked for' },
	rejected: { icon: 'circle-slash', text: 'Plan rejected' },
} as const;

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
			item.file === undefined ? null : el('div', { class: 'plan-decision-file' }, 'Saved as ', el('code', {}, item.file)),
			item.note === undefined ? null : el('div', { class: 'plan-decision-note' }, item.note),
		),
	);
}
