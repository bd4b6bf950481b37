// The chats of this workspace, to reopen one: a header button opens a list the host fills in
// (`sessions.list` → `sessions.listed`). Arrow keys move between chats, Enter opens, Escape
// closes and gives the focus back to the button. Each chat has a Delete button (Tab reaches it)
// that asks first, in the row: Delete posts `session.delete`, Cancel or Escape puts it back.
import type { SessionSummaryView, ViewMessage } from '../src/protocol/messages';
import { el, icon } from './dom';

type SessionMessage = Extract<ViewMessage, { type: 'sessions.list' | 'session.open' | 'session.new' | 'session.delete' }>;

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export class SessionList {
	readonly toggle = el('button', { type: 'button', class: 'icon-button sessions-toggle', title: 'Open a past chat', 'aria-label': 'Chats', 'aria-expanded': 'false', 'aria-controls': 'session-list' }, icon('history'));
	readonly newChat = el('button', { type: 'button', class: 'icon-button new-chat', title: 'New chat', 'aria-label': 'New chat' }, icon('add'));
	private readonly list = el('ul', { class: 'session-list-items', role: 'list' });
	private readonly status = el('p', { class: 'session-list-status', role: 'status' }, 'Loading…');
	readonly panel = el(
		'section',
		{ class: 'session-list', id: 'session-list', hidden: true, 'aria-label': 'Chats in this workspace' },
		el('h2', { class: 'session-list-title' }, 'Chats'),
		this.status,
		this.list,
	);

	constructor(private readonly post: (message: SessionMessage) => void) {
		this.toggle.addEventListener('click', () => {
			this.setOpen(this.panel.hidden);
		});
		this.newChat.addEventListener('click', () => {
			this.setOpen(false);
			post({ type: 'session.new' });
		});
		this.toggle.addEventListener('keydown', (event) => {
			if (event.key === 'Escape' && this.isOpen) {
				event.preventDefault();
				this.setOpen(false);
			}
		});
		this.panel.addEventListener('keydown', (event) => {
			if (event.key === 'Escape') {
				event.preventDefault();
				this.setOpen(false);
				this.toggle.focus();
			} else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
				event.preventDefault();
				this.moveFocus(event.key === 'ArrowDown' ? 1 : -1);
			}
		});
	}

	get isOpen(): boolean {
		return !this.panel.hidden;
	}

	setOpen(open: boolean): void {
		this.panel.hidden = !open;
		this.toggle.setAttribute('aria-expanded', String(open));
		if (open) {
			this.status.textContent = 'Loading…';
			this.status.hidden = false;
			this.post({ type: 'sessions.list' });
		}
	}

	/** The host's answer; ignored when the list was closed meanwhile. */
	show(sessions: readonly SessionSummaryView[]): void {
		if (!this.isOpen) {
			return;
		}
		this.status.hidden = sessions.length > 0;
		this.status.textContent = sessions.length ? '' : 'No saved chats in this workspace yet.';
		this.list.replaceChildren(...sessions.map((session) => this.item(session)));
		(this.list.querySelector<HTMLButtonElement>('[aria-current="true"]') ?? this.list.querySelector<HTMLButtonElement>('button.session-item'))?.focus();
	}

	private item(session: SessionSummaryView): HTMLLIElement {
		const button = el(
			'button',
			{ type: 'button', class: 'line-button session-item', 'data-id': session.id, 'aria-current': session.current ? 'true' : undefined },
			el('span', { class: 'session-item-title' }, session.title || 'New chat'),
			el('span', { class: 'session-item-when' }, session.current ? 'current' : when.format(new Date(session.at))),
		);
		button.addEventListener('click', () => {
			this.setOpen(false);
			if (!session.current) {
				this.post({ type: 'session.open', id: session.id });
			}
		});
		const title = session.title || 'New chat';
		const remove = el('button', { type: 'button', class: 'icon-button session-delete', title: 'Delete this chat', 'aria-label': `Delete chat ${title}` }, icon('trash'));
		const row = el('li', { class: 'session-row' }, button, remove);
		remove.addEventListener('click', () => {
			this.confirmDelete(row, session, title, remove);
		});
		return row;
	}

	/** Asks in the row before a chat is deleted; the focus goes to Cancel, the safe choice. */
	private confirmDelete(row: HTMLLIElement, session: SessionSummaryView, title: string, remove: HTMLButtonElement): void {
		const shown = [...row.children];
		const question = el('span', { class: 'session-delete-question', id: `session-delete-${session.id}` }, `Delete “${title}”${session.current ? ' (the current chat: a new one starts)' : ''}? Its saved checkpoints go too.`);
		const confirm = el('button', { type: 'button', class: 'button-primary session-delete-confirm', 'aria-describedby': question.id }, 'Delete');
		const cancel = el('button', { type: 'button', class: 'button-secondary session-delete-cancel' }, 'Cancel');
		const asking = el('div', { class: 'session-delete-confirmation', role: 'group', 'aria-label': `Delete chat ${title}?` }, question, confirm, cancel);
		const back = (): void => {
			row.replaceChildren(...shown);
			remove.focus();
		};
		confirm.addEventListener('click', () => {
			confirm.disabled = true;
			cancel.disabled = true;
			question.textContent = `Deleting “${title}”…`;
			this.post({ type: 'session.delete', id: session.id });
		});
		cancel.addEventListener('click', back);
		asking.addEventListener('keydown', (event) => {
			if (event.key === 'Escape') {
				// Escape leaves the question, not the list.
				event.preventDefault();
				event.stopPropagation();
				back();
			}
		});
		row.replaceChildren(asking);
		cancel.focus();
	}

	private moveFocus(step: number): void {
		const buttons = [...this.list.querySelectorAll<HTMLButtonElement>('button.session-item, .session-delete-confirmation button')];
		const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
		buttons[(at + step + buttons.length) % buttons.length]?.focus();
	}
}
