// A chat's Restore…, between turns only: the preview (what would happen to each file, before
// anything does), then the one the person confirmed, applied while messages sent meanwhile wait
// for it (they start the next turn, on the restored chat).
import type { FeatureChat } from '../../agent/chatFeature';
import { errorMessage } from '../../base/errors';
import type { RestoreRecord } from '../../transcript/restoreRecord';
import type { RestoreRequest } from '../../vocabulary/restore';
import { applyRestorePreview, previewRestore, type RestoreOutcome, type RestorePreview } from './restore';

export class ChatRestore {
	constructor(private readonly chat: Pick<FeatureChat, 'session' | 'between'>) {}

	/** Restore… on a user row (or Undo… on a restore's): what restoring `scope` to before message `to` would do. */
	async preview(to: string, scope: RestoreRequest): Promise<RestoreOutcome<RestorePreview>> {
		const { session, between } = this.chat;
		const refused = between.refusal('restoring');
		return refused === undefined ? previewRestore(session, between.ports, to, scope, new AbortController().signal) : { ok: false, message: refused };
	}

	/**
	 * Applies a preview the person confirmed (person-changed files only with `overwriteChanged`); refused
	 * while the agent works, or when it is another chat's.
	 */
	async apply(preview: RestorePreview, overwriteChanged: boolean): Promise<RestoreOutcome<RestoreRecord>> {
		const { session, between } = this.chat;
		const refused = between.refusal('restoring') ?? (preview.sessionId === session.id ? undefined : 'Another chat was opened since the preview; nothing was restored.');
		if (refused !== undefined) {
			return { ok: false, message: refused };
		}
		const observers = between.observers();
		return between.run(
			// Once it started writing, a restore is seen through: a Stop does not cut it short.
			() => applyRestorePreview(
				session,
				between.ports,
				preview,
				overwriteChanged,
				{ ...(observers ? { observers } : {}), rearmPlan: () => { between.restored(); } },
				new AbortController().signal,
			),
			{ stoppable: false, failed: (error) => ({ ok: false, message: `Could not restore: ${errorMessage(error)}` }) },
		);
	}
}
