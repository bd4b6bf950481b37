// The goal control (docs/goals.md): Set a goal in the header while the chat has none, and with one
// a line under the header, one row: the objective and its spend against the budget — or, once the
// budget is spent, "Budget spent" (its meaning on demand) and Raise budget. The form sets or
// changes it — objective, budget, "implements the approved plan" — with Complete and Clear.
// Keyboard only works throughout: native buttons and fields, Escape closes the form, Enter in the
// budget (Ctrl+Enter anywhere) saves. No <form> or <input> (the view's hostile-content checks
// allow none but the composer's): the fields are textareas and the plan choice a checkbox button.
// Goal text is the person's (or anything): it only ever goes in as textContent or a field's value.
import type { HostMessage, ViewMessage } from '../src/protocol/messages';
import type { ViewFeaturePart } from './featurePart';
import { type GoalView, MAX_GOAL_BUDGET_TOKENS, MAX_GOAL_OBJECTIVE_CHARS } from '../src/protocol/goal';
import { el, icon, uniqueId } from './dom';
import { tokens } from './contextDetails';
import { popover } from './popover';

type GoalMessage = Extract<ViewMessage, { type: 'goal.set' | 'goal.end' }>;

/** A token count as typed: `200000`, `200,000`, `200k`, `1.5m`; undefined when it is none. */
export function parseBudget(text: string): number | undefined {
	const match = /^(\d+(?:[.,]\d+)*)\s*([km]?)$/i.exec(text.trim().replace(/_/g, ''));
	if (!match) {
		return undefined;
	}
	const unit = (match[2] ?? '').toLowerCase();
	const value = Number((match[1] ?? '').replace(/,/g, '')) * (unit === 'k' ? 1_000 : unit === 'm' ? 1_000_000 : 1);
	return Number.isInteger(value) && value > 0 && value <= MAX_GOAL_BUDGET_TOKENS ? value : undefined;
}

/** The spend in a sentence: "12k / 200k tokens (6%)", or "12k tokens" without a budget. */
export function spendText(spent: number, budget: number | undefined): string {
	return budget === undefined ? `${tokens(spent)} tokens` : `${tokens(spent)} / ${tokens(budget)} tokens (${Math.floor((100 * spent) / budget)}%)`;
}

/** What the requests read from the provider's cache, beside the spend: it is not charged. */
function cacheText(cacheRead: number | undefined): string {
	return cacheRead === undefined ? '' : ` · ${tokens(cacheRead)} cached prompt tokens read, not charged`;
}

/** The spend as the goal line has room for it: "12k / 200k (6%)", or "12k tokens". */
function shortSpend(spent: number, budget: number | undefined): string {
	return budget === undefined ? `${tokens(spent)} tokens` : `${tokens(spent)} / ${tokens(budget)} (${Math.floor((100 * spent) / budget)}%)`;
}

export class GoalControl implements ViewFeaturePart {
	readonly id = 'goal';
	/** Set a goal, in the header, while the chat has none (`/goal` does the same). */
	readonly setButton = el('button', { type: 'button', class: 'icon-button goal-set', 'aria-label': 'Set a goal', title: 'Set a goal for this chat: an objective, and a token budget if you want one' }, icon('target'));
	private view: GoalView = { active: null };
	private readonly mark = icon('target', 'goal-mark');
	private readonly summary = el('span', { class: 'goal-summary' });
	private readonly spend = el('span', { class: 'goal-spend' });
	private readonly bar = el('span', { class: 'goal-bar-fill' });
	private readonly meter = el('span', { class: 'goal-bar', role: 'meter', 'aria-label': 'Goal budget spent', 'aria-valuemin': '0', 'aria-valuemax': '100', hidden: true }, this.bar);
	private readonly edit = el('button', { type: 'button', class: 'icon-button goal-edit', 'aria-expanded': 'false' }, icon('edit'));
	private readonly spentToggle = el('button', { type: 'button', class: 'line-button goal-spent-toggle', hidden: true }, 'Budget spent', icon('chevron-down', 'goal-spent-chevron'));
	private readonly exhausted = el('p', { class: 'goal-exhausted', id: uniqueId('goal-exhausted') });
	/** Says it when the budget runs out: the explanation itself waits behind its button. */
	private readonly announcer = el('span', { class: 'sr-only', role: 'status' });
	/** "Raise" on screen, where 300 px leave the objective little room; its name says the rest. */
	private readonly raise = el('button', { type: 'button', class: 'button-secondary goal-raise', 'aria-label': 'Raise budget', title: 'Raise the token budget' }, 'Raise');
	private readonly row = el('div', { class: 'goal-row' }, this.mark, this.summary, this.meter, this.spend, this.spentToggle, this.raise, this.edit, this.announcer);
	/** In the page only while open: its fields are no textboxes of the chat otherwise. */
	private readonly form = el('div', { class: 'goal-form', role: 'group', 'aria-label': 'Set the goal' });
	private readonly objective = el('textarea', { class: 'goal-objective', rows: '2', maxlength: String(MAX_GOAL_OBJECTIVE_CHARS), placeholder: 'What should this chat achieve?' });
	private readonly budget = el('textarea', { class: 'goal-budget', rows: '1', placeholder: 'none, or 200k', spellcheck: 'false' });
	private readonly implementsPlan = el('button', { type: 'button', class: 'goal-plan', role: 'checkbox', 'aria-checked': 'false' }, icon('check'));
	private readonly planLabel = el('span', { class: 'goal-plan-file' });
	private readonly planRow: HTMLElement;
	private readonly error = el('p', { class: 'goal-error', role: 'alert', hidden: true });
	private readonly save = el('button', { type: 'button', class: 'button-primary goal-save' }, 'Set goal');
	private readonly complete = el('button', { type: 'button', class: 'button-secondary goal-complete' }, icon('check'), 'Complete');
	private readonly clear = el('button', { type: 'button', class: 'button-secondary goal-clear' }, icon('close'), 'Clear');
	private readonly cancel = el('button', { type: 'button', class: 'button-secondary goal-cancel' }, 'Cancel');
	readonly element = el('div', { class: 'goal-line', role: 'group', 'aria-label': 'Goal', hidden: true }, this.row, this.exhausted);
	private readonly spentDetails = popover(this.spentToggle, this.exhausted, this.element, false);

	get headerActions(): readonly HTMLElement[] {
		return [this.setButton];
	}

	get top(): HTMLElement {
		return this.element;
	}

	receive(message: HostMessage): void {
		if (message.type === 'goal.changed') {
			this.update(message.goal);
		} else if (message.type === 'goal.open') {
			this.open();
		}
	}

	constructor(private readonly post: (message: GoalMessage) => void) {
		const objectiveId = uniqueId('goal-objective');
		const budgetId = uniqueId('goal-budget');
		this.objective.id = objectiveId;
		this.budget.id = budgetId;
		const planText = el('span', { id: uniqueId('goal-plan-text') }, 'Implements the approved plan ', this.planLabel);
		this.implementsPlan.setAttribute('aria-labelledby', planText.id);
		this.planRow = el('div', { class: 'goal-plan-row' }, this.implementsPlan, planText);
		this.implementsPlan.addEventListener('click', () => {
			this.setPlanChecked(this.implementsPlan.getAttribute('aria-checked') !== 'true');
		});
		this.form.append(
			el('label', { class: 'goal-label', for: objectiveId }, 'Goal'),
			this.objective,
			el('label', { class: 'goal-label', for: budgetId }, 'Token budget (input + output, sub-agents included)'),
			this.budget,
			this.planRow,
			this.error,
			el('div', { class: 'goal-actions' }, this.save, this.complete, this.clear, this.cancel),
		);
		for (const opener of [this.edit, this.setButton]) {
			opener.addEventListener('click', () => {
				if (!this.form.isConnected) {
					this.open();
				} else {
					this.close();
				}
			});
		}
		this.raise.addEventListener('click', () => {
			this.open('budget');
		});
		this.cancel.addEventListener('click', () => {
			this.close();
		});
		this.form.addEventListener('keydown', (event) => {
			if (event.key === 'Escape') {
				event.preventDefault();
				event.stopPropagation();
				this.close();
			} else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey || event.target === this.budget)) {
				event.preventDefault();
				this.submit();
			}
		});
		this.save.addEventListener('click', () => {
			this.submit();
		});
		this.complete.addEventListener('click', () => {
			this.post({ type: 'goal.end', how: 'completed' });
			this.close();
		});
		this.clear.addEventListener('click', () => {
			this.post({ type: 'goal.end', how: 'cleared' });
			this.close();
		});
		this.render();
	}

	update(view: GoalView): void {
		this.view = view;
		this.render();
	}

	/** Opens the form with the focus in it (`/goal`, Set a goal, the edit button; `budget`: Raise budget). */
	open(focus: 'objective' | 'budget' = 'objective'): void {
		const { active, approvedPlan } = this.view;
		this.objective.value = active?.objective ?? '';
		const raised = active?.budget === undefined ? undefined : Math.max(active.budget * 2, active.spent + active.budget);
		this.budget.value = focus === 'budget' && raised !== undefined ? String(Math.min(raised, MAX_GOAL_BUDGET_TOKENS)) : active?.budget === undefined ? '' : String(active.budget);
		this.setPlanChecked(active ? active.plan !== undefined && active.plan === approvedPlan : approvedPlan !== undefined);
		this.error.hidden = true;
		this.spentDetails.setOpen(false);
		this.element.append(this.form);
		this.render();
		(focus === 'budget' ? this.budget : this.objective).focus();
		if (focus === 'budget') {
			this.budget.select();
		}
	}

	private close(): void {
		this.form.remove();
		this.render();
		(this.view.active ? this.edit : this.setButton).focus();
	}

	private submit(): void {
		const objective = this.objective.value.trim();
		const typed = this.budget.value.trim();
		const budget = typed === '' || typed.toLowerCase() === 'none' ? null : parseBudget(typed);
		if (objective === '') {
			this.fail('Say what the goal is.', this.objective);
			return;
		}
		if (budget === undefined) {
			this.fail(`The budget is a number of tokens from 1 to ${MAX_GOAL_BUDGET_TOKENS.toLocaleString('en-US')} (200000, 200k, 1.5m), or empty for none.`, this.budget);
			return;
		}
		const planOffered = this.view.approvedPlan !== undefined;
		this.post({ type: 'goal.set', objective, budget, ...(planOffered ? { implementsPlan: this.implementsPlan.getAttribute('aria-checked') === 'true' } : {}) });
		this.close();
	}

	private setPlanChecked(checked: boolean): void {
		this.implementsPlan.setAttribute('aria-checked', String(checked));
		this.implementsPlan.classList.toggle('goal-plan-checked', checked);
	}

	private fail(text: string, field: HTMLElement): void {
		this.error.textContent = text;
		this.error.hidden = false;
		field.focus();
	}

	private render(): void {
		const { active, approvedPlan, readOnly } = this.view;
		if (readOnly === true) {
			this.form.remove();
		}
		const editing = this.form.isConnected;
		// The line is there for a goal, or for the form that sets one; the header's button while there is neither.
		this.element.hidden = !active && !editing;
		this.row.hidden = !active;
		const hadFocus = document.activeElement === this.setButton;
		this.setButton.hidden = active !== null || readOnly === true;
		if (hadFocus && this.setButton.hidden && active) {
			// The goal just set: the focus stays with the control, now on the line.
			this.edit.focus();
		}
		this.summary.textContent = active ? active.objective : '';
		this.summary.title = active ? active.objective : '';
		const spent = active?.exhausted === true;
		this.mark.classList.toggle('codicon-target', !spent);
		this.mark.classList.toggle('codicon-warning', spent);
		this.mark.classList.toggle('goal-mark-spent', spent);
		this.spend.hidden = spent;
		this.spend.textContent = active ? shortSpend(active.spent, active.budget) : '';
		this.spend.title = active ? `Spent: ${spendText(active.spent, active.budget)}${cacheText(active.cacheRead)}` : '';
		const percent = active?.budget === undefined ? undefined : Math.min(100, (100 * active.spent) / active.budget);
		this.meter.hidden = percent === undefined || spent;
		this.bar.style.width = `${(percent ?? 0).toFixed(1)}%`;
		this.meter.setAttribute('aria-valuenow', String(Math.floor(percent ?? 0)));
		this.meter.classList.toggle('goal-bar-high', (percent ?? 0) >= 80);
		const label = active ? 'Change the goal' : 'Set a goal';
		this.edit.setAttribute('aria-label', label);
		this.edit.title = label;
		this.edit.hidden = readOnly === true;
		for (const opener of [this.edit, this.setButton]) {
			opener.setAttribute('aria-expanded', String(editing));
		}
		this.save.textContent = active ? 'Save' : 'Set goal';
		this.complete.hidden = !active;
		this.clear.hidden = !active;
		this.planRow.hidden = approvedPlan === undefined;
		this.planLabel.textContent = approvedPlan ? `(${approvedPlan.split(/[\\/]/).at(-1) ?? approvedPlan})` : '';
		this.planLabel.title = approvedPlan ?? '';
		const explanation = spent ? `Token budget spent (${spendText(active.spent, active.budget)}): the agent stops after each step until you raise the budget.` : '';
		this.exhausted.textContent = explanation;
		this.spentToggle.hidden = !spent;
		this.spentToggle.title = explanation;
		if (!spent) {
			this.spentDetails.setOpen(false);
		}
		if (this.announcer.textContent !== explanation) {
			this.announcer.textContent = explanation;
		}
		this.raise.hidden = !spent || readOnly === true;
	}
}
