// What the context line says, in words and in the details panel: the use against the model's
// window, the reminders' share, the prompt cache, the compaction point and its mark, and what
// each reminder key cost. Every reminder figure here comes from one number per key the host
// estimated (src/view/contextUse.ts); the view only adds them up, in one place (`sentTokens`).
import type { CompactionItem, ContextUseView } from '../src/protocol/messages';
import { el } from './dom';
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

function percentOf(part: number, whole: number): number {
	return Math.min(100, Math.round((100 * part) / whole));
}

/** The use in a sentence: "Context: 150k / 200k tokens (75%)", "(est.)" after a compaction or a restore. */
export function usageText(context: ContextUseView): string {
	if (context.usedTokens === undefined) {
		return context.limitTokens === undefined ? 'Context: no request yet' : `Context: ${tokens(context.limitTokens)} tokens available`;
	}
	const estimated = context.estimated === true ? ' (est.)' : '';
	if (context.limitTokens === undefined) {
		return `Context: ${tokens(context.usedTokens)} tokens${estimated}`;
	}
	return `Context: ${tokens(context.usedTokens)} / ${tokens(context.limitTokens)} tokens (${percentOf(context.usedTokens, context.limitTokens)}%)${estimated}`;
}

/** The use as the header has room for it: "150k/200k" (`~12k/200k` for an estimate), and narrower, "75%". */
export function figureText(context: ContextUseView): { readonly full: string; readonly short: string } {
	const { usedTokens, limitTokens } = context;
	const approx = context.estimated === true ? '~' : '';
	if (usedTokens === undefined) {
		const free = limitTokens === undefined ? '' : `${tokens(limitTokens)} free`;
		return { full: free, short: free };
	}
	if (limitTokens === undefined) {
		const used = `${approx}${tokens(usedTokens)} used`;
		return { full: used, short: used };
	}
	return { full: `${approx}${tokens(usedTokens)}/${tokens(limitTokens)}`, short: `${approx}${percentOf(usedTokens, limitTokens)}%` };
}

/** Every reminder block sent in this chat, in tokens: the table's total. */
export function sentTokens(context: ContextUseView): number {
	return context.reminders.reduce((sum, cost) => sum + cost.tokens, 0);
}

/** The reminders the next request replays (what was sent, before any compaction or restore), in tokens. */
export function inContextTokens(context: ContextUseView): number {
	return context.remindersInContext ?? sentTokens(context);
}

/** The reminders' share of what is in context: "4 % of context", when both are known. */
function shareText(context: ContextUseView): string | undefined {
	const { remindersInContext, usedTokens } = context;
	return remindersInContext === undefined || usedTokens === undefined || usedTokens === 0 ? undefined : `${percentOf(remindersInContext, usedTokens)} % of context`;
}

/** The lines above the table: the mark, the reminders in context, the prompt cache, the compaction point. */
export function detailLines(context: ContextUseView): HTMLElement[] {
	const lines: HTMLElement[] = [];
	if (context.autoCompactAt !== undefined) {
		lines.push(el('p', { class: 'context-detail context-mark' }, `The mark on the meter: the chat is compacted automatically when the context is ${Math.round(100 * context.autoCompactAt)}% full.`));
	}
	if (context.remindersInContext !== undefined) {
		const share = shareText(context);
		lines.push(
			el(
				'p',
				{ class: 'context-detail context-share' },
				`Reminders in context: ~${exact.format(context.remindersInContext)} tokens${share === undefined ? '' : ` · ${share}`} (what the next request replays; the table counts every block sent in this chat).`,
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

export function costTable(context: ContextUseView): HTMLElement {
	if (context.reminders.length === 0) {
		return el('p', { class: 'context-empty' }, 'No system reminders have been sent in this chat yet.');
	}
	const deliveries = context.reminders.reduce((sum, cost) => sum + cost.deliveries, 0);
	const row = (cells: (string | HTMLElement)[], header = false) => el('tr', {}, ...cells.map((cell) => el(header ? 'th' : 'td', header ? { scope: 'col' } : {}, cell)));
	// The key under its label: three columns fit a 300 px sidebar.
	const reminder = (label: string, key: string) => el('span', { class: 'context-key-cell' }, el('span', { class: 'context-label' }, label), el('code', { class: 'context-key' }, key));
	return el(
		'table',
		{ class: 'context-table' },
		el('caption', { class: 'sr-only' }, `Estimated tokens of system reminders in this chat, per key (${plural(deliveries, 'block', 'blocks')})`),
		el('thead', {}, row(['Reminder', 'Sent', 'Tokens (est.)'], true)),
		el('tbody', {}, ...context.reminders.map((cost) => row([reminder(cost.label, cost.key), exact.format(cost.deliveries), `~${exact.format(cost.tokens)}`]))),
		el('tfoot', {}, row(['All reminders', '', `~${exact.format(sentTokens(context))}`])),
	);
}
