// `mode.plan`: in plan mode, how to explore and propose. A plan episode starts when a request is
// made in plan mode after one that was not (or the chat's first); its first delivery carries the
// full template, and the first request of each later user turn of the same episode a one-line
// reference (the declaration's policy is every turn: within one turn the tools on offer do not
// change, so the line would only repeat). A request in another mode ends the episode, so entering
// plan mode again starts a new one with the full template; the person's feedback on a proposal
// is a turn of the same episode. A reopened chat starts a new episode: the episode lives in this
// definition, not in the transcript, so the full template goes out once more after a reopen.
import { rosterDefinition } from '../declaration';
import type { ReminderDefinition } from '../definition';
import { MODE_PLAN } from './catalog/plans';

export const PROPOSAL_OPEN_TAG = '<proposed_plan>';
export const PROPOSAL_CLOSE_TAG = '</proposed_plan>';

/** The full guidance, sent once per plan episode. */
export const PLAN_TEMPLATE = [
	'Plan mode is on: this is a planning episode. Until the person approves a plan, work read-only.',
	'- Inspect only, with Read, List, Glob and Grep. There is no Run in this mode and no Edit or Write: do not try them or ask for them.',
	'- Nothing is written in plan mode except this chat\'s plan file, and Aside writes it, not you (you have no tool for it): when the person approves your proposal, Aside saves it beside the chat, switches to the mode they pick and asks you to implement it.',
	'- Explore first: read the code and files the change touches before you propose; say what you could not check.',
	`- Propose with these exact tags, each on a line of its own, the plan in Markdown between them:`,
	PROPOSAL_OPEN_TAG,
	'…the plan…',
	PROPOSAL_CLOSE_TAG,
	'- Preferred shape, as Markdown headings: "Goal"; "Steps" (numbered); "Files to change"; "How to verify" (the commands or checks that show it works); "Risks".',
	'- One proposal per answer. The person approves it, asks for a revision (their feedback comes back to you, still in plan mode) or rejects it; to change a proposal, send it again in full.',
].join('\n');

/** The one line later requests of the episode get. */
export const PLAN_REFERENCE_LINE = `Plan mode is still on (read-only: no Run, no writes): propose with ${PROPOSAL_OPEN_TAG} … ${PROPOSAL_CLOSE_TAG}, each tag on a line of its own; the full guidance is in the first mode.plan reminder of this plan episode, earlier in this conversation.`;

const PLAN_MODE = 'plan';

/** The reminder for one chat, with that chat's episode (each session installs its own). */
export function modePlan(): ReminderDefinition {
	// Whether the full template was delivered (committed) in the episode going on now.
	let templateDelivered = false;
	return rosterDefinition(MODE_PLAN, {
		scope: 'session',
		trigger: ({ facts }) => {
			if (facts.mode !== PLAN_MODE) {
				// Out of plan mode: the episode, if any, is over.
				templateDelivered = false;
				return false;
			}
			return true;
		},
		content: () =>
			templateDelivered
				? { body: PLAN_REFERENCE_LINE, reason: 'plan mode, later turn of the same episode' }
				: {
						body: PLAN_TEMPLATE,
						reason: 'plan mode, first request of a plan episode',
						commit: () => {
							templateDelivered = true;
						},
					},
	});
}
