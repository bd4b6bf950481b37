// The staging seam of one request being prepared: typed entries (mentions, skills, compaction,
// …) and commits alone, collected before WAIT. Staging changes nothing else: the request that
// is dispatched commits them, and a request that never is simply drops its staging.
import type { Commit, Stage, StagedEntry } from './definition';
import { withArticle } from '../base/words';

export interface StagedInStage {
	readonly stage: Stage;
	readonly entry: StagedEntry;
}

export class RequestStaging {
	readonly entries: StagedInStage[] = [];
	readonly commits: Commit[] = [];
}

/**
 * Why a staged entry cannot be delivered, or undefined when it can: a staged entry exists to put
 * text in front of the model, so its body must be a string with something besides whitespace in
 * it (an empty block would tell the model nothing and cost a block).
 */
export function unstageableBody(body: unknown): string | undefined {
	if (typeof body !== 'string') {
		return `its body is ${body === null || body === undefined ? String(body) : withArticle(typeof body)}, not text`;
	}
	return body.trim() === '' ? 'its body is blank' : undefined;
}

/**
 * Stages one entry for this request, in `stage` (order within a stage is the order of calls).
 * An entry whose body is empty, whitespace only or not a string is not added, and its commit
 * never runs: a commit acknowledges a delivery, and nothing would be delivered. To acknowledge
 * state without sending text, stage the commit alone with `stageCommit`. Returns whether the
 * entry was added.
 */
export function stageEntry(staging: RequestStaging, stage: Stage, entry: StagedEntry): boolean {
	if (unstageableBody(entry.body) !== undefined) {
		return false;
	}
	staging.entries.push({ stage, entry });
	return true;
}

/** Defers a commit alone, for consumable state whose payload already rides this request's prompt. */
export function stageCommit(staging: RequestStaging, commit: Commit): void {
	staging.commits.push(commit);
}
