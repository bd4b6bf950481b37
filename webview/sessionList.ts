// The chats of this workspace, to reopen one: a header button opens a list the host fills in
// (`sessions.list` → `sessions.listed`). Arrow keys move between chats, Enter opens, Escape
// closes and gives the focus back to the button.
import type { SessionSummaryView, ViewMessage } from '../src/protocol/messages';
import { el, icon } from './dom';

type SessionMessage = Extract<ViewMessage, { type: 'sessions.list' | 'session.open' | 'session.new' }>;

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
		(this.list.querySelector<HTMLButtonElement>('[aria-current="true"]') ?? this.list.querySelector('button'))?.focus();
	}

	private item(session: SessionSummaryView): HTMLLIElement {
		const button = el(
			'button',
			{ type: 'button', class: 'line-button session-item', 'data-id': session.id, 'aria-current': session.current ? 'true' : undefined },
			el('span', { class: 'session-item-title' }, session.title || 'New chat'),
			session.forkOf ? el('span', { class: 'session-item-parent' }, icon('repo-forked'), ` forked from ${session.forkOf.title || 'New chat'}`) : null,
			el('span', { class: 'session-item-when' }, session.current ? 'current' : when.format(new Date(session.at))),
		);
		button.addEventListener('click', () => {
			this.setOpen(false);
			if (!session.current) {
				this.post({ type: 'session.open', id: session.id });
			}
		});
		return el('li', {}, button);
	}

	private moveFocus(step: number): void {
		const buttons = [...this.list.querySelectorAll<HTMLButtonElement>('button')];
		const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
		buttons[(at + step + buttons.length) % buttons.length]?.focus();
	}
}
