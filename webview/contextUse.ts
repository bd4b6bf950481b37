// The context line, in the header: how full the model's context is as a figure and a meter (with
// a mark where the chat is compacted automatically), and on a wide view what Aside's own
// reminders take of it. Its button opens the details (contextDetails.ts) over the chat: the use
// in words, the mark explained, the reminders' share, the prompt cache, the compaction point, the
// cost per key, and Compact. The numbers come from the host (reported usage, and an estimate of
// each block as sent).
import type { ContextUseView, ViewMessage } from '../src/protocol/messages';
import { costTable, detailLines, figureText, inContextTokens, tokens, usageText } from './contextDetails';
import { el, icon, srOnly, uniqueId } from './dom';
import { popover } from './popover';

export { CAUSE_WORDS, tokens } from './contextDetails';

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

export class ContextUseLine {
	private readonly figure = el('span', { class: 'context-figure', 'aria-hidden': 'true' });
	/** The figure in a narrow view: the percentage (contextUse.css shows one of the two). */
	private readonly percent = el('span', { class: 'context-percent', 'aria-hidden': 'true' });
	/** The reminders in context, beside the figure when the view is wide enough (contextUse.css). */
	private readonly reminders = el('span', { class: 'context-reminders', 'aria-hidden': 'true' });
	/** The use in words, for a screen reader (and what the figure stands for). */
	private readonly spoken = srOnly('');
	private readonly bar = el('span', { class: 'context-bar-fill' });
	/** Where the chat is compacted automatically (`autoCompactAt`), on the meter. */
	private readonly marker = el('span', { class: 'context-bar-marker', hidden: true });
	private readonly meter = el('span', { class: 'context-bar', role: 'meter', 'aria-label': 'Context used', 'aria-valuemin': '0', 'aria-valuemax': '100' }, this.bar, this.marker);
	private readonly toggle = el('button', { type: 'button', class: 'line-button context-toggle' }, this.figure, this.percent, this.reminders, this.spoken, icon('chevron-down', 'context-chevron'));
	private readonly usage = el('p', { class: 'context-usage' });
	private readonly details = el('div', { class: 'context-details' });
	/** Focusable while it cannot run (aria-disabled), so its reason can be read. */
	private readonly compactButton = el('button', { type: 'button', class: 'button-secondary context-compact', 'aria-label': COMPACT_TITLE, title: COMPACT_TITLE, hidden: true }, icon('fold'), 'Compact chat');
	private readonly panel = el('div', { class: 'context-panel', id: uniqueId('context-details'), role: 'group', 'aria-label': 'Context details' }, this.usage, this.details, el('div', { class: 'context-actions' }, this.compactButton));
	readonly element = el('div', { class: 'context-line', role: 'group', 'aria-label': 'Context use' }, this.meter, this.toggle, this.panel);
	private readonly details$ = popover(this.toggle, this.panel, this.element, true);
	private context: ContextUseView = { reminders: [] };
	private situation: CompactSituation = { agent: 'ready', readOnly: false };

	constructor(post: (message: Extract<ViewMessage, { type: 'compaction.run' }>) => void) {
		this.compactButton.addEventListener('click', () => {
			if (this.compactButton.getAttribute('aria-disabled') !== 'true') {
				post({ type: 'compaction.run' });
			}
		});
	}

	update(context: ContextUseView): void {
		this.context = context;
		const usage = usageText(context);
		const figure = figureText(context);
		this.figure.textContent = figure.full;
		this.percent.textContent = figure.short;
		this.spoken.textContent = usage;
		this.usage.textContent = usage;
		this.usage.title = context.estimated === true ? 'Estimated by Aside after a compaction or a restore; the next answer reports the real count' : '';
		this.toggle.title = `${usage}. Details: what Aside's reminders cost, the prompt cache, Compact`;
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
		this.meter.classList.toggle('context-bar-high', percent >= 100 * (at ?? 0.8));
		// Nothing sent yet is nothing to show: no "◇ 0".
		this.reminders.hidden = context.reminders.length === 0;
		this.reminders.textContent = `◇ ${tokens(inContextTokens(context))}`;
		this.details.replaceChildren(...detailLines(context), costTable(context));
		// In a chat with nothing known at all, no line (and no details left open).
		const nothing = context.reminders.length === 0 &&
			context.compaction === undefined &&
			context.cacheReadTokens === undefined &&
			context.cacheWriteTokens === undefined;
		this.element.hidden = nothing && context.usedTokens === undefined && context.limitTokens === undefined && context.canCompact !== true;
		if (this.element.hidden) {
			this.details$.setOpen(false);
		}
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
