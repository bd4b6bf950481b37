// A collapsible section: a real <button aria-expanded> (so Enter, Space and Tab work natively)
// controlling a panel. The panel is built on first expand: most rows are never opened, and a
// later virtualized transcript can drop and rebuild rows cheaply.
import { type Child, el, icon, uniqueId } from './dom';

export interface Disclosure {
	readonly button: HTMLButtonElement;
	readonly panel: HTMLDivElement;
}

export interface DisclosureOptions {
	readonly buttonClass: string;
	readonly panelClass: string;
	readonly label: readonly Child[];
	readonly body: () => readonly Child[];
	readonly title?: string;
}

export function disclosure(options: DisclosureOptions): Disclosure {
	const panelId = uniqueId('panel');
	const chevron = icon('chevron-right', 'disclosure-chevron');
	const button = el(
		'button',
		{ type: 'button', class: `line-button disclosure ${options.buttonClass}`, 'aria-expanded': 'false', 'aria-controls': panelId, title: options.title },
		chevron,
		...options.label,
	);
	// aria-live off: opening a row inside the transcript's live log must not read it all out.
	const panel = el('div', { class: `disclosure-panel ${options.panelClass}`, id: panelId, hidden: true, 'aria-live': 'off' });
	let built = false;
	button.addEventListener('click', () => {
		const expand = button.getAttribute('aria-expanded') !== 'true';
		if (expand && !built) {
			panel.append(...options.body().filter((child): child is Node | string => child !== null && child !== undefined));
			built = true;
		}
		button.setAttribute('aria-expanded', String(expand));
		chevron.classList.toggle('codicon-chevron-right', !expand);
		chevron.classList.toggle('codicon-chevron-down', expand);
		panel.hidden = !expand;
	});
	return { button, panel };
}
