// `patch.user-revised`: the person changed the proposed text of an edit in the diff editor before
// accepting it, so what was applied is their text. A turn event for the owner whose call it was,
// delivered once at its next request (right after that call's result), and queued afresh by each
// revised review: several in one batch add up to one entry, none is lost. The tool result already
// carries the diff from the proposal to what was applied; this says what follows from it.
import { entryOf } from '../declaration';
import { sanitizeUntrusted } from '../envelope';
import { AccumulatingKind, type TurnEvent } from '../turnEvents';
import { PATCH_USER_REVISED } from './catalog/plans';

/** One reviewed call the person revised: the tool, and the files whose proposed text they changed. */
export interface UserRevision {
	readonly tool: string;
	/** As the model saw them (relative to the workspace folder). */
	readonly files: readonly string[];
}

function files(revision: UserRevision): string {
	return revision.files.map((file) => sanitizeUntrusted(file)).join(', ');
}

const AUTHORITATIVE =
	'What was applied is the user\'s text, not your proposal, and it is authoritative: do not reapply your original proposal or undo their changes, and base any further edit on the files as they are now (the tool result shows the diff from your proposal to what was applied).';

const REVISIONS = new AccumulatingKind<UserRevision>(entryOf(PATCH_USER_REVISED), {
	render: (revisions) => {
		const lines = revisions.map((revision) => `The user revised your proposed ${revision.tool} of ${files(revision)} in the diff editor before accepting it.`);
		const count = revisions.reduce((sum, revision) => sum + revision.files.length, 0);
		return {
			body: `${lines.join('\n')}\n${AUTHORITATIVE}`,
			reason: count === 1 ? 'the user revised a proposed change before accepting it' : `the user revised proposed changes to ${count} files before accepting them`,
		};
	},
});

/** The turn event for one revised review (several of one batch add up, in order). */
export function patchUserRevised(revision: UserRevision): TurnEvent {
	return REVISIONS.event([revision]);
}
