// The records a chat's goal is folded from (docs/goals.md). A chat restore rolls back the goal
// records and the root's goal deliveries of the turns it rolls back, as it rolls back their
// history; not their answers' usage: those requests were paid for, so the spend keeps them.
import { afterRestores } from '../transcript/replay';
import type { AgentRecord } from '../transcript/records';

/** `all` (every record, the sub-agents' included) in order, without what the chat's restores rolled back of the root conversation `root`, every answer kept. */
export function goalRecords(all: readonly AgentRecord[], root: readonly AgentRecord[]): readonly AgentRecord[] {
	if (!root.some((record) => record.kind === 'restore')) {
		return all;
	}
	const kept = new Set(afterRestores(root));
	// A sub-agent's records are no root records: of them the goal reads only its answers' usage.
	return all.filter((record) => record.kind === 'assistant' || kept.has(record));
}
