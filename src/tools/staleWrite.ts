// The stale-write guard as Edit and Write apply it: a file is changed only when its text now is
// the text the agent last saw of it in this chat (context.seen). Checked in the planning step,
// which runs when the person is asked and again when the tool runs, and once more by the writer
// right before it applies the edit, so a change made at any point before the write is caught.
import { ToolError } from './errors';
import type { ToolContext } from './tool';

/** A writer found the text changed since the edit was planned: it wrote nothing. */
export class StaleTextError extends Error {
	override readonly name = 'StaleTextError';

	constructor(readonly path: string) {
		super(`${path} changed since the edit was planned; nothing was written.`);
	}
}

export function changedSinceReadMessage(shown: string): string {
	return `${shown} changed since you last read it (in the editor or on disk), so the edit was not made and nothing was written. Read it again, then make the edit against its current text.`;
}

/** Throws a ToolError for the model unless `text` is what the agent last saw of the file. */
export function requireSeen(context: ToolContext, absolute: string, shown: string, text: string): void {
	switch (context.seen.compare(absolute, text)) {
		case 'same':
			return;
		case 'unseen':
			throw new ToolError(`${shown} has not been read in this chat. Read it first, then edit it: an edit applies to the text as you last saw it.`);
		case 'changed':
			throw new ToolError(changedSinceReadMessage(shown));
	}
}
