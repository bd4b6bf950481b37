// A fork's first row: `⑂ Forked from <title>`, and for a worktree fork its
// branch, folder and base commit. Every string from the host goes in as text.
import type { ForkItem } from '../../src/protocol/messages';
import { el, icon } from '../dom';
import { rowElement, timeElement } from './common';

export function forkLabel(item: ForkItem): string {
	return `Forked from “${item.source.title || 'New chat'}”`;
}

export function forkRow(item: ForkItem): HTMLLIElement {
	const { worktree } = item;
	return rowElement(
		item,
		worktree ? 'fork-worktree' : '',
		el('div', { class: 'fork-head' }, icon('repo-forked'), el('span', { class: 'fork-label' }, forkLabel(item)), timeElement(item.at)),
		worktree
			? el(
					'p',
					{ class: 'fork-worktree-line' },
					'In a git worktree: branch ',
					el('code', { class: 'fork-branch' }, worktree.branch),
					' from ',
					el('code', { class: 'fork-base' }, worktree.base.slice(0, 12)),
					', folder ',
					el('code', { class: 'fork-folder' }, worktree.folder),
				)
			: null,
		el('p', { class: 'fork-note' }, 'The messages below are a copy of that chat up to where it was forked; from here the two chats go separate ways.'),
	);
}
