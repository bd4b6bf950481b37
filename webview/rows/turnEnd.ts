// How a turn ended, when that is news: the host sends no row for a turn that simply finished.
// The chat's last turn, when it failed, offers Retry beside its error: the same message again.
import type { TurnEndItem } from '../../src/protocol/messages';
import { el, icon } from '../dom';
import { post } from '../host';
import { rowElement } from './common';

const OUTCOMES = {
	done: { icon: 'check', text: 'Done.' },
	interrupted: { icon: 'debug-stop', text: 'Stopped.' },
	failed: { icon: 'error', text: 'The turn failed.' },
	'step-limit': { icon: 'warning', text: 'Stopped at the step limit (aside.agent.maxSteps).' },
} as const;

function retryButton(turnId: string): HTMLButtonElement {
	const button = el('button', { type: 'button', class: 'button-secondary turn-end-retry', title: 'Send the same message again, with the same attachments' }, icon('refresh'), 'Retry');
	// The row loses the button once the new turn's message is recorded (the host updates it).
	button.addEventListener('click', () => {
		post({ type: 'turn.retry', turnId });
	});
	return button;
}

export function turnEndRow(item: TurnEndItem): HTMLLIElement {
	const outcome = OUTCOMES[item.outcome];
	return rowElement(
		item,
		`turn-end-${item.outcome}`,
		icon(outcome.icon),
		el(
			'div',
			{ class: 'turn-end-body' },
			el('span', { class: 'turn-end-text' }, outcome.text),
			item.error ? el('div', { class: 'turn-end-error' }, item.error) : null,
			item.retry ? retryButton(item.retry.turnId) : null,
		),
	);
}

/** The host changed the row in place: only its Retry comes or goes. */
export function updateTurnEndRow(row: HTMLElement, item: TurnEndItem): void {
	const shown = row.querySelector('.turn-end-retry');
	if (item.retry === undefined) {
		shown?.remove();
	} else if (!shown) {
		row.querySelector('.turn-end-body')?.append(retryButton(item.retry.turnId));
	}
}
