// The host side of Restore…: the view asks for a preview, the host answers with what
// the restore would do (every file, its classification and its diff), and only the preview the
// person confirms is applied — the latest one; an older one, or one cancelled, is refused. After a
// chat restore the message restored to goes back to the composer.
import { errorMessage } from '../../base/errors';
import { type IDisposable, toDisposable } from '../../base/lifecycle';
import type { RestoreFileView, RestorePreviewView, ViewMessage } from '../../protocol/messages';
import type { FeatureViewPart, FeatureViewPort } from '../../view/featureView';
import type { RestoreRequest } from '../../vocabulary/restore';
import type { ChatRestore } from './chatRestore';
import type { RestorePreview } from './restore';

/** The view's copy of a diff is bounded (postMessage clones it); the restore itself uses the whole text. */
const MAX_VIEW_DIFF_CHARS = 100_000;
const MAX_MESSAGE_CHARS = 200;

export interface RestoreViewPorts {
	/** The current chat's restore. */
	readonly restore: () => Pick<ChatRestore, 'preview' | 'apply'>;
	readonly showPreview: (preview: RestorePreviewView) => void;
	readonly giveBack: (text: string, reason: string) => void;
	readonly notice: (level: 'info' | 'warning' | 'error', text: string) => void;
}

function fileView(file: RestorePreview['plan']['files'][number]): RestoreFileView {
	const diff = file.diff.length <= MAX_VIEW_DIFF_CHARS ? file.diff : `${file.diff.slice(0, MAX_VIEW_DIFF_CHARS)}\n… ${(file.diff.length - MAX_VIEW_DIFF_CHARS).toLocaleString('en-US')} more characters of the diff\n`;
	return { shown: file.shown, action: file.action, ...(file.overwrite ? { overwrite: file.overwrite } : {}), diff };
}

/** The preview as the view shows it. */
export function previewView(id: string, preview: RestorePreview): RestorePreviewView {
	return {
		id,
		to: preview.to,
		scope: preview.scope,
		message: preview.message.length > MAX_MESSAGE_CHARS ? `${preview.message.slice(0, MAX_MESSAGE_CHARS)}…` : preview.message,
		turns: preview.turns.length,
		files: preview.plan.files.map(fileView),
		tracked: preview.tracked,
		...(preview.undoes === undefined ? {} : { undoes: preview.undoes }),
	};
}

export class RestorePreviews {
	private pending: { readonly id: string; readonly preview: RestorePreview } | undefined;
	private count = 0;

	constructor(private readonly ports: RestoreViewPorts) {}

	/** Restore… chose `scope` (or a restore row's Undo…): the preview, or why there is none. */
	preview(to: string, scope: RestoreRequest): void {
		const { notice } = this.ports;
		this.ports.restore().preview(to, scope).then(
			(outcome) => {
				if (!outcome.ok) {
					notice('warning', outcome.message);
					return;
				}
				const preview = outcome.value;
				if (scope === 'undo' && preview.plan.files.length === 0) {
					notice('info', 'The files that restore wrote are already as they were before it: there is nothing to undo.');
					return;
				}
				if (scope === 'files' && preview.plan.files.length === 0) {
					notice('info', preview.tracked ? 'No file Aside\'s tools changed since that message needs restoring: they are as they were. (Run\'s side effects are not tracked.)' : 'This window keeps no checkpoints of the files, so there are none to restore.');
					return;
				}
				const id = `restore-${++this.count}`;
				this.pending = { id, preview };
				this.ports.showPreview(previewView(id, preview));
			},
			(error: unknown) => {
				notice('error', `Could not prepare the restore: ${errorMessage(error)}`);
			},
		);
	}

	/** The preview's Restore. */
	apply(previewId: string, overwriteChanged: boolean): void {
		const { notice, giveBack } = this.ports;
		const pending = this.pending;
		if (pending?.id !== previewId) {
			notice('warning', 'That preview is no longer current: nothing was restored. Open Restore… again.');
			return;
		}
		this.pending = undefined;
		this.ports.restore().apply(pending.preview, overwriteChanged).then(
			(outcome) => {
				if (!outcome.ok) {
					notice('error', outcome.message);
					return;
				}
				if (pending.preview.scope !== 'files') {
					giveBack(pending.preview.message, 'The chat was restored to before this message: its text is back in the message box.');
				}
			},
			(error: unknown) => {
				notice('error', `Could not restore: ${errorMessage(error)}`);
			},
		);
	}

	/** The preview's Cancel: it can no longer be applied. */
	cancel(previewId: string): void {
		if (this.pending?.id === previewId) {
			this.pending = undefined;
		}
	}
}

/** Restore…'s part of the view: its `restore.*` messages. */
export class RestorePart implements FeatureViewPart, IDisposable {
	readonly id = 'restore';
	private previews: RestorePreviews | undefined;

	constructor(private readonly restore: RestoreViewPorts['restore']) {}

	connect(view: FeatureViewPort): IDisposable {
		this.previews = new RestorePreviews({
			restore: this.restore,
			showPreview: (preview) => {
				view.send({ type: 'restore.preview', preview });
			},
			giveBack: (text, reason) => {
				view.send({ type: 'composer.restore', text, reason, cause: 'restore' });
			},
			notice: (level, text) => {
				view.notice(level, text);
			},
		});
		return toDisposable(() => {
			this.previews = undefined;
		});
	}

	receive(message: ViewMessage): void {
		switch (message.type) {
			case 'restore.preview':
				this.previews?.preview(message.to, message.scope);
				return;
			case 'restore.apply':
				this.previews?.apply(message.previewId, message.overwriteChanged);
				return;
			case 'restore.cancel':
				this.previews?.cancel(message.previewId);
				return;
		}
	}

	dispose(): void {
		this.previews = undefined;
	}
}
