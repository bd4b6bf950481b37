// Changing prompt observations: the sections kept out of the stable system prompt (the date, the
// environment, the root project instructions, the permission mode's rules) are roster reminders
// flagged `observation`, so a delivery of one counts only while the history a request is built
// from still holds it (ReminderRoster.reconcileObservations). Each one, wrapped here:
// - fires when its content changed — at a turn start, or at any request for a section that may
//   change mid-turn — and then delivers its complete current contents followed by one notice
//   naming the other sections given earlier that still apply;
// - fires at ANY request (mid-turn too) while no delivery of it is on record, so after a
//   compaction, even one in the middle of a turn, the very next request carries it again, in
//   full and without the notice.
import type { FiringContext, ReminderDefinition } from '../definition';
import { AGENTS_LISTING } from './catalog/agents';
import { MODE_CONSTRAINTS } from './catalog/plans';
import { SESSION_DATE, SESSION_ENVIRONMENT } from './catalog/session';
import { SKILLS_CATALOG } from './catalog/skills';
import { WORKSPACE_INSTRUCTIONS } from './catalog/files';

/** When a section's content may change, so when a change is looked for. */
export type ChangesAt = 'turn-start' | 'any-request';

/** How the notice names each observation that still applies (other observations are not named). */
const NAMES: ReadonlyMap<string, string> = new Map([
	[SESSION_DATE.type, 'the date'],
	[SESSION_ENVIRONMENT.type, 'the environment'],
	[WORKSPACE_INSTRUCTIONS.type, 'the project instructions'],
	[MODE_CONSTRAINTS.type, 'the permission mode\'s rules'],
	[AGENTS_LISTING.type, 'the agent profiles'],
	[SKILLS_CATALOG.type, 'the skill catalog'],
]);

/** How every notice starts: what sectionOf finds again in a recorded body. */
const NOTICE_LEAD = 'This replaces the earlier version of this section';

export const CHANGED_REASON = 'changed since last delivered';

function inWords(names: readonly string[]): string {
	return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

/** The notice after a changed section: the section replaces its earlier version, and the others named still apply. */
export function stillApplies(retained: readonly ReminderDefinition[]): string {
	const names = retained.flatMap((definition) => NAMES.get(definition.type) ?? []);
	return names.length === 0 ? `${NOTICE_LEAD}.` : `${NOTICE_LEAD}; ${inWords(names)} given earlier still apply.`;
}

/** A recorded body without its notice: what the section said. */
export function sectionOf(body: string): string {
	const at = body.lastIndexOf(`\n\n${NOTICE_LEAD}`);
	return at < 0 ? body : body.slice(0, at);
}

/**
 * `definition` as a changing prompt observation. Its own trigger and content say only whether
 * there is a section and what it holds, at any request; this decides when it is looked at, the
 * reasons, and the notice.
 */
export function observation(definition: ReminderDefinition, changesAt: ChangesAt = 'turn-start'): ReminderDefinition {
	const looked = (context: FiringContext): boolean => !context.delivered || changesAt === 'any-request' || context.phase === 'turn-start';
	return {
		...definition,
		observation: true,
		sectionOf,
		trigger: (context) => looked(context) && definition.trigger(context),
		content: (context) => {
			const content = definition.content(context);
			const { reason: _own, ...parts } = typeof content === 'string' ? { body: content } : content;
			// Absent from the selected history: the policy's reason says whether it is the first
			// delivery or one a compaction dropped; no notice, the section stands alone.
			return context.delivered && parts.body !== null ? { ...parts, reason: CHANGED_REASON, notice: stillApplies } : parts;
		},
	};
}
