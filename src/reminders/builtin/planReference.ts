// `plan.reference`: the approved plan, once, at the start of a later turn while it may still be
// relevant: after its implementation turn (which carries the whole plan as the person's message)
// and outside plan mode (a new plan episode is about replacing it). Bounded by
// `aside.plan.referenceMaxChars`, cut at a line break, saying what was left out and where the
// plan file is. One-shot: a new approval re-arms it, and so may compaction (`rearm` on the chat's
// plans, src/agent/plans.ts), once the implementation request has left the history. While the
// chat's active goal carries this same plan, goal.current names the plan file instead, and this
// stays silent (a goal with no plan, or another one, does not silence it).
import { rosterDefinition } from '../declaration';
import type { ReminderDefinition } from '../definition';
import { sanitizeUntrusted } from '../envelope';
import { PLAN_REFERENCE } from './catalog/plans';
import { plural } from '../../base/words';

/** The approved plan as the reminder repeats it. */
export interface ReferencedPlan {
	/** The plan file, absolute. */
	readonly file: string;
	readonly text: string;
	readonly approvedAt: number;
}

export interface PlanReferenceSource {
	/** The plan to remind of at this turn's start, or undefined when there is none or it is not due (its own implementation turn). */
	referable(): ReferencedPlan | undefined;
	/** The most characters of the plan to repeat (`aside.plan.referenceMaxChars`). */
	maxChars(): number;
	/** A plan file a chat feature already tells the model of (the active goal's, docs/goals.md), if any. */
	carriedPlan?(): string | undefined;
}

/** The plan to remind of now: none while the active goal carries this same plan. */
function due(source: PlanReferenceSource): ReferencedPlan | undefined {
	const plan = source.referable();
	return plan && source.carriedPlan?.() !== plan.file ? plan : undefined;
}

/** The first `maxChars` of the plan, cut at a line break when there is one in the second half, and what was cut. */
export function boundedPlan(text: string, maxChars: number): { readonly shown: string; readonly cutChars: number; readonly cutLines: number } {
	if (text.length <= maxChars) {
		return { shown: text, cutChars: 0, cutLines: 0 };
	}
	let end = maxChars;
	const newline = text.lastIndexOf('\n', maxChars);
	if (newline >= maxChars / 2) {
		end = newline;
	} else if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) {
		// Never split a surrogate pair.
		end -= 1;
	}
	const rest = text.slice(end).replace(/^\n/, '');
	return { shown: text.slice(0, end).trimEnd(), cutChars: text.length - end, cutLines: rest === '' ? 0 : rest.split('\n').length };
}

function isoMinute(at: number): string {
	return new Date(at).toISOString().replace(/:\d\d\.\d+Z$/, 'Z');
}

/** The reminder's body for `plan`, at most `maxChars` of its text. */
export function planReferenceBody(plan: ReferencedPlan, maxChars: number): string {
	const { shown, cutChars, cutLines } = boundedPlan(plan.text, maxChars);
	// The plan is the model's text: one that quotes a marker is neutralised, not refused (and so dropped).
	const lines = [
		`The person approved this plan at ${isoMinute(plan.approvedAt)}; it still guides the work in this chat unless they say otherwise. Plan file: ${sanitizeUntrusted(plan.file)}`,
		'',
		sanitizeUntrusted(shown),
	];
	if (cutChars > 0) {
		lines.push(
			'',
			`[Cut: the last ${plural(cutChars, 'character')} (${plural(cutLines, 'line')}) of the plan are not shown here. The whole plan is in the plan file and in the implementation request earlier in this conversation.]`,
		);
	}
	return lines.join('\n');
}

/** The reminder for one chat, reading that chat's approved plan. */
export function planReference(source: PlanReferenceSource): ReminderDefinition {
	return rosterDefinition(PLAN_REFERENCE, {
		scope: 'session',
		trigger: ({ phase, facts }) => phase === 'turn-start' && facts.mode !== 'plan' && due(source) !== undefined,
		content: () => {
			const plan = due(source);
			return plan ? planReferenceBody(plan, source.maxChars()) : { body: null };
		},
	});
}
