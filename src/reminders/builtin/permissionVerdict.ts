// `permission.verdict`: the person's grant or denial of a tool call, delivered at the owner's next
// WAIT (after that call's result). It carries the user's authority and binds the next call; the
// tool result itself only says what happened.
import { withArticle } from '../../base/words';
import { entryOf } from '../declaration';
import { sanitizeUntrusted } from '../envelope';
import { AccumulatingKind, type TurnEvent } from '../turnEvents';
import { PERMISSION_VERDICT } from './catalog/steering';

export interface Verdict {
	readonly granted: boolean;
	/** The tool's name, e.g. "Edit". */
	readonly tool: string;
	/** What it acts on, e.g. a path or a command line. */
	readonly target?: string;
	/** What the person wrote with the verdict, if anything. */
	readonly note?: string;
}

/** How much of a target the verdict repeats: the call is in the history, so its start names it. */
const TARGET_SHOWN = 200;

function targetWords(target: string): string {
	if (target.length <= TARGET_SHOWN) {
		return sanitizeUntrusted(target);
	}
	// Not between the halves of a surrogate pair.
	const end = /[\uD800-\uDBFF]/.test(target.charAt(TARGET_SHOWN - 1)) ? TARGET_SHOWN - 1 : TARGET_SHOWN;
	const shown = `${target.slice(0, end)}… (${target.length.toLocaleString('en-US')} characters in all)`;
	return sanitizeUntrusted(shown);
}

function describe(verdict: Verdict): string {
	const call = verdict.target ? `${verdict.tool} on ${targetWords(verdict.target)}` : verdict.tool;
	const note = verdict.note?.trim() ? `\nThe user added: ${sanitizeUntrusted(verdict.note.trim())}` : '';
	return verdict.granted
		? `PERMISSION GRANTED: the user approved ${call}, and it ran (its result is above). This grant covered that one call; it is not standing permission for similar calls.${note}`
		: `PERMISSION DENIED: the user refused ${call}; it did not run. Do not retry it, and do not reach the same effect another way; continue differently or ask the user.${note}`;
}

const AUTHORITY = 'These verdicts carry the user\'s authority and bind your next call.';
const VERDICTS = new AccumulatingKind<Verdict>(entryOf(PERMISSION_VERDICT), {
	render: (verdicts) => {
		const denied = verdicts.filter((verdict) => !verdict.granted).length;
		return {
			body: verdicts.length === 1 ? `${describe(verdicts[0] as Verdict)}\nThis verdict carries the user's authority and binds your next call.` : `${AUTHORITY}\n\n${verdicts.map(describe).join('\n\n')}`,
			reason:
				verdicts.length === 1
					? `the user ${denied ? 'denied' : 'granted'} ${withArticle(verdicts[0]?.tool ?? '')} call`
					: `the user decided on ${verdicts.length} tool calls (${verdicts.length - denied} granted, ${denied} denied)`,
		};
	},
});

/** A verdict turn event; verdicts on several calls of one batch add up to one entry, in order. */
export function permissionVerdict(verdict: Verdict): TurnEvent {
	return VERDICTS.event([verdict]);
}
