// Details on demand: a real <button aria-expanded> (Enter and Space work natively) that opens a
// panel beside it. Escape, from the button or inside the panel, closes it and gives the focus
// back to the button. A panel over the chat (`overlay`) also closes when a click or the focus
// goes anywhere outside `within`, so it never lingers there; one in the page's flow does not, as
// closing it on a click would move what the click was aimed at.

export interface Popover {
	readonly isOpen: boolean;
	setOpen(open: boolean): void;
}

export function popover(button: HTMLButtonElement, panel: HTMLElement, within: HTMLElement, overlay: boolean): Popover {
	let open = false;
	const setOpen = (next: boolean): void => {
		if (next === open) {
			return;
		}
		open = next;
		button.setAttribute('aria-expanded', String(open));
		panel.hidden = !open;
	};
	button.setAttribute('aria-expanded', 'false');
	button.setAttribute('aria-controls', panel.id);
	panel.hidden = true;
	button.addEventListener('click', () => {
		setOpen(!open);
	});
	within.addEventListener('keydown', (event) => {
		if (event.key === 'Escape' && open) {
			// The chat's own Escape (Stop) must not see it.
			event.preventDefault();
			event.stopPropagation();
			setOpen(false);
			button.focus();
		}
	});
	const outside = (event: Event): void => {
		if (open && event.target instanceof Node && !within.contains(event.target)) {
			setOpen(false);
		}
	};
	if (overlay) {
		document.addEventListener('pointerdown', outside);
		document.addEventListener('focusin', outside);
	}
	return {
		get isOpen() {
			return open;
		},
		setOpen,
	};
}
