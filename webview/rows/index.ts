// One function per row kind, chosen here. Each returns a fresh element, so a row can be
// re-rendered or swapped for a richer one on its own. Every row the host sends is shown: which
// items become rows is decided on the host (src/view/rows.ts).
import type { AgentItem, TranscriptItem } from '../../src/protocol/messages';
import { assistantRow } from './assistant';
import { compactionRow } from './compaction';
import { forkRow } from './fork';
import { planDecisionRow } from './plan';
import { remindersRow } from './reminders';
import { restoredRow, updateRestoredRow } from './restored';
import { toolRow } from './tool';
import { turnEndRow, updateTurnEndRow } from './turnEnd';
import { updateUserRow, userRow } from './user';

/** A mounted row whose item changed, changed in place (the kinds whose rows change: a user row's chips, a turn's end, a restore undone). */
export function updateRow(row: HTMLElement, item: Exclude<TranscriptItem, AgentItem>): void {
	if (item.kind === 'user') {
		updateUserRow(row, item);
	} else if (item.kind === 'turn-end') {
		updateTurnEndRow(row, item);
	} else if (item.kind === 'restore') {
		updateRestoredRow(row, item);
	}
}

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
