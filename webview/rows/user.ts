// The person's message, exactly as typed, and beside it what it brought: a chip per @-mention
// (the host found them with the agent's parser, and says what became of each once the turn's
// first request is recorded) and, collapsed, the hook context the message carried. A file or
// folder chip is a button that asks the host to open it; the host opens only what is inside the
// workspace. Every string from the host goes in as text.
import type { HookContextView, MentionChipView, UserTurnItem } from '../../src/protocol/messages';
import { disclosure } from '../disclosure';
import { el, icon } from '../dom';
import { lineCount, plural } from '../format';
import { isForkBlocked, setForkState } from '../forkGate';
import { post } from '../host';
import { restoreControl } from '../restore';
import { userImages } from '../imageThumbs';
import { rowElement, rowHeader } from './common';

const KIND_ICONS: Record<MentionChipView['kind'], string> = { file: 'file', folder: 'folder', problems: 'warning', selection: 'selection', changes: 'git-compare', resource: 'mcp' };
const KIND_WORDS: Record<MentionChipView['kind'], string> = { file: 'File', folder: 'Folder', problems: 'Problems', selection: 'Selection', changes: 'Changes', resource: 'Resource' };
const STATE_ICONS: Record<MentionChipView['state'], string | undefined> = { pending: undefined, attached: 'check', 'in-context': 'history', rejected: 'error' };

/** The chip's outcome in words: what its title and accessible name end with. */
function outcome(chip: MentionChipView): string {
	switch (chip.state) {
		case 'pending':
			return 'not sent yet';
		case 'attached':
			return 'attached';
		case 'in-context':
			return 'already in context, not attached again';
		case 'rejected':
			return `not attached: ${chip.detail ?? 'the mention could not be attached.'}`;
	}
}

function chipElement(chip: MentionChipView, index: number): HTMLElement {
	const opens = chip.path !== undefined && (chip.kind === 'file' || chip.kind === 'folder');
	const name = `${KIND_WORDS[chip.kind]} ${chip.label}: ${outcome(chip)}`;
	const state = STATE_ICONS[chip.state];
	const children = [icon(KIND_ICONS[chip.kind]), el('span', { class: 'mention-chip-label' }, chip.label), state ? icon(state, 'mention-chip-state') : null];
	const attributes = { class: `mention-chip mention-${chip.state}`, 'data-state': chip.state, 'data-kind': chip.kind, 'data-chip': String(index), 'aria-label': name };
	if (!opens) {
		// In the tab order all the same, so its outcome can be read by keyboard.
		return el('span', { ...attributes, role: 'note', tabindex: '0', title: name }, ...children);
	}
	const button = el('button', { ...attributes, type: 'button', title: `${name} (Enter opens it)` }, ...children);
	const { path, range } = chip;
	button.addEventListener('click', () => {
		if (path !== undefined) {
			post({ type: 'mention.open', path, ...(range ? { range } : {}) });
		}
	});
	return button;
}

function hookEvents(entries: readonly HookContextView[]): string {
	return [...new Set(entries.map((entry) => entry.event))].join(', ');
}

function hookContextPart(entries: readonly HookContextView[]): HTMLElement {
	const label = `◇ hook context (${hookEvents(entries)})`;
	const { button, panel } = disclosure({
		buttonClass: 'hook-context-toggle',
		panelClass: 'hook-context-panel',
		label: [el('span', { class: 'reminders-label' }, label)],
		title: `${label}: what your hooks added before this message, as the model received it`,
		body: () =>
			entries.map((entry) =>
				el(
					'div',
					{ class: 'hook-context-entry', 'data-event': entry.event },
					el('div', { class: 'reminder-entry-head' }, el('code', { class: 'reminder-key' }, entry.event)),
					el('pre', { class: 'reminder-body', tabindex: '0', 'aria-label': `What the ${entry.event} hook added` }, entry.text),
				),
			),
	});
	return el('div', { class: 'hook-context' }, button, panel);
}

function userParts(item: UserTurnItem): HTMLElement {
	const chips = item.mentions ?? [];
	return el(
		'div',
		{ class: 'user-parts' },
		chips.length > 0 ? el('div', { class: 'mention-chips', role: 'group', 'aria-label': 'Mentions' }, ...chips.map(chipElement)) : null,
		item.hookContext && item.hookContext.length > 0 ? hookContextPart(item.hookContext) : null,
	);
}

/** Fork from here: the root's messages only, never a sub-agent's task. */
function forkButton(item: UserTurnItem): HTMLButtonElement {
	const button = el('button', { type: 'button', class: 'icon-button fork-button', 'data-fork': item.id, 'aria-label': 'Fork from here' }, icon('repo-forked'));
	setForkState(button, isForkBlocked(item.id));
	button.addEventListener('click', () => {
		if (!button.disabled) {
			post({ type: 'fork.create', from: item.id });
		}
	});
	return button;
}

/**
 * The request an approval sent: said in a line (the plan-decision row above links the plan file),
 * with the message as the model received it — the whole plan — behind a disclosure.
 */
function implementationText(item: UserTurnItem): HTMLElement[] {
	const label = `◇ message as sent (${plural(lineCount(item.text), 'line', 'lines')})`;
	const { button, panel } = disclosure({
		buttonClass: 'implementation-toggle',
		panelClass: 'implementation-panel',
		label: [el('span', { class: 'reminders-label' }, label)],
		title: `${label}: the approved plan, as the model received it`,
		body: () => [el('pre', { class: 'reminder-body implementation-message', tabindex: '0', 'aria-label': 'The message as the model received it' }, item.text)],
	});
	return [el('div', { class: 'user-text' }, 'Implement the approved plan.'), el('div', { class: 'implementation-sent' }, button, panel)];
}

/**
 * A turn no person asked for (a background process ended: aside.run.wakeOnExit): why Aside started
 * it, in a line, and the reminder it sent in the person's place, collapsed, exactly as sent.
 */
function startedByText(started: NonNullable<UserTurnItem['startedBy']>): HTMLElement[] {
	const label = `◇ system reminder (${started.label})`;
	const { button, panel } = disclosure({
		buttonClass: 'started-by-toggle',
		panelClass: 'started-by-panel',
		label: [el('span', { class: 'reminders-label' }, label)],
		title: `${label}: what Aside sent in place of a person's message`,
		body: () => [
			el('div', { class: 'reminder-entry-head' }, el('span', { class: 'reminder-label' }, started.label), el('code', { class: 'reminder-key' }, started.key)),
			el('pre', { class: 'reminder-body', tabindex: '0', 'aria-label': `Body of ${started.key}` }, started.body),
		],
	});
	return [el('div', { class: 'user-text started-by-why' }, `No person wrote this: Aside started this turn because ${started.why}.`), el('div', { class: 'started-by' }, button, panel)];
}

export function userRow(item: UserTurnItem): HTMLLIElement {
	// Restore… on the root chat's own messages only: a sub-agent's prompt is no point to go back to.
	const restore = item.agent === undefined ? restoreControl(item) : undefined;
	const [iconName, author] = item.startedBy ? ['zap', 'Aside'] : ['account', 'You'];
	const header = restore ? rowHeader(iconName, author, item.at, restore.toggle, forkButton(item)) : rowHeader(iconName, author, item.at);
	const text = item.startedBy ? startedByText(item.startedBy) : item.implementsPlan ? implementationText(item) : [el('div', { class: 'user-text' }, item.text)];
	// A slash command's message (an MCP prompt's text): the command as typed, above the text it sent.
	const command = item.command === undefined ? null : el('div', { class: 'user-command', title: 'The slash command that made this message' }, el('code', {}, item.command));
	// The menu opens between the header and the message: it never covers the text.
	return rowElement(item, item.startedBy ? 'user-started-by' : item.implementsPlan ? 'user-implementation' : '', header, restore?.menu, command, userImages(item.images), ...text, userParts(item));
}

/** A user row shown already, changed (its chips settled, its hook context came): its parts made again, the focus kept on the same chip. */
export function updateUserRow(row: HTMLElement, item: UserTurnItem): void {
	const old = row.querySelector(':scope > .user-parts');
	if (!old) {
		return;
	}
	const focused = old.contains(document.activeElement) ? document.activeElement?.getAttribute('data-chip') : null;
	const parts = userParts(item);
	old.replaceWith(parts);
	if (focused !== null && focused !== undefined) {
		Array.from(parts.querySelectorAll<HTMLElement>('[data-chip]')).find((chip) => chip.getAttribute('data-chip') === focused)?.focus();
	}
}
