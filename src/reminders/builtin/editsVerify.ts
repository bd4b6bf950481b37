// `edits.verify`: after the latest turn changed at least two implementation files, suggest
// verifying the change — the tests or the build — and reporting what the run showed. The latest
// turn is the user turn now running (at a mid-turn WAIT) or the one that just ended (at the next
// turn's start); reads and older turns' edits do not count. Interval 10 by default, so never twice
// in one delivered turn. With an approved plan whose "how to verify" no command has acted on yet,
// it quotes that section and asks for the evidence that the plan was carried out. Which files
// count, and what "acted on" means, are decided outside (src/observe/implementationFiles.ts,
// src/agent/verification.ts); this file decides when and what to say.
import { rosterDefinition } from '../declaration';
import type { ReminderDefinition } from '../definition';
import { sanitizeUntrusted } from '../envelope';
import { EDITS_VERIFY } from './catalog/plans';

/** The fewest implementation files one turn must change for the suggestion. */
export const MIN_IMPLEMENTATION_FILES = 2;
/** Files named in the body at most; the rest are counted. */
export const MAX_LISTED_FILES = 10;
/** Characters of the plan's "how to verify" quoted at most; the rest is in the plan file. */
export const MAX_HOW_TO_VERIFY_CHARS = 2000;

/** An approved plan whose verification is still to be carried out (see src/agent/approvedPlan.ts). */
export interface PlanToVerify {
	/** The plan file, absolute. */
	readonly file: string;
	/** The plan's "how to verify" section. */
	readonly howToVerify: string;
}

/** What the suggestion reads about the chat, at the WAIT that evaluates it. */
export interface VerificationInputs {
	/**
	 * The implementation files Aside's tools wrote in session turn `turn`, as the model is shown
	 * them, first written first; none for a turn that wrote none.
	 */
	implementationFilesIn(turn: number): readonly string[];
	/** The approved plan whose "how to verify" has not been acted on, if there is one. */
	pendingPlan(): PlanToVerify | undefined;
}

/** Inputs of a chat whose writes nobody observes (benchmarks, specs of other reminders): it never fires. */
export const NOTHING_OBSERVED: VerificationInputs = { implementationFilesIn: () => [], pendingPlan: () => undefined };

/** Cuts `text` to `max` UTF-16 units without splitting a surrogate pair; how much was cut. */
function cut(text: string, max: number): { readonly text: string; readonly omitted: number } {
	if (text.length <= max) {
		return { text, omitted: 0 };
	}
	const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
	return { text: text.slice(0, end), omitted: text.length - end };
}

function fileList(files: readonly string[]): string {
	const listed = files.slice(0, MAX_LISTED_FILES).map(sanitizeUntrusted).join(', ');
	const more = files.length - MAX_LISTED_FILES;
	return more > 0 ? `${listed} and ${more.toLocaleString('en-US')} more` : listed;
}

function planBody(plan: PlanToVerify): string {
	const file = sanitizeUntrusted(plan.file);
	const quoted = cut(plan.howToVerify.trim(), MAX_HOW_TO_VERIFY_CHARS);
	const note = quoted.omitted > 0 ? `\n\n(Cut here: ${quoted.omitted.toLocaleString('en-US')} more characters of this section are in the plan file.)` : '';
	return (
		`The plan the user approved (${file}) says how to verify it:\n\n${sanitizeUntrusted(quoted.text)}${note}\n\n` +
		'No command has run since the plan was approved. Carry out that verification now and report the evidence that the plan was carried out: the commands you ran and what they showed, step by step. If a step cannot be done here, say which and why; do not call the plan done without that evidence.'
	);
}

export function editsVerify(inputs: VerificationInputs): ReminderDefinition {
	// The trigger finds the files; the content, evaluated right after it, words them.
	let files: readonly string[] = [];
	let running = true;
	let latest = 0;
	// The session turn whose edits a delivered suggestion was about: a short interval setting
	// must not repeat it at the next turn's start for the same edits.
	let suggestedFor: number | undefined;
	return rosterDefinition(EDITS_VERIFY, {
		scope: 'session',
		trigger: ({ owner, phase, turn }) => {
			if (owner.kind !== 'root') {
				return false;
			}
			// At a turn's start the latest turn is the one that just ended; it had its chance at
			// its own WAITs unless none followed its last write (stopped, failed) or the interval
			// was not reached yet.
			running = phase === 'mid-turn';
			latest = running ? turn : turn - 1;
			if (latest === suggestedFor) {
				return false;
			}
			files = inputs.implementationFilesIn(latest);
			return files.length >= MIN_IMPLEMENTATION_FILES;
		},
		content: () => {
			const about = latest;
			const count = files.length.toLocaleString('en-US');
			const when = running ? 'in this turn' : 'in your last turn';
			const changed = `You changed ${count} implementation files ${when}: ${fileList(files)}.`;
			const plan = inputs.pendingPlan();
			const body = plan
				? `${changed}\n\n${planBody(plan)}`
				: `${changed}\n\nBefore you report this work as done, verify it: run the tests that cover these files, or the build or type check, and report what the run showed (passed, or which failures). If you cannot run them here, say so and tell the user what to run.`;
			return {
				body,
				reason: `${count} implementation files changed ${running ? 'in this turn' : 'in the last turn'}${plan ? '; the approved plan\'s verification is pending' : ''}`,
				commit: () => {
					suggestedFor = about;
				},
			};
		},
	});
}
