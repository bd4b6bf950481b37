// Which user row may not be forked now: the last root message while its turn
// runs (its records are not all written; the host refuses it too). Rows are built lazily by the
// virtual list, so a row asks here when it is made, and the rows on screen are updated on change.
let blocked: string | undefined;

/** Whether the Fork control of user row `id` is disabled. */
export function isForkBlocked(id: string): boolean {
	return id === blocked;
}

/** The row whose turn runs now (or none); the Fork controls on screen follow. */
export function blockFork(id: string | undefined): void {
	if (id === blocked) {
		return;
	}
	blocked = id;
	for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>('button[data-fork]'))) {
		setForkState(button, button.getAttribute('data-fork') === blocked);
	}
}

export function setForkState(button: HTMLButtonElement, disabled: boolean): void {
	button.disabled = disabled;
	button.title = disabled ? 'Fork from here: not while this message\'s turn runs' : 'Fork from here: a new chat with the history up to this message\'s answer';
}
