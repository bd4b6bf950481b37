// `hook.outcome`: what a hook the person configured decided about a tool call — a PreToolUse
// hook refused it (it did not run), a PostToolUse hook objected to what it did, or either added
// context — or that a Stop hook would not let the turn end yet; delivered at the owner's next WAIT, after that call's result. It carries the person's
// own policy (their commands), so it is never switchable: like a permission verdict, without it
// the model would retry a refused call blind.
import { withArticle } from '../../base/words';
import { entryOf } from '../declaration';
import { sanitizeUntrusted } from '../envelope';
import { AccumulatingKind, type TurnEvent } from '../turnEvents';
import { HOOK_OUTCOME } from './catalog/steering';

export interface HookOutcome {
	readonly event: 'PreToolUse' | 'PostToolUse' | 'Stop';
	/** Aside's tool name, e.g. "Run" ('' for Stop). */
	readonly tool: string;
	/** 'blocked': refused (PreToolUse) or objected to (PostToolUse); 'context': the hook added context. */
	readonly kind: 'blocked' | 'context';
	/** The hook's reason or context, as it printed it. */
	readonly text: string;
}

function describe(outcome: HookOutcome): string {
	const said = sanitizeUntrusted(outcome.text);
	if (outcome.event === 'Stop') {
		return `HOOK CONTINUE: a Stop hook the user configured did not let you finish yet; continue the work as it says.\nThe hook said: ${said}`;
	}
	if (outcome.kind === 'context') {
		return `A ${outcome.event} hook the user configured added this about the ${outcome.tool} call:\n${said}`;
	}
	return outcome.event === 'PreToolUse'
		? `HOOK REFUSED: a PreToolUse hook the user configured refused the ${outcome.tool} call; it did not run. Do not retry it unchanged or reach the same effect another way; address the reason or continue differently.\nThe hook said: ${said}`
		: `HOOK OBJECTED: a PostToolUse hook the user configured objected to the ${outcome.tool} call, which already ran (its result is above). Address what it says before going on.\nThe hook said: ${said}`;
}

const OUTCOMES = new AccumulatingKind<HookOutcome>(entryOf(HOOK_OUTCOME), {
	render: (outcomes) => ({
		body: `${outcomes.map(describe).join('\n\n')}\nHooks are the user's own policy: what they decide binds like the user's word.`,
		reason: outcomes.length === 1 ? (outcomes[0]?.event === 'Stop' ? 'a Stop hook asked the agent to continue' : `${withArticle(outcomes[0]?.event ?? '')} hook ${outcomes[0]?.kind === 'blocked' ? 'blocked' : 'added context to'} ${withArticle(outcomes[0]?.tool ?? '')} call`) : `${outcomes.length} hook outcomes`,
	}),
});

/** A hook outcome turn event; several of one batch add up to one entry, in order. */
export function hookOutcome(outcome: HookOutcome): TurnEvent {
	return OUTCOMES.event([outcome]);
}
