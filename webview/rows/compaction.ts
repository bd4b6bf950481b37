// A compaction point: `◇ Chat compacted · 150k tokens → 12k`, and why. Expanded, the summary the
// model wrote (Markdown, through the safe renderer: never parsed as HTML) and what the person
// asked to keep. Every earlier row stays above it: the host sends them all.
import type { CompactionItem } from '../../src/protocol/messages';
import { tokens } from '../contextUse';
import { disclosure } from '../disclosure';
import { el } from '../dom';
import { clockTime } from '../format';
import { renderMarkdown } from '../markdown/render';
import { rowElement, timeElement } from './common';

/** What started it, as the row says it. */
const CAUSES: Readonly<Record<CompactionItem['cause'], string>> = {
	manual: 'you asked',
	auto: 'automatic, near the context window\'s limit',
	overflow: 'after the provider refused the request as too long',
};

export function compactionLabel(item: CompactionItem): string {
	return `◇ Chat compacted · ${tokens(item.tokensBefore)} tokens → ${tokens(item.tokensAfter)} (${CAUSES[item.cause]})`;
}

export function compactionRow(item: CompactionItem): HTMLLIElement {
	const { button, panel } = disclosure({
		buttonClass: 'compaction-toggle',
		panelClass: 'compaction-panel',
		label: [el('span', { class: 'compaction-label' }, compactionLabel(item))],
		title: `${compactionLabel(item)}, ${clockTime(item.at).full}: from here on, the model sees this summary instead of the turns above`,
		body: () => [
			item.instructions === undefined || item.instructions.trim() === ''
				? null
				: el('p', { class: 'compaction-instructions' }, el('span', { class: 'reminder-field' }, 'You asked to keep: '), item.instructions),
			el('div', { class: 'compaction-summary markdown', tabindex: '0', 'aria-label': 'The summary the model wrote' }, renderMarkdown(item.summary)),
		],
	});
	return rowElement(item, `compaction-${item.cause}`, el('div', { class: 'compaction-head' }, button, timeElement(item.at)), panel);
}
