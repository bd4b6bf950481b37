// The button a host notice offers (`action`): one per action the protocol names; the host does the work.
import type { NOTICE_ACTIONS, ViewMessage } from '../src/protocol/messages';
import { el } from './dom';

const LABELS: Record<(typeof NOTICE_ACTIONS)[number], string> = { 'trust.manage': 'Trust the workspace…' };

export function noticeButton(action: (typeof NOTICE_ACTIONS)[number] | undefined, post: (message: ViewMessage) => void): HTMLButtonElement | undefined {
	if (action === undefined) {
		return undefined;
	}
	const button = el('button', { type: 'button', class: 'button-secondary notice-action' }, LABELS[action]);
	button.addEventListener('click', () => {
		post({ type: 'notice.act', action });
	});
	return button;
}
