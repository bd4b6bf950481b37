// How a turn ended, when that is news: the host sends no row for a turn that simply finished.
import type { TurnEndItem } from '../../src/protocol/messages';
import { el, icon } from '../dom';
import { rowElement } from './common';

const OUTCOMES = {
	done: { icon: 'check', text: 'Done.' },
	interrupted: { icon: 'debug-stop', text: 'Stopped.' },
	failed: { icon: 'error', text: 'The turn failed.' },
	'step-limit': { icon: 'warning', text: 'Stopped at the step limit (aside.agent.maxSteps).' },
} as const;

export function turnEndRow(item: TurnEndItem): HTMLLIElement {
	const outcome = OUTCOMES[item.outcome];
	return rowElement(
		item,
		`turn-end-${item.outcome}`,
		icon(outcome.icon),
		el('div', { class: 'turn-end-body' }, el('span', { class: 'turn-end-text' }, outcome.text), item.error ? el('div', { class: 'turn-end-error' }, item.error) : null),
	);
}
