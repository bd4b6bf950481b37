// One function per row kind, chosen here. Each returns a fresh element, so a row can be
// re-rendered or swapped for a richer one on its own. Every row the host sends is shown: which
// items become rows is decided on the host (src/view/rows.ts).
import type { AgentItem, TranscriptItem } from '../../src/protocol/messages';
import { assistantRow } from './assistant';
import { compactionRow } from './compaction';
import { forkRow } from './fork';
import { planDecisionRow } from './plan';
import { remindersRow } from './reminders';
import { restoredRow } from './restored';
import { toolRow } from './tool';
import { turnEndRow } from './turnEnd';
import { userRow } from './user';

/** A child agent's header is a block with rows of its own (agent.ts), made by the transcript. */
export function rowFor(item: Exclude<TranscriptItem, AgentItem>): HTMLLIElement {
	switch (item.kind) {
		case 'user':
			return userRow(item);
		case 'assistant':
			return assistantRow(item);
		case 'tool':
			return toolRow(item);
		case 'reminders':
			return remindersRow(item);
		case 'turn-end':
			return turnEndRow(item);
		case 'plan-decision':
			return planDecisionRow(item);
		case 'compaction':
			return compactionRow(item);
		case 'fork':
			return forkRow(item);
		case 'restore':
			return restoredRow(item);
	}
}
