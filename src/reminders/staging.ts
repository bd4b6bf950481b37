// The staging seam of one request being prepared: typed entries (mentions, skills, compaction,
// …) and commits alone, collected before WAIT. Staging changes nothing else: the request that
// is dispatched commits them, and a request that never is simply drops its staging.
import type { Commit, Stage, StagedEntry } from './definition';

export interface StagedInStage {
	readonly stage: Stage;
	readonly entry: StagedEntry;
}

export class RequestStaging {
	readonly entries: StagedInStage[] = [];
	readonly commits: Commit[] = [];
}

/** Stages one entry for this request, in `stage` (order within a stage is the order of calls). */
export function stageEntry(staging: RequestStaging, stage: Stage, entry: StagedEntry): void {
	staging.entries.push({ stage, entry });
}

/** Defers a commit alone, for consumable state whose payload already rides this request's prompt. */
export function stageCommit(staging: RequestStaging, commit: Commit): void {
	staging.commits.push(commit);
}
