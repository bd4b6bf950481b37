// The plan card: the plan the model proposed, waiting for the person (`agent.plan`), as Markdown
// built from the host's structure (the host found the plan in the answer; nothing here looks for
// tags), with the mode to implement it in, a note (the feedback, for Revise) and Approve, Revise
// and Reject. Shown above the composer, like the approval card; the host clears it on a decision.
import { MAX_PLAN_NOTE_CHARS, type PendingPlanView, type PermissionMode, type ViewMessage } from '../src/protocol/messages';
import { el, icon, uniqueId } from './dom';
import { renderMarkdown } from './markdown/render';

const MODE_LABELS: Readonly<Record<string, string>> = { ask: 'Ask', 'auto-edit': 'Auto-edit', 'full-access': 'Full access' };

function modeLabel(mode: PermissionMode): string {
	return MODE_LABELS[mode] ?? mode;
}

export class PlanCard {
	private readonly announcer = el('span', { class: 'sr-only', 'aria-live': 'polite' });
	private readonly slot = el('div', { class: 'plan-card-slot' });
	readonly element = el('div', { class: 'plan-slot' }, this.announcer, this.slot);
	private current: PendingPlanView | undefined;
	/** Makes the card's buttons work again after a decision the host refused. */
	private unlock: (() => void) | undefined;

	constructor(
		private readonly post: (message: Extract<ViewMessage, { type: 'plan.decide' }>) => void,
		private readonly afterClose: () => void,
	) {}

	update(plan: PendingPlanView | undefined): void {
		// The same proposal again (every agent.changed repeats it): keep the note and the focus.
		if (plan?.proposalId === this.current?.proposalId) {
			return;
		}
		const hadFocus = this.element.contains(document.activeElement);
		this.current = plan;
		this.unlock = undefined;
		const card = plan ? this.card(plan) : null;
		this.slot.replaceChildren(...(card ? [card] : []));
		this.announcer.textContent = plan ? 'A plan was proposed: approve, revise or reject it.' : '';
		if (hadFocus && !card) {
			this.afterClose();
		}
	}

	/** The host said why a decision could not be taken (a notice), and the plan still waits: it may be tried again. */
	refused(): void {
		this.unlock?.();
	}

	private card(plan: PendingPlanView): HTMLElement {
		const titleId = uniqueId('plan-title');
		const modeId = uniqueId('plan-mode');
		const noteId = uniqueId('plan-note');
		const mode = el('select', { class: 'plan-mode', id: modeId }, ...plan.modes.map((option) => el('option', { value: option, selected: option === plan.mode }, modeLabel(option))));
		const note = el('textarea', {
			class: 'plan-note',
			id: noteId,
			rows: '2',
			maxlength: String(MAX_PLAN_NOTE_CHARS),
			placeholder: 'Feedback for Revise, or a note for Approve or Reject',
		});
		const approve = el('button', { type: 'button', class: 'button-primary plan-approve' }, icon('check'), 'Approve');
		const revise = el('button', { type: 'button', class: 'button-secondary plan-revise' }, icon('edit'), 'Revise');
		const reject = el('button', { type: 'button', class: 'button-secondary plan-reject' }, icon('circle-slash'), 'Reject');
		const problem = el('div', { class: 'plan-problem', role: 'alert' });
		let decided = false;
		const decide = (decision: 'approve' | 'revise' | 'reject') => {
			if (decided) {
				return;
			}
			const text = note.value.trim().slice(0, MAX_PLAN_NOTE_CHARS);
			if (decision === 'revise' && text === '') {
				problem.textContent = 'Write what to change in the note, then press Revise.';
				note.focus();
				return;
			}
			decided = true;
			problem.textContent = '';
			this.post({
				type: 'plan.decide',
				proposalId: plan.proposalId,
				decision,
				...(decision === 'approve' ? { mode: mode.value as PermissionMode } : {}),
				...(text ? { note: text } : {}),
			});
			// Sent: wait for the host to clear the card (or say why it could not, and leave it).
			for (const button of [approve, revise, reject]) {
				button.setAttribute('aria-disabled', 'true');
			}
		};
		this.unlock = () => {
			decided = false;
			for (const button of [approve, revise, reject]) {
				button.removeAttribute('aria-disabled');
			}
		};
		approve.addEventListener('click', () => {
			decide('approve');
		});
		revise.addEventListener('click', () => {
			decide('revise');
		});
		reject.addEventListener('click', () => {
			decide('reject');
		});
		return el(
			'section',
			{ class: 'plan-card', role: 'region', 'aria-labelledby': titleId, 'data-proposal-id': plan.proposalId, tabindex: '-1' },
			el('div', { class: 'plan-head' }, icon('checklist'), el('h2', { class: 'plan-title', id: titleId }, 'Proposed plan')),
			el('div', { class: 'plan-text markdown' }, renderMarkdown(plan.plan)),
			el('label', { class: 'plan-mode-label', for: modeId }, 'Implement in'),
			mode,
			el('label', { class: 'plan-note-label', for: noteId }, 'Note'),
			note,
			problem,
			el('div', { class: 'plan-actions' }, approve, revise, reject),
		);
	}
}
