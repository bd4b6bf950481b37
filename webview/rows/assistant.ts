// What the model answered, as Markdown rendered to DOM nodes (markdown/render.ts): never parsed as HTML.
import type { AssistantItem } from '../../src/protocol/messages';
import { el, icon } from '../dom';
import { renderMarkdown } from '../markdown/render';
import { rowElement, rowHeader } from './common';

// Only the endings a reader should notice; a normal end or a tool call needs no marker.
const STOP_MARKERS: Partial<Record<AssistantItem['stop'], { readonly text: string; readonly title: string; readonly icon: string }>> = {
	interrupted: { text: 'stopped', title: 'You stopped this response.', icon: 'debug-stop' },
	failed: { text: 'failed', title: 'The request failed before the response was complete.', icon: 'error' },
	'max-tokens': { text: 'cut off', title: 'The response reached the output token limit (aside.maxOutputTokens).', icon: 'warning' },
	refusal: { text: 'refused', title: 'The model declined to answer.', icon: 'circle-slash' },
};

export function stopMarker(stop: AssistantItem['stop']): HTMLSpanElement | null {
	const marker = STOP_MARKERS[stop];
	return marker ? el('span', { class: `stop-marker stop-${stop}`, title: marker.title }, icon(marker.icon), marker.text) : null;
}

/** The host sends no row for a response with no text and nothing to flag (it only called tools). */
export function assistantRow(item: AssistantItem): HTMLLIElement {
	const marker = stopMarker(item.stop);
	const header = rowHeader('sparkle', 'Aside', item.at, item.model ? el('span', { class: 'row-model' }, item.model) : null, marker);
	if (item.proposal) {
		// The host found a proposed plan in the answer: the answer around it, and the plan in its own block.
		const { before, plan, after } = item.proposal;
		return rowElement(
			item,
			'row-proposal',
			header,
			before === '' ? null : el('div', { class: 'assistant-text markdown' }, renderMarkdown(before)),
			el('section', { class: 'proposed-plan', 'aria-label': 'The plan this answer proposes' }, el('div', { class: 'proposed-plan-head' }, icon('checklist'), 'Proposed plan'), el('div', { class: 'markdown' }, renderMarkdown(plan))),
			after === '' ? null : el('div', { class: 'assistant-text markdown' }, renderMarkdown(after)),
		);
	}
	return rowElement(item, '', header, item.text === '' ? null : el('div', { class: 'assistant-text markdown' }, renderMarkdown(item.text)));
}
