// Restore…: on each of the person's rows in the root chat, a menu — files only, chat
// only, both — that asks the host for a preview; the preview card lists every file with what will
// happen to it and its diff, flags the ones changed since Aside's last edit (never overwritten
// unless the person ticks the box), says plainly that Run's side effects are not tracked, and has
// Restore and Cancel. Disabled while the agent works (the host refuses then too). Keyboard only
// works throughout; every string from the host goes in as text.
import type { RestoreFileView, RestorePreviewView, UserTurnItem, ViewMessage } from '../src/protocol/messages';
import { diffView } from './diff';
import { el, icon, uniqueId } from './dom';
import { post } from './host';

type Scope = RestorePreviewView['scope'];

const SCOPES: readonly { readonly scope: Scope; readonly label: string; readonly detail: string }[] = [
	{ scope: 'files', label: 'Files only', detail: 'put back the files Aside\'s tools changed since this message' },
	{ scope: 'chat', label: 'Chat only', detail: 'continue the chat from before this message' },
	{ scope: 'both', label: 'Files and chat', detail: 'both' },
];

const ACTION_WORDS: Readonly<Record<RestoreFileView['action'], string>> = {
	change: 'will be changed back',
	recreate: 'will be recreated (Aside deleted it)',
	delete: 'will be deleted (Aside created it)',
	keep: 'will be kept (Aside created it, but it changed since)',
	'person-changed': 'changed since Aside\'s last edit: kept as it is unless you overwrite it',
	missing: 'cannot be restored: its earlier content is no longer kept',
	outside: 'cannot be restored: it is outside the workspace folders now',
};

const SCOPE_TITLES: Readonly<Record<Scope, string>> = { files: 'Restore files', chat: 'Restore chat', both: 'Restore files and chat' };

let busy = false;

const UNDO_TITLE = 'Put the files this restore wrote back as they were just before it (a preview first)';

/** While the agent works, no restore: every Restore… and Undo… button is disabled (rows mounted later too). */
export function setRestoreBusy(running: boolean): void {
	busy = running;
	for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>('.restore-toggle'))) {
		button.disabled = running;
		button.title = running ? 'Restore… is available once the agent has finished' : 'Restore files, the chat or both to before this message';
	}
	for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>('.restore-undo:not([data-undone])'))) {
		button.disabled = running;
		button.title = running ? 'Undo… is available once the agent has finished' : UNDO_TITLE;
	}
}

/** A restored row's Undo…: asks the host for the preview of putting back what that restore overwrote. Off once it was undone. */
export function undoControl(restoreId: string, undone: boolean): HTMLButtonElement {
	const button = el('button', { type: 'button', class: 'restore-undo', title: undone ? 'This restore was undone (see the row below it)' : busy ? 'Undo… is available once the agent has finished' : UNDO_TITLE }, icon('discard'), el('span', {}, undone ? 'Undone' : 'Undo…'));
	if (undone) {
		button.setAttribute('data-undone', '');
	}
	button.disabled = undone || busy;
	button.addEventListener('click', () => {
		post({ type: 'restore.preview', to: restoreId, scope: 'undo' });
	});
	return button;
}

/** The Restore… button, for the row's header, and its menu, for the row itself between the header and the message. */
export interface RestoreControl {
	readonly toggle: HTMLButtonElement;
	readonly menu: HTMLElement;
}

/**
 * The Restore… button and its menu, for a root user row. The menu opens in the row's flow, under
 * its header and right-aligned under the button, so it never covers the message text and never
 * reaches past the view however narrow. Keyboard as in VS Code's menus: arrows (wrapping), Home,
 * End, Enter or Space; Escape closes it and gives the focus back to the button, as a click
 * outside it closes it.
 */
export function restoreControl(item: UserTurnItem): RestoreControl {
	const menuId = uniqueId('restore-menu');
	const toggle = el('button', {
		type: 'button',
		class: 'restore-toggle',
		'aria-haspopup': 'menu',
		'aria-expanded': 'false',
		'aria-controls': menuId,
		title: busy ? 'Restore… is available once the agent has finished' : 'Restore files, the chat or both to before this message',
	}, icon('discard'), el('span', {}, 'Restore…'));
	toggle.disabled = busy;
	const items = SCOPES.map(({ scope, label, detail }) =>
		el('button', { type: 'button', role: 'menuitem', class: 'restore-choice', 'data-scope': scope, tabindex: '-1', title: detail }, el('span', { class: 'restore-choice-label' }, label)),
	);
	const menu = el('div', { class: 'restore-menu', role: 'menu', id: menuId, 'aria-label': 'Restore to before this message', hidden: true }, ...items);
	function close(focusToggle: boolean): void {
		menu.hidden = true;
		toggle.setAttribute('aria-expanded', 'false');
		document.removeEventListener('pointerdown', outside, true);
		if (focusToggle) {
			toggle.focus();
		}
	}
	function outside(event: PointerEvent): void {
		if (!(event.target instanceof Node) || (!menu.contains(event.target) && !toggle.contains(event.target))) {
			close(false);
		}
	}
	function open(at: number): void {
		menu.hidden = false;
		toggle.setAttribute('aria-expanded', 'true');
		document.addEventListener('pointerdown', outside, true);
		menu.scrollIntoView({ block: 'nearest' });
		items.at(at)?.focus();
	}
	toggle.addEventListener('click', () => {
		if (menu.hidden) {
			open(0);
		} else {
			close(true);
		}
	});
	toggle.addEventListener('keydown', (event) => {
		if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && menu.hidden && !toggle.disabled) {
			event.preventDefault();
			open(event.key === 'ArrowDown' ? 0 : -1);
		}
	});
	items.forEach((choice, index) => {
		choice.addEventListener('click', () => {
			close(true);
			post({ type: 'restore.preview', to: item.id, scope: choice.getAttribute('data-scope') as Scope });
		});
		choice.addEventListener('keydown', (event) => {
			const target = MENU_KEYS[event.key]?.(index, items.length);
			if (target !== undefined) {
				event.preventDefault();
				items[target]?.focus();
			} else if (event.key === 'Escape') {
				event.preventDefault();
				event.stopPropagation();
				close(true);
			} else if (event.key === 'Tab') {
				close(false);
			}
		});
	});
	return { toggle, menu };
}

/** Where a key moves the focus in a menu of `count` items from item `index`. */
const MENU_KEYS: Readonly<Partial<Record<string, (index: number, count: number) => number>>> = {
	ArrowDown: (index, count) => (index + 1) % count,
	ArrowUp: (index, count) => (index - 1 + count) % count,
	Home: () => 0,
	End: (_index, count) => count - 1,
};

function fileEntry(file: RestoreFileView): HTMLElement {
	const flagged = file.action === 'person-changed';
	return el(
		'li',
		{ class: `restore-file restore-${file.action}`, 'data-action': file.action },
		el('div', { class: 'restore-file-head' }, flagged ? icon('warning') : null, el('code', { class: 'restore-file-name' }, file.shown), el('span', { class: 'restore-file-action' }, ` ${ACTION_WORDS[file.action]}`)),
		file.diff === '' ? null : diffView(file.diff, `What restoring changes in ${file.shown}`),
	);
}

/** The preview, above the composer: Restore applies it, Cancel (or Escape) drops it. */
export class RestorePreviewCard {
	readonly element = el('div', { class: 'restore-slot' });
	private current: RestorePreviewView | undefined;

	constructor(
		private readonly send: (message: Extract<ViewMessage, { type: 'restore.apply' | 'restore.cancel' }>) => void,
		private readonly afterClose: () => void,
	) {}

	get shown(): RestorePreviewView | undefined {
		return this.current;
	}

	show(preview: RestorePreviewView): void {
		this.current = preview;
		const card = this.card(preview);
		this.element.replaceChildren(card);
		card.querySelector<HTMLElement>('.restore-apply')?.focus();
	}

	private close(): void {
		this.current = undefined;
		this.element.replaceChildren();
		this.afterClose();
	}

	private card(preview: RestorePreviewView): HTMLElement {
		const titleId = uniqueId('restore-title');
		const changed = preview.files.filter((file) => file.action === 'person-changed').length;
		const overwrite = el('input', { type: 'checkbox', class: 'restore-overwrite', id: uniqueId('restore-overwrite') });
		const undo = preview.undoes !== undefined;
		const apply = el('button', { type: 'button', class: 'button-primary restore-apply' }, undo ? 'Undo restore' : 'Restore');
		const cancel = el('button', { type: 'button', class: 'button-secondary restore-cancel' }, 'Cancel');
		const lines: HTMLElement[] = [];
		if (preview.scope !== 'files') {
			lines.push(
				el('p', { class: 'restore-chat' }, `The chat goes back to before this message: ${preview.turns === 1 ? '1 turn is' : `${preview.turns} turns are`} rolled back. Their rows stay visible above a "restored" row, and your message goes back to the message box.`),
			);
		}
		if (undo) {
			lines.push(el('p', { class: 'restore-undo-note' }, 'The files that restore wrote go back to as they were just before it. The chat stays as it is.'));
		}
		if (preview.scope !== 'chat') {
			if (!preview.tracked) {
				lines.push(el('p', { class: 'restore-untracked' }, 'This window keeps no checkpoints of the files: none will be restored.'));
			} else if (preview.files.length === 0) {
				lines.push(el('p', { class: 'restore-none' }, 'No file needs restoring: the files Aside\'s tools changed are as they were.'));
			} else {
				lines.push(el('ul', { class: 'restore-files', 'aria-label': 'Files' }, ...preview.files.map(fileEntry)));
			}
			if (!undo) {
				lines.push(el('p', { class: 'restore-run-note' }, icon('info'), ' Only files Aside\'s tools changed are restored: Run\'s side effects are not tracked.'));
			}
		}
		if (changed > 0) {
			lines.push(el('label', { class: 'restore-overwrite-label', for: overwrite.id }, overwrite, ` Also overwrite the ${changed === 1 ? 'file' : `${changed} files`} changed since ${undo ? 'that restore' : 'Aside\'s last edit'}`));
		}
		const card = el(
			'section',
			{ class: 'restore-card', role: 'dialog', 'aria-labelledby': titleId, 'data-scope': undo ? 'undo' : preview.scope },
			el('h2', { class: 'restore-title', id: titleId }, undo ? `Undo the file restore to before "${preview.message}"` : `${SCOPE_TITLES[preview.scope]} to before "${preview.message}"`),
			...lines,
			el('div', { class: 'restore-actions' }, apply, cancel),
		);
		apply.addEventListener('click', () => {
			this.send({ type: 'restore.apply', previewId: preview.id, overwriteChanged: overwrite.checked });
			this.close();
		});
		cancel.addEventListener('click', () => {
			this.send({ type: 'restore.cancel', previewId: preview.id });
			this.close();
		});
		card.addEventListener('keydown', (event) => {
			if (event.key === 'Escape') {
				event.preventDefault();
				cancel.click();
			}
		});
		return card;
	}
}

/** The restored row's words: what was rolled back, and to where (an undo: which restore it undid). */
export function restoredLabel(scope: Scope, message: string, undoes = false): string {
	if (undoes) {
		return `⟲ Undid the file restore to before "${message}"`;
	}
	const what = scope === 'files' ? 'files' : scope === 'chat' ? 'chat' : 'chat and files';
	return `⟲ Restored ${what} to before "${message}"`;
}
