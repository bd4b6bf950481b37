// A plan-decision row's link: the view names the approval, never a path, and the host opens the
// file that approval of the current chat saved (beside the transcript, outside the workspace, so
// `mention.open` would refuse it).
import { errorMessage } from '../../base/errors';
import type { TranscriptEntry } from '../../transcript/records';
import type { WorkbenchActions } from '../../view/controls';

/** The plan file the approval `decision` among `records` saved, if there is one. */
export function approvedPlanFile(records: readonly TranscriptEntry[], decision: string): string | undefined {
	const record = records.find((candidate) => candidate.kind === 'plan-decision' && candidate.id === decision);
	return record?.kind === 'plan-decision' && record.decision === 'approved' ? record.file : undefined;
}

/** Opens it, or says why not. */
export function openPlanFile(records: readonly TranscriptEntry[], decision: string, workbench: Pick<WorkbenchActions, 'openPlan'>, notice: (level: 'warning' | 'error', text: string) => void): void {
	const file = approvedPlanFile(records, decision);
	if (file === undefined || workbench.openPlan === undefined) {
		notice('warning', 'That plan file is not part of this chat.');
		return;
	}
	workbench.openPlan(file).then(undefined, (error: unknown) => {
		notice('error', `Could not open the plan file ${file}: ${errorMessage(error)}`);
	});
}
