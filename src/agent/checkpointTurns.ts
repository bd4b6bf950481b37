// The turns the chat's checkpoints are kept under (src/checkpoints/): each root message's turn, and
// each restore that wrote files (its own turn, so the restore can be undone). A restore to before a
// message, a fork and a worktree fork read the writes of every such turn from that point on.
import type { AgentRecord } from '../transcript/records';

/** The checkpoint turn `record` starts, if any: a root user record's turn, or a restore's own. */
export function checkpointTurnOf(record: AgentRecord): string | undefined {
	if (record.kind === 'user') {
		return record.agent === undefined ? record.turnId : undefined;
	}
	return record.kind === 'restore' ? record.turnId : undefined;
}
