// The code lenses on a reminder file's key line: what the reminder cost in the current chat (from
// the chat's injection records, counted as the context line counts them), and "Preview", the block
// exactly as it would go on the wire. Pure: the server places them, the extension counts and previews.
import type { ReminderCostView } from '../protocol/messages';
import { wrap } from '../reminders/envelope';
import { renderBody, type PlaceholderValues } from './placeholders';
import type { AnalyzedReminderFile } from './reminderFile';
import type { ReminderStat } from './serverProtocol';
import { WORKSPACE_KEY_PREFIX, type FileRange, type WorkspaceReminderSpec } from './spec';

/** The workspace reminders' rows of the context line's per-key costs, by wire key. */
export function workspaceReminderStats(costs: readonly ReminderCostView[]): Record<string, ReminderStat> {
	const stats: Record<string, ReminderStat> = {};
	for (const cost of costs) {
		if (cost.key.startsWith(WORKSPACE_KEY_PREFIX)) {
			stats[cost.key] = { sent: cost.deliveries, tokens: cost.tokens };
		}
	}
	return stats;
}

export function statsTitle(stat: ReminderStat | undefined): string {
	if (stat === undefined || stat.sent === 0) {
		return 'not sent in this chat';
	}
	return `sent ${stat.sent} ${stat.sent === 1 ? 'time' : 'times'} in this chat · ~${stat.tokens} tokens`;
}

export interface ReminderLens {
	readonly range: FileRange;
	readonly title: string;
	/** Preview: the command runs with the file's URI. Absent: a lens that only says something. */
	readonly preview?: true;
}

/** The lenses of one file: none without a valid key; Preview only for a reminder that would be sent. */
export function keyLenses(parsed: AnalyzedReminderFile, stats: Readonly<Record<string, ReminderStat>>): ReminderLens[] {
	const { keyField } = parsed;
	if (keyField === undefined) {
		return [];
	}
	const lenses: ReminderLens[] = [{ range: keyField.range, title: statsTitle(stats[WORKSPACE_KEY_PREFIX + keyField.key]) }];
	if (parsed.spec) {
		lenses.push({ range: keyField.range, title: 'Preview', preview: true });
	}
	return lenses;
}

/**
 * The block as it would go on the wire now. `{{files}}` has no matched paths outside a turn, so the
 * preview shows the trigger's globs in their place (said in docs/workspace-reminders.md).
 */
export function previewBlock(spec: WorkspaceReminderSpec, values: Omit<PlaceholderValues, 'files'> & { readonly files?: readonly string[] }): string {
	const files = values.files ?? [...(spec.when?.read ?? []), ...(spec.when?.edited ?? [])];
	return wrap(WORKSPACE_KEY_PREFIX + spec.key, renderBody(spec.body, { ...values, files }));
}
