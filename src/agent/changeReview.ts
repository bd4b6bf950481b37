// The review of a change set in the editor (its VS Code side: src/vscode/changeReview.ts): while a
// write waits for the person's decision, each file opens in a diff editor — the file as it is now
// against the proposed text, which the person may change there. The decision itself is the
// permission gate's (the card in the chat, and the diff editor's title bar): one for the whole
// change set. At Accept the runner reads the proposed sides back, as the person left them.
import type { FileChange } from '../tools/changes';
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';

export interface ReviewRequest {
	readonly callId: string;
	readonly tool: string;
	readonly title: string;
	readonly changes: readonly FileChange[];
}

/** A review open in the editor, until it is closed. */
export interface OpenReview {
	/**
	 * The proposed side of each change now, in the request's order: the person's text if they
	 * changed it; null for a deletion; undefined when it could not be read (the proposal stands).
	 */
	proposedSides(): Promise<readonly (string | null | undefined)[]>;
	/** The decision was made (or the turn stopped): the diff editors close, their documents go. */
	close(): Promise<void>;
}

export interface ChangeReview {
	/** Opens the diff editor (one file) or the multi-diff editor (several) without taking the focus from the chat. */
	open(request: ReviewRequest): Promise<OpenReview>;
	/** Shows the diff of one file of an open review (the card's "Open diff"); all of them without `path`. */
	show(callId: string, path?: string): Promise<void>;
}

/**
 * The reviews of calls asking side by side (sub-agents), one at a time: a review opens once the
 * one before it closed. The editor holds one review, and the approval card shows the first call
 * that asked; a call asks before it opens its review, so the review open is always the card's.
 */
export function oneReviewAtATime(review: ChangeReview): ChangeReview {
	let previous: Promise<void> = Promise.resolve();
	return {
		open: async (request) => {
			const before = previous;
			let closed = (): void => undefined;
			previous = new Promise<void>((resolve) => {
				closed = resolve;
			});
			await before;
			let opened: OpenReview;
			try {
				opened = await review.open(request);
			} catch (error) {
				closed();
				throw error;
			}
			return {
				proposedSides: () => opened.proposedSides(),
				close: async () => {
					try {
						await opened.close();
					} finally {
						closed();
					}
				},
			};
		},
		show: (callId, path) => review.show(callId, path),
	};
}

/** The review card's "Open diff": a file (or all) of the change set waiting for the person, when `callId` is the call waiting. */
export function showPendingReview(
	waiting: { readonly callId: string } | null,
	ports: { readonly review?: ChangeReview; readonly runtime: { readonly log: Logger } },
	callId: string,
	path: string | undefined,
): void {
	if (waiting?.callId !== callId || !ports.review) {
		return;
	}
	ports.review.show(callId, path).catch((error: unknown) => {
		ports.runtime.log.warn(`Aside: could not show the review of ${callId}: ${errorMessage(error)}`);
	});
}
