// `permission.verdict`: the person's grant or denial of a tool call, delivered at the owner's next
// WAIT (after that call's result). It carries the user's authority and binds the next call; the
// tool result itself only says what happened.
import { sanitizeUntrusted } from '../envelope';
import type { TurnEvent } from '../turnEvents';
import { PERMISSION_VERDICT } from './catalog';

export interface Verdict {
	readonly granted: boolean;
	/** The tool's name, e.g. "Edit". */
	readonly tool: string;
	/** What it acts on, e.g. a path or a command line. */
	readonly target?: string;
	/** What the person wrote with the verdict, if anything. */
	readonly note?: string;
}

function describe(verdict: Verdict): string {
	const call = verdict.target ? `${verdict.tool} on ${sanitizeUntrusted(verdict.target)}` : verdict.tool;
	const note = verdict.note?.trim() ? `\nThe user added: ${sanitizeUntrusted(verdict.note.trim())}` : '';
	return verdict.granted
		? `PERMISSION GRANTED: the user approved ${call}, and it ran (its result is above). This grant covered that one call; it is not standing permission for similar calls.${note}`
		: `PERMISSION DENIED: the user refused ${call}; it did not run. Do not retry it, and do not reach the same effect another way; continue differently or ask the user.${note}`;
}

const AUTHORITY = 'These verdicts carry the user\'s authority and bind your next call.';
const verdictsOf = new WeakMap<TurnEvent, readonly Verdict[]>();

function verdictEvent(verdicts: readonly Verdict[]): TurnEvent {
	const denied = verdicts.filter((verdict) => !verdict.granted).length;
	const event: TurnEvent = {
		type: PERMISSION_VERDICT.type,
		key: PERMISSION_VERDICT.key,
		label: PERMISSION_VERDICT.label,
		body: verdicts.length === 1 ? `${describe(verdicts[0] as Verdict)}\nThis verdict carries the user's authority and binds your next call.` : `${AUTHORITY}\n\n${verdicts.map(describe).join('\n\n')}`,
		reason:
			verdicts.length === 1
				? `the user ${denied ? 'denied' : 'granted'} a ${verdicts[0]?.tool ?? ''} call`
				: `the user decided on ${verdicts.length} tool calls (${verdicts.length - denied} granted, ${denied} denied)`,
		merge: (older) => verdictEvent([...(verdictsOf.get(older) ?? []), ...verdicts]),
	};
	verdictsOf.set(event, verdicts);
	return event;
}

/** A verdict turn event; verdicts on several calls of one batch merge into one entry, in order. */
export function permissionVerdict(verdict: Verdict): TurnEvent {
	return verdictEvent([verdict]);
}
