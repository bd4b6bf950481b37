// `context.compaction`: while automatic compaction is on (`facts.compaction`), once each time
// context use crosses `aside.context.warnAt` — at or past it now, below it at the previous
// evaluation (or never evaluated since the chat was opened or last compacted) — the model is told
// that the chat will be compacted at `aside.context.autoCompactAt` and to keep what must survive in
// the task list or the plan file. Falling below warnAt again (after a compaction) re-arms it. Never
// when warnAt is not below autoCompactAt, never without a known window. Only its commit disarms
// it, so a failed request leaves it due.
import { rosterDefinition } from '../declaration';
import type { ReminderDefinition, WaitFacts } from '../definition';
import { CONTEXT_COMPACTION } from './catalog/context';

const format = new Intl.NumberFormat('en-US');
const percent = (share: number): string => `${Math.round(share * 100)}%`;

interface Reading {
	readonly usedTokens: number;
	readonly limitTokens: number;
	readonly share: number;
	readonly warnAt: number;
	readonly autoCompactAt: number;
}

/** The facts the warning reads, or undefined when it cannot apply (compaction off, no window, thresholds that leave no room to warn). */
function readingOf(facts: WaitFacts): Reading | undefined {
	const { compaction, context } = facts;
	if (!compaction || !context || !(context.limitTokens > 0) || !(compaction.warnAt < compaction.autoCompactAt)) {
		return undefined;
	}
	return { ...context, share: context.usedTokens / context.limitTokens, warnAt: compaction.warnAt, autoCompactAt: compaction.autoCompactAt };
}

export function contextCompactionBody(reading: Reading): string {
	return [
		`Context window: ${format.format(reading.usedTokens)} of ${format.format(reading.limitTokens)} tokens in use (${percent(reading.share)}).`,
		`At ${percent(reading.autoCompactAt)} this chat will be compacted: the earlier turns are replaced by a summary that you write, and only that summary and the latest messages stay in your context.`,
		'Keep what must survive in the task list (TaskWrite) or the plan file: open work, decisions and their reasons, the files that matter and their state.',
	].join('\n');
}

export function contextCompaction(): ReminderDefinition {
	// Whether a crossing is due: undefined until the first evaluation since the chat was opened or
	// compacted (then due unless the selected history still holds a warning), true once use was seen
	// below warnAt, false from a delivered warning's commit until use falls below warnAt again.
	let armed: boolean | undefined;
	const definition = rosterDefinition(CONTEXT_COMPACTION, {
		scope: 'session',
		trigger: ({ facts, delivered }) => {
			const reading = readingOf(facts);
			if (!reading) {
				return false;
			}
			if (reading.share < reading.warnAt) {
				armed = true;
				return false;
			}
			return armed ?? !delivered;
		},
		content: ({ facts }) => {
			const reading = readingOf(facts);
			return reading
				? {
						body: contextCompactionBody(reading),
						reason: `context use crossed ${percent(reading.warnAt)} (automatic compaction at ${percent(reading.autoCompactAt)})`,
						commit: () => {
							armed = false;
						},
					}
				: { body: null };
		},
	});
	return {
		...definition,
		// Flagged an observation so that a compaction, which drops the warning from the history the
		// next requests are built from, re-arms it (reconcileObservations calls forget).
		observation: true,
		forget: () => {
			armed = undefined;
		},
	};
}
