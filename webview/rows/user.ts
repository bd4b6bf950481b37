// The person's message, exactly as typed.
import type { UserTurnItem } from '../../src/protocol/messages';
import { el } from '../dom';
import { rowElement, rowHeader } from './common';

export function userRow(item: UserTurnItem): HTMLLIElement {
	return rowElement(item, '', rowHeader('account', 'You', item.at), el('div', { class: 'user-text' }, item.text));
}
