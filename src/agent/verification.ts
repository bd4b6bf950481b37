// What the verification suggestion (edits.verify) reads of the chat: the implementation files its
// latest turn wrote (the observers' TurnWrites) and whether the approved plan's "how to verify"
// is still to be acted on. "Acted on" means a command ran to its exit after the plan was
// approved: a Run recorded later than the approval that exited (with any code) rather than timing
// out or being denied, or a `verify` sub-agent started after it (the Agent tool). Told from the
// chat's own records, so it holds in a reopened chat too.
import type { TurnWrites } from '../observe/turnWrites';
import type { PlanToVerify, VerificationInputs } from '../reminders/builtin/editsVerify';
import type { AgentRecord } from '../transcript/records';
import type { ApprovedPlans } from './approvedPlan';

/** A command's result detail (src/tools/tool.ts, ToolDetail) that says it ran to its exit. */
function ranToExit(detail: unknown): boolean {
	if (typeof detail !== 'object' || detail === null) {
		return false;
	}
	const { kind, exitCode, timedOut } = detail as { kind?: unknown; exitCode?: unknown; timedOut?: unknown };
	return kind === 'command' && typeof exitCode === 'number' && timedOut !== true;
}

/** The agent profile whose sub-agent builds and tests: spawning one counts as acting on the plan's verification. */
export const VERIFY_PROFILE = 'verify';

/**
 * Whether a command ran to its exit in `records` at or after `since` (ms since the epoch), or a
 * `verify` sub-agent was started then (its own commands are in its own conversation).
 */
export function commandRanSince(records: readonly AgentRecord[], since: number): boolean {
	// Every record is looked at (the clock may have stepped back): this runs only when the
	// suggestion fires with an approved plan, a few times in a long chat.
	return records.some(
		(record) =>
			(record.kind === 'tool-result' && record.at >= since && !record.isError && ranToExit(record.detail)) ||
			(record.kind === 'agent-start' && record.at >= since && record.profile === VERIFY_PROFILE),
	);
}

/** Where the current chat's inputs come from (each read at the WAIT that evaluates the suggestion). */
export interface VerificationSources {
	/** The current chat's written files (its observers'), when it has observers. */
	readonly writes: () => TurnWrites | undefined;
	/** The current chat's records. */
	readonly records: () => readonly AgentRecord[];
	/** The chat's approved plan (the plan workflow's); absent, the suggestion never quotes a plan. */
	readonly plans?: ApprovedPlans;
}

export function verificationInputs(sources: VerificationSources): VerificationInputs {
	return {
		implementationFilesIn: (turn) => sources.writes()?.implementationFilesIn(turn) ?? [],
		pendingPlan: (): PlanToVerify | undefined => {
			const plan = sources.plans?.current();
			const howToVerify = plan?.howToVerify?.trim();
			if (plan === undefined || howToVerify === undefined || howToVerify === '' || commandRanSince(sources.records(), plan.approvedAt)) {
				return undefined;
			}
			return { file: plan.file, howToVerify };
		},
	};
}
