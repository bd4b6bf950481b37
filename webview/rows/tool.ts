// One tool call, compact: what ran on what, how it went and how long it took. Expanded: the
// input, the result, and the diff of an edit. Notices that rode the result stay visible as
// their own rows, collapsed or not, because the view never hides what the model was told.
import type { ToolItem } from '../../src/protocol/messages';
import { diffView } from '../diff';
import { disclosure } from '../disclosure';
import { el, icon, srOnly } from '../dom';
import { formatDuration, toolTarget } from '../format';
import { rowElement } from './common';
import { noticeRow } from './reminders';

// Matched on lower-cased names so a renamed or future tool still gets a sensible icon.
const TOOL_ICONS: Record<string, string> = {
	read: 'file',
	list: 'folder',
	ls: 'folder',
	glob: 'files',
	grep: 'search',
	search: 'search',
	edit: 'edit',
	write: 'new-file',
	bash: 'terminal',
	run: 'terminal',
	shell: 'terminal',
	fetch: 'globe',
	webfetch: 'globe',
};

export function toolIcon(name: string): string {
	return TOOL_ICONS[name.toLowerCase()] ?? 'tools';
}

type ToolStatus = 'ok' | 'error' | 'denied';

function statusOf(item: ToolItem): ToolStatus {
	return item.verdict === 'denied' ? 'denied' : item.isError ? 'error' : 'ok';
}

function statusView(status: ToolStatus): HTMLElement {
	switch (status) {
		case 'ok':
			return el('span', { class: 'tool-status tool-status-ok', title: 'Succeeded' }, icon('check'), srOnly('ok'));
		case 'error':
			return el('span', { class: 'tool-status tool-status-error' }, icon('error'), 'error');
		case 'denied':
			return el('span', { class: 'tool-status tool-status-denied', title: 'You denied this call' }, icon('circle-slash'), 'denied');
	}
}

function section(title: string, content: HTMLElement): HTMLElement {
	return el('div', { class: 'tool-section' }, el('div', { class: 'tool-section-title' }, title), content);
}

function toolBody(item: ToolItem): HTMLElement[] {
	return [
		section('Input', el('pre', { class: 'tool-input', tabindex: '0', 'aria-label': 'Input' }, item.input)),
		section(item.isError ? 'Error' : 'Result', el('pre', { class: 'tool-result', tabindex: '0', 'aria-label': 'Result' }, item.result)),
		item.diff ? section('Diff', diffView(item.diff)) : null,
	].filter((node): node is HTMLElement => node !== null);
}

export function toolRow(item: ToolItem): HTMLLIElement {
	const target = toolTarget(item.input);
	const status = statusOf(item);
	const { button, panel } = disclosure({
		buttonClass: 'tool-toggle',
		panelClass: 'tool-panel',
		label: [
			icon(toolIcon(item.name)),
			el('span', { class: 'tool-name' }, item.name),
			target ? el('span', { class: 'tool-target', title: target }, target) : null,
			statusView(status),
			item.durationMs === undefined ? null : el('span', { class: 'tool-duration' }, formatDuration(item.durationMs)),
		],
		body: () => toolBody(item),
	});
	return rowElement(item, `tool-${status}`, button, panel, ...item.notices.map(noticeRow));
}
