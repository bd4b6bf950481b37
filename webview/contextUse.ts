// The context-use line under the title: how full the model's context is (with a marker where it
// is compacted automatically), what Aside's own reminders take of it, and the Compact button.
// Expanding it shows the details: the reminders' share, the last request's prompt cache, the
// compaction point, and the cost per key. The numbers come from the host (reported usage, and an
// estimate of each block as sent).
import type { CompactionItem, ContextUseView, ViewMessage } from '../src/protocol/messages';
import { disclosure } from './disclosure';
import { el, icon } from './dom';
import { clockTime, plural } from './format';

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const exact = new Intl.NumberFormat('en-US');

export function tokens(count: number): string {
	return compact.format(count).toLowerCase();
}

/** What started a compaction, in a word or two (the details panel says "Compacted at 14:02 (automatic)"). */
export const CAUSE_WORDS: Readonly<Record<CompactionItem['cause'], string>> = {
	manual: 'you asked',
	auto: 'automatic',
	overflow: 'the request was too long',
};

const COMPACT_TITLE = 'Compact chat: replace earlier turns with a summary';

/** What the view knows beside the context use that says why Compact cannot run now. */
export interface CompactSituation {
	readonly agent: 'unavailable' | 'ready' | 'running';
	readonly readOnly: boolean;
}

/** Why Compact cannot run now, in a sentence for its tooltip. */
export function compactRefusal(context: ContextUseView, situation: CompactSituation): string {
	if (situation.agent === 'running') {
		return 'Compact is not available while Aside works: wait for it to finish, or stop it.';
	}
	if (situation.readOnly) {
		return 'This chat is read-only here (another VS Code window writes it): it cannot be compacted here.';
	}
	if (situation.agent === 'unavailable') {
		return 'Compact needs a model to write the summary, and none is available.';
	}
	return context.compaction ? 'Nothing to compact: nothing was said since the chat was last compacted.' : 'Nothing to compact yet: send a message first.';
}

function percentOf(part: number, whole: number): number {
	return Math.min(100, Math.round((100 * part) / whole));
}

function usageText(context: ContextUseView): string {
	if (context.usedTokens === undefined) {
		return context.limitTokens === undefined ? 'Context: no request yet' : `Context: ${tokens(context.limitTokens)} tokens available`;
	}
	const estimated = context.estimated === true ? ' (est.)' : '';
	if (context.limitTokens === undefined) {
		return `Context: ${tokens(context.usedTokens)} tokens${estimated}`;
	}
	return `Context: ${tokens(context.usedTokens)} / ${tokens(context.limitTokens)} tokens (${percentOf(context.usedTokens, context.limitTokens)}%)${estimated}`;
}

/** The reminders' share of what is in context: "4 % of context", when both are known. */
function shareText(context: ContextUseView): string | undefined {
	const { remindersInContext, usedTokens } = context;
	return remindersInContext === undefined || usedTokens === undefined || usedTokens === 0 ? undefined : `${percentOf(remindersInContext, usedTokens)} % of context`;
}

function costLabel(context: ContextUseView): string {
	const total = context.reminders.reduce((sum, cost) => sum + cost.tokens, 0);
	const deliveries = context.reminders.reduce((sum, cost) => sum + cost.deliveries, 0);
	if (context.remindersInContext === undefined) {
		return deliveries === 0 ? 'Details' : `◇ reminders: ~${tokens(total)} tokens (${plural(deliveries, 'block', 'blocks')})`;
	}
	const share = shareText(context);
	return `◇ reminders ~${tokens(context.remindersInContext)} tokens${share === undefined ? '' : ` · ${share}`}`;
}

/** The lines above the table: the reminders in context, the prompt cache, the compaction point. */
function detailLines(context: ContextUseView): HTMLElement[] {
	const lines: HTMLElement[] = [];
	if (context.remindersInContext !== undefined) {
		const share = shareText(context);
		lines.push(
			el(
				'p',
				{ class: 'context-detail context-share' },
				`Reminders in context: ~${tokens(context.remindersInContext)} tokens${share === undefined ? '' : ` · ${share}`} (what the next request replays; the table counts every block sent in this chat).`,
			),
		);
	}
	if (context.cacheReadTokens !== undefined || context.cacheWriteTokens !== undefined) {
		lines.push(
			el(
				'p',
				{ class: 'context-detail context-cache', title: 'Of the last request\'s input: what the provider read from its prompt cache, and what it wrote to it' },
				`Last request, cache: ${tokens(context.cacheReadTokens ?? 0)} read · ${tokens(context.cacheWriteTokens ?? 0)} written`,
			),
		);
	}
	if (context.compaction) {
		const { at, cause, tokensBefore, tokensAfter } = context.compaction;
		const time = clockTime(at);
		lines.push(
			el(
				'p',
				{ class: 'context-detail context-compaction', title: `Compacted ${time.full}: the summary stands in for the turns before it` },
				`Compacted at ${time.text} (${CAUSE_WORDS[cause]}) · ${tokens(tokensBefore)} → ${tokens(tokensAfter)} tokens`,
			),
		);
	}
	return lines;
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
	/** Where the chat is compacted automatically (`autoCompactAt`), on the meter. */
	private readonly marker = el('span', { class: 'context-bar-marker', hidden: true });
	private readonly meter = el('span', { class: 'context-bar', role: 'meter', 'aria-label': 'Context used', 'aria-valuemin': '0', 'aria-valuemax': '100' }, this.bar, this.marker);
	private readonly costLabel = el('span', { class: 'context-cost-label' });
	private readonly details = el('div', { class: 'context-cost-table' });
	/** Focusable while it cannot run (aria-disabled), so its reason can be read. */
	private readonly compactButton = el('button', { type: 'button', class: 'icon-button context-compact', 'aria-label': COMPACT_TITLE, title: COMPACT_TITLE, hidden: true }, icon('fold'));
	readonly element: HTMLElement;
	private readonly toggle: HTMLButtonElement;
	private context: ContextUseView = { reminders: [] };
	private situation: CompactSituation = { agent: 'ready', readOnly: false };

	constructor(post: (message: Extract<ViewMessage, { type: 'compact' }>) => void) {
		const { button, panel } = disclosure({
			buttonClass: 'context-toggle',
			panelClass: 'context-panel',
			label: [this.costLabel],
			title: 'What is in the model\'s context, and what Aside\'s own reminders have cost in this chat (estimated: about four characters a token)',
			body: () => [this.details],
		});
		this.toggle = button;
		this.compactButton.addEventListener('click', () => {
			if (this.compactButton.getAttribute('aria-disabled') !== 'true') {
				post({ type: 'compact' });
			}
		});
		this.element = el(
			'div',
			{ class: 'context-line', role: 'group', 'aria-label': 'Context use' },
			el('div', { class: 'context-summary' }, icon('dashboard'), this.usage, this.meter, button, this.compactButton),
			panel,
		);
	}

	update(context: ContextUseView): void {
		this.context = context;
		this.usage.textContent = usageText(context);
		this.usage.title = context.estimated === true ? 'Estimated by Aside after the compaction; the next answer reports the real count' : '';
		const known = context.usedTokens !== undefined && context.limitTokens !== undefined;
		const percent = known ? Math.min(100, (100 * (context.usedTokens ?? 0)) / (context.limitTokens ?? 1)) : 0;
		this.meter.hidden = !known;
		this.meter.setAttribute('aria-valuenow', String(Math.round(percent)));
		this.bar.style.width = `${percent.toFixed(1)}%`;
		const at = context.autoCompactAt;
		this.marker.hidden = at === undefined;
		this.marker.style.left = at === undefined ? '' : `${(100 * at).toFixed(1)}%`;
		const compactsAt = at === undefined ? '' : `; compacted automatically at ${Math.round(100 * at)}%`;
		this.meter.setAttribute('aria-valuetext', `${Math.round(percent)}% used${compactsAt}`);
		this.meter.title = `Context used: ${Math.round(percent)}%${compactsAt}`;
		this.meter.classList.toggle('context-bar-high', percent >= 100 * (at ?? 0.8));
		this.costLabel.textContent = costLabel(context);
		this.details.replaceChildren(...detailLines(context), costTable(context));
		// Nothing sent, cached or compacted yet is nothing to report: no "0 tokens (0 blocks)", and
		// in a chat with nothing known at all, no line.
		const nothing = context.reminders.length === 0 && context.compaction === undefined && context.cacheReadTokens === undefined && context.cacheWriteTokens === undefined;
		if (nothing && this.toggle.getAttribute('aria-expanded') === 'true') {
			this.toggle.click();
		}
		this.toggle.hidden = nothing;
		this.element.hidden = nothing && context.usedTokens === undefined && context.limitTokens === undefined && context.canCompact !== true;
		this.showCompact();
	}

	/** The agent's state and the chat's access changed: they say why Compact cannot run. */
	setSituation(situation: CompactSituation): void {
		this.situation = situation;
		this.showCompact();
	}

	private showCompact(): void {
		const { canCompact } = this.context;
		// A host that does not say offers no Compact.
		this.compactButton.hidden = canCompact === undefined;
		const refusal = canCompact === false ? compactRefusal(this.context, this.situation) : undefined;
		this.compactButton.setAttribute('aria-disabled', String(refusal !== undefined));
		this.compactButton.title = refusal === undefined ? COMPACT_TITLE : `${COMPACT_TITLE}. ${refusal}`;
	}
}
