// Pieces every transcript row shares.
import type { TranscriptItem } from '../../src/protocol/messages';
import { type Child, el, icon } from '../dom';
import { clockTime } from '../format';

export function rowElement(item: Pick<TranscriptItem, 'kind' | 'id'>, extraClass: string, ...children: Child[]): HTMLLIElement {
	return el('li', { class: `row row-${item.kind}${extraClass ? ` ${extraClass}` : ''}`, 'data-kind': item.kind, 'data-id': item.id }, ...children);
}

export function timeElement(at: number): HTMLTimeElement {
	const time = clockTime(at);
	return el('time', { class: 'row-time', datetime: time.iso, title: time.full }, time.text);
}

/** Icon, who is speaking, anything extra, and the time at the right. */
export function rowHeader(iconName: string, author: string, at: number | undefined, ...extra: Child[]): HTMLDivElement {
	return el('div', { class: 'row-header' }, icon(iconName), el('span', { class: 'row-author' }, author), ...extra, at === undefined ? null : timeElement(at));
}
