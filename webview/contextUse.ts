// The context-use line under the title: how full the model's context is, and what Aside's own
// reminders have cost of it in this session, per key. Expanding it shows the table; the numbers
// come from the host (reported usage, and an estimate of each block as sent).
import type { ContextUseView } from '../src/protocol/messages';
import { disclosure } from './disclosure';
import { el, icon } from './dom';
import { plural } from './format';

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const exact = new Intl.NumberFormat('en-US');

export function tokens(count: number): string {
	return compact.format(count).toLowerCase();
}

function usageText(context: ContextUseView): string {
	if (context.usedTokens === undefined) {
		return context.limitTokens === undefined ? 'Context: no request yet' : `Context: ${tokens(context.limitTokens)} tokens available`;
	}
	if (context.limitTokens === undefined) {
		return `Context: ${tokens(context.usedTokens)} tokens`;
	}
	const percent = Math.min(100, Math.round((100 * context.usedTokens) / context.limitTokens));
	return `Context: ${tokens(context.usedTokens)} / ${tokens(context.limitTokens)} tokens (${percent}%)`;
}

function costTable(context: ContextUseView): HTMLElement {
	if (context.reminders.length === 0) {
		return el('p', { class: 'context-empty' }, 'No system reminders have been sent in this chat yet.');
	}
	const total = context.reminders.reduce((sum, cost) => sum + cost.tokens, 0);
	const row = (cells: (string | HTMLElement)[], header = false) => el('tr', {}, ...cells.map((cell) => el(header ? 'th' : 'td', header ? { scope: 'col' } : {}, cell)));
	return el(
		'table',
		{ class: 'context-table' },
		el('caption', { class: 'sr-only' }, 'Estimated tokens of system reminders in this chat, per key'),
		el('thead', {}, row(['Reminder', 'Key', 'Sent', 'Tokens (est.)'], true)),
		el(
			'tbody',
			{},
			...context.reminders.map((cost) => row([cost.label, el('code', {}, cost.key), exact.format(cost.deliveries), `~${exact.format(cost.tokens)}`])),
		),
		el('tfoot', {}, row(['All reminders', '', '', `~${exact.format(total)}`])),
	);
}

export class ContextUseLine {
	private readonly usage = el('span', { class: 'context-usage' });
	private readonly bar = el('span', { class: 'context-bar-fill' });
	private readonly meter = el('span', { class: 'context-bar', role: 'meter', 'aria-label': 'Context used', 'aria-valuemin': '0', 'aria-valuemax': '100' }, this.bar);
	private readonly costLabel = el('span', { class: 'context-cost-label' });
	private readonly table = el('div', { class: 'context-cost-table' });
	readonly element: HTMLElement;
	private readonly toggle: HTMLButtonElement;
	private context: ContextUseView = { reminders: [] };

	constructor() {
		const { button, panel } = disclosure({
			buttonClass: 'context-toggle',
			panelClass: 'context-panel',
			label: [this.costLabel],
			title: 'What Aside\'s own reminders have cost in this chat (estimated: about four characters a token)',
			body: () => [this.table],
		});
		this.toggle = button;
		this.element = el('div', { class: 'context-line', role: 'group', 'aria-label': 'Context use' }, el('div', { class: 'context-summary' }, icon('dashboard'), this.usage, this.meter, button), panel);
	}

	update(context: ContextUseView): void {
		this.context = context;
		this.usage.textContent = usageText(context);
		const known = context.usedTokens !== undefined && context.limitTokens !== undefined;
		const percent = known ? Math.min(100, (100 * (context.usedTokens ?? 0)) / (context.limitTokens ?? 1)) : 0;
		this.meter.hidden = !known;
		this.meter.setAttribute('aria-valuenow', String(Math.round(percent)));
		this.bar.style.width = `${percent.toFixed(1)}%`;
		this.meter.classList.toggle('context-bar-high', percent >= 80);
		const total = context.reminders.reduce((sum, cost) => sum + cost.tokens, 0);
		const deliveries = context.reminders.reduce((sum, cost) => sum + cost.deliveries, 0);
		this.costLabel.textContent = `◇ reminders: ~${tokens(total)} tokens (${plural(deliveries, 'block', 'blocks')})`;
		this.table.replaceChildren(costTable(this.context));
		// Nothing sent yet is nothing to report: no "0 tokens (0 blocks)", and in a chat with
		// nothing known at all, no line.
		const noReminders = deliveries === 0;
		if (noReminders && this.toggle.getAttribute('aria-expanded') === 'true') {
			this.toggle.click();
		}
		this.toggle.hidden = noReminders;
		this.element.hidden = noReminders && context.usedTokens === undefined && context.limitTokens === undefined;
	}
}
