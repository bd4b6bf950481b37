// The review of a change set in VS Code's own diff editor (the port: src/agent/changeReview.ts).
// Left: the workspace file itself, so it is the file as it is now (unsaved changes included) and
// follows any change made to it while the review is open; an empty read-only document for a file
// that does not exist yet. Right: the proposed text as a document of Aside's own scheme, named by
// the file's workspace-relative path (reviewDocuments.ts) — never the workspace file — which the
// person may edit; a deletion's right side is empty and read-only. One file opens in the diff
// editor, several in the multi-diff editor, without taking the focus from the chat. The title bar
// of those editors carries Allow and Deny while the review waits (a `when` on the context key set
// here and the proposed side's scheme); closing them or pressing Escape decides nothing: the card
// stays, and "Open diff" brings them back.
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../base/errors';
import { Emitter, type Event } from '../base/event';
import type { Logger } from '../base/log';
import type { ChangeReview, OpenReview, ReviewRequest } from '../agent/changeReview';
import type { FileChange } from '../tools/changes';
import { REVIEW_SCHEME, ReviewDocuments } from './reviewDocuments';

/** Documents that are empty: the left side of a new file, the right side of a deletion. */
export const EMPTY_SCHEME = 'aside-review-empty';
/** The context key of `contributes.menus` `editor/title`. */
const PENDING_KEY = 'aside.review.pending';
/** The title-bar commands, and the ids they had when they said Accept and Reject (kept for keybindings). */
const COMMANDS = { allow: ['aside.review.allow', 'aside.review.accept'], deny: ['aside.review.deny', 'aside.review.reject'] } as const;

export interface ReviewDecision {
	readonly callId: string;
	readonly granted: boolean;
}

interface Side {
	readonly change: FileChange;
	readonly left: vscode.Uri;
	readonly right: vscode.Uri;
	/** The proposed side's document, while it is editable (not for a deletion). */
	readonly document: vscode.TextDocument | undefined;
}

interface Opened {
	readonly request: ReviewRequest;
	readonly title: string;
	readonly sides: readonly Side[];
}

function emptyUri(change: FileChange, side: 'before' | 'after'): vscode.Uri {
	return vscode.Uri.from({ scheme: EMPTY_SCHEME, path: `/${change.shown.split('\\').join('/').replace(/^\/+/, '')}`, query: side });
}

/** The proposed side as the person left it: the open document (unsaved typing included), else the saved file. */
async function proposedSide(side: Side): Promise<string | null> {
	if (side.change.after === null) {
		return null;
	}
	const key = side.right.toString();
	const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
	return (open ?? (await vscode.workspace.openTextDocument(side.right))).getText();
}

export class VsCodeChangeReview implements ChangeReview, vscode.Disposable {
	private current: Opened | undefined;
	/** Reviews opened so far: each one's documents are its own, even of a file reviewed before. */
	private count = 0;
	private readonly documents = new ReviewDocuments();
	private readonly disposables: vscode.Disposable[] = [];
	private readonly _onDidDecide = new Emitter<ReviewDecision>();
	/** Allow or Deny from the diff editor's title bar, for the review open now. */
	readonly onDidDecide: Event<ReviewDecision> = this._onDidDecide.event;

	constructor(private readonly log: Logger) {
		this.disposables.push(
			vscode.workspace.registerTextDocumentContentProvider(EMPTY_SCHEME, { provideTextDocumentContent: () => '' }),
			vscode.workspace.registerFileSystemProvider(REVIEW_SCHEME, this.documents, { isCaseSensitive: true }),
			new vscode.Disposable(() => {
				this.documents.dispose();
			}),
			...COMMANDS.allow.map((id) => vscode.commands.registerCommand(id, () => {
				this.decide(true);
			})),
			...COMMANDS.deny.map((id) => vscode.commands.registerCommand(id, () => {
				this.decide(false);
			})),
		);
	}

	/** The review open now, for the integration tests: its call and each proposed side's document. */
	get openReview(): { readonly callId: string; readonly proposed: readonly (vscode.TextDocument | undefined)[] } | undefined {
		const { current } = this;
		return current && { callId: current.request.callId, proposed: current.sides.map((side) => side.document) };
	}

	async open(request: ReviewRequest): Promise<OpenReview> {
		// One call waits at a time; a review left open by a call that ended goes first.
		await this.closeCurrent();
		const review = `${request.callId}.${++this.count}`;
		const sides: Side[] = [];
		for (const change of request.changes) {
			const left = change.before === null ? emptyUri(change, 'before') : vscode.Uri.file(change.path);
			if (change.after === null) {
				sides.push({ change, left, right: emptyUri(change, 'after'), document: undefined });
				continue;
			}
			// The file's own path keeps its name (and so its language) on the proposed side.
			const right = this.documents.uriOf(change.shown, review);
			this.documents.put(right, change.after);
			sides.push({ change, left, right, document: await vscode.workspace.openTextDocument(right) });
		}
		const opened: Opened = { request, title: `Review: ${request.title}`, sides };
		this.current = opened;
		await this.setContext(opened);
		// An editor that cannot open leaves the review to the card (whose "Open diff" tries again).
		await this.showSides(opened, undefined, true).catch((error: unknown) => {
			this.log.warn(`Aside: could not open the diff editor for ${request.title}: ${errorMessage(error)}`);
		});
		return {
			proposedSides: () => Promise.all(opened.sides.map((side) => proposedSide(side))),
			close: () => this.close(opened),
		};
	}

	async show(callId: string, path?: string): Promise<void> {
		const { current } = this;
		if (current?.request.callId !== callId) {
			return;
		}
		await this.showSides(current, path, false);
	}

	dispose(): void {
		void this.closeCurrent();
		for (const disposable of this.disposables) {
			disposable.dispose();
		}
		this._onDidDecide.dispose();
	}

	private decide(granted: boolean): void {
		const { current } = this;
		if (!current) {
			void vscode.window.showInformationMessage('Aside: no change is waiting for a review.');
			return;
		}
		this._onDidDecide.fire({ callId: current.request.callId, granted });
	}

	private async showSides(opened: Opened, path: string | undefined, preserveFocus: boolean): Promise<void> {
		const sides = path === undefined ? opened.sides : opened.sides.filter((side) => side.change.shown === path);
		const [first] = sides;
		if (!first) {
			return;
		}
		if (sides.length === 1) {
			// Left ↔ right, as VS Code names a diff: the file as it is, and the proposal.
			const name = nodePath.posix.basename(first.change.shown.split('\\').join('/'));
			const title = `${name} ↔ ${name} (proposed by ${opened.request.tool})`;
			await vscode.commands.executeCommand('vscode.diff', first.left, first.right, title, { preview: false, preserveFocus });
			return;
		}
		await vscode.commands.executeCommand(
			'vscode.changes',
			opened.title,
			sides.map((side) => [side.change.after === null ? side.left : vscode.Uri.file(side.change.path), side.left, side.right]),
		);
	}

	private async setContext(opened: Opened | undefined): Promise<void> {
		await vscode.commands.executeCommand('setContext', PENDING_KEY, opened !== undefined);
	}

	private async closeCurrent(): Promise<void> {
		if (this.current) {
			await this.close(this.current);
		}
	}

	/** The editors of this review close without asking to save (their documents are saved in memory first), and their documents go. */
	private async close(opened: Opened): Promise<void> {
		if (this.current !== opened) {
			return;
		}
		this.current = undefined;
		await this.setContext(undefined);
		const rights = new Set(opened.sides.map((side) => side.right.toString()));
		try {
			for (const side of opened.sides) {
				if (side.document?.isDirty) {
					await side.document.save();
				}
			}
			const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => {
				const { input } = tab;
				if (input instanceof vscode.TabInputTextDiff || input instanceof vscode.TabInputText) {
					return rights.has((input instanceof vscode.TabInputTextDiff ? input.modified : input.uri).toString());
				}
				// The multi-diff editor's input is not in the API: it is known by its title (VS Code may add the count).
				return tab.label.startsWith(opened.title);
			});
			await vscode.window.tabGroups.close(tabs, true);
		} catch (error) {
			this.log.warn(`Aside: could not close the review's diff editors: ${errorMessage(error)}`);
		}
		this.documents.drop(opened.sides.map((side) => side.right).filter((uri) => uri.scheme === REVIEW_SCHEME));
	}
}
