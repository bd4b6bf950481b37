// A tool call waiting for the person: what it would do (and the diff of an edit), an optional
// note for the agent, Allow and Deny — the same two words for every decision on a tool call — and,
// when a permission rule can express the call, "Always allow" with the exact rules it would save.
// Shown above the composer while `agent.approval` is set. A change set under review
// (`approval.review`) is the review card: its files, each with "Open diff" (the diff editor, where
// the person may change the proposed side), the combined diff, and Allow / Deny for the whole set.
import type { ApprovalView, ViewMessage } from '../src/protocol/messages';
import { diffView } from './diff';
import { el, icon, uniqueId } from './dom';
import { agentName } from './rows/agent';

const KIND_ICONS: Record<ApprovalView['kind'], string> = { read: 'eye', write: 'edit', run: 'terminal', fetch: 'globe' };
const MAX_NOTE = 2000;
const CHANGE_LABELS: Record<NonNullable<ApprovalView['review']>['files'][number]['change'], string> = { create: 'new file', modify: 'changed', delete: 'deleted' };

type CardMessage = Extract<ViewMessage, { type: 'approval' | 'review.show' }>;

/** "Always allow" and the rules it would save, each as written in the setting, before anything is saved. */
function alwaysButton(rules: readonly string[]): HTMLButtonElement {
	const shown = rules.flatMap((rule, index) => [index === 0 ? null : ', ', el('code', { class: 'approval-rule' }, rule)]);
	return el(
		'button',
		{ type: 'button', class: 'button-secondary approval-always-allow', title: `Allow this call, and add ${rules.join(', ')} to "allow" of aside.permissions.rules in your user settings: calls it covers then run without asking, in every workspace` },
		icon('shield'),
		el('span', {}, 'Always allow ', ...shown),
	);
}

export class ApprovalCard {
	private readonly announcer = el('span', { class: 'sr-only', 'aria-live': 'polite' });
	private readonly slot = el('div', { class: 'approval-card-slot' });
	readonly element = el('div', { class: 'approval-slot' }, this.announcer, this.slot);
	private current: ApprovalView | null = null;

	constructor(
		private readonly post: (message: CardMessage) => void,
		private readonly afterClose: () => void,
	) {}

	update(approval: ApprovalView | null): void {
		// The same call again (any agent.changed repeats it): keep the card, the note being typed
		// and the focus as they are.
		if (approval?.callId === this.current?.callId) {
			return;
		}
		const hadFocus = this.element.contains(document.activeElement);
		this.current = approval;
		const card = approval ? this.card(approval) : null;
		this.slot.replaceChildren(...(card ? [card] : []));
		// Said once, briefly; the card itself is not a live region (it would read out the diff).
		this.announcer.textContent = approval ? `${approval.review ? 'Review needed' : 'Approval needed'}${approval.agent === undefined ? '' : ` (${agentName(approval.agent)} asks)`}: ${approval.title}` : '';
		if (hadFocus) {
			// To the next card itself, not its Allow button: a repeated Enter must not approve it.
			if (card) {
				card.focus();
			} else {
				this.afterClose();
			}
		}
	}

	private card(approval: ApprovalView): HTMLElement {
		const titleId = uniqueId('approval-title');
		const note = el('textarea', {
			class: 'approval-note',
			rows: '2',
			maxlength: String(MAX_NOTE),
			'aria-label': 'Note for the agent (optional)',
			placeholder: 'Optional note for the agent',
		});
		const { review } = approval;
		const allow = el('button', { type: 'button', class: 'button-primary approval-allow' }, icon('check'), 'Allow');
		const deny = el('button', { type: 'button', class: 'button-secondary approval-deny' }, icon('circle-slash'), 'Deny');
		const always = approval.alwaysAllow ? alwaysButton(approval.alwaysAllow) : null;
		const buttons = [allow, deny, ...(always ? [always] : [])];
		let answered = false;
		const decide = (granted: boolean, alwaysAllow = false) => {
			if (answered) {
				return;
			}
			answered = true;
			const text = note.value.trim();
			this.post({ type: 'approval', callId: approval.callId, granted, ...(text ? { note: text.slice(0, MAX_NOTE) } : {}), ...(alwaysAllow ? { always: true as const } : {}) });
			// Answered: wait for the host to clear the card. aria-disabled rather than disabled,
			// which would drop the keyboard focus to <body>.
			for (const button of buttons) {
				button.setAttribute('aria-disabled', 'true');
			}
			note.readOnly = true;
		};
		allow.addEventListener('click', () => {
			decide(true);
		});
		deny.addEventListener('click', () => {
			decide(false);
		});
		always?.addEventListener('click', () => {
			decide(true, true);
		});
		return el(
			'section',
			{ class: `approval approval-${approval.kind}`, role: 'region', 'aria-labelledby': titleId, 'data-call-id': approval.callId, tabindex: '-1' },
			el('div', { class: 'approval-head' }, icon(KIND_ICONS[approval.kind]), el('h2', { class: 'approval-title', id: titleId }, approval.title)),
			// A child agent's call: the person must know it is not the root turn asking.
			approval.agent === undefined ? null : el('div', { class: 'approval-agent', title: approval.agent }, icon('hubot'), `${agentName(approval.agent)} asks`),
			review ? this.files(approval.callId, review.files) : approval.target ? el('code', { class: 'approval-target' }, approval.target) : null,
			approval.diff ? diffView(approval.diff, approval.diffTitle ?? 'Proposed change') : null,
			note,
			el('div', { class: 'approval-actions' }, allow, deny),
			always ? el('div', { class: 'approval-always' }, always) : null,
		);
	}

	/** The files of a change set, each with its button to open its diff in the editor. */
	private files(callId: string, files: NonNullable<ApprovalView['review']>['files']): HTMLElement {
		return el(
			'ul',
			{ class: 'review-files', 'aria-label': 'Files in this change' },
			...files.map((file) => {
				const open = el('button', { type: 'button', class: 'button-secondary review-open', 'aria-label': `Open diff of ${file.path}` }, icon('diff'), 'Open diff');
				open.addEventListener('click', () => {
					this.post({ type: 'review.show', callId, path: file.path });
				});
				return el('li', { class: `review-file review-${file.change}` }, el('code', { class: 'review-path' }, file.path), el('span', { class: 'review-change' }, CHANGE_LABELS[file.change]), open);
			}),
		);
	}
}
