// A plan the model proposed: the Markdown between `<proposed_plan>` and `</proposed_plan>` in a
// recorded answer. The host finds it here, once, from the answer's text; the view is sent the
// parts as structure and never looks for tags itself. The tags count only on lines of their own
// outside code fences, so an answer that quotes the format (`<proposed_plan>` in a sentence or a
// fenced example) proposes nothing, and an answer cut off before the closing tag proposes nothing.

import { PROPOSAL_CLOSE_TAG, PROPOSAL_OPEN_TAG } from '../reminders/builtin/modePlan';

// The tags mode.plan tells the model to use: one definition for both sides.
const PROPOSAL_OPEN = PROPOSAL_OPEN_TAG;
const PROPOSAL_CLOSE = PROPOSAL_CLOSE_TAG;

/** An answer's text around its proposal, and the plan itself. */
export interface ProposalParts {
	/** The answer before the opening tag's line. */
	readonly before: string;
	/** The plan's Markdown, trimmed of blank lines around it. */
	readonly plan: string;
	/** The answer after the closing tag's line. */
	readonly after: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Line {
	readonly text: string;
	/** Offset of the line's first character. */
	readonly start: number;
	/** Offset just past its line break (or the end of the text). */
	readonly end: number;
}

function linesOf(text: string): Line[] {
	const lines: Line[] = [];
	let start = 0;
	while (start <= text.length) {
		const newline = text.indexOf('\n', start);
		const stop = newline === -1 ? text.length : newline;
		lines.push({ text: text.slice(start, stop).replace(/\r$/, ''), start, end: newline === -1 ? text.length : newline + 1 });
		if (newline === -1) {
			break;
		}
		start = newline + 1;
	}
	return lines;
}

/** Tracks fenced code blocks line by line: a fence closes only with the same character, at least as long. */
class Fences {
	private open: string | undefined;

	/** Whether `line` is inside (or opens or closes) a fence. */
	take(line: string): boolean {
		const match = FENCE.exec(line);
		if (this.open !== undefined) {
			if (match?.[1] && match[1][0] === this.open[0] && match[1].length >= this.open.length && line.trim() === match[1]) {
				this.open = undefined;
			}
			return true;
		}
		if (match?.[1]) {
			this.open = match[1];
			return true;
		}
		return false;
	}
}

function trimBlankLines(text: string): string {
	return text.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\s+$/, '');
}

/**
 * The last complete proposal in an answer, or undefined. The last one wins: a model that
 * corrects itself within one answer means its final version.
 */
export function findProposal(text: string): ProposalParts | undefined {
	if (!text.includes(PROPOSAL_OPEN)) {
		return undefined;
	}
	const lines = linesOf(text);
	const outer = new Fences();
	let found: { open: Line; close: Line } | undefined;
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i] as Line;
		if (outer.take(line.text) || line.text.trim() !== PROPOSAL_OPEN) {
			continue;
		}
		// Inside the plan, fences are the plan's own: a closing tag in a code block is the plan's text.
		const inner = new Fences();
		for (let j = i + 1; j < lines.length; j++) {
			const candidate = lines[j] as Line;
			if (!inner.take(candidate.text) && candidate.text.trim() === PROPOSAL_CLOSE) {
				found = { open: line, close: candidate };
				i = j;
				break;
			}
		}
		if (found?.open !== line) {
			// Never closed: nothing after it can be a proposal either.
			break;
		}
	}
	if (!found) {
		return undefined;
	}
	const plan = trimBlankLines(text.slice(found.open.end, found.close.start));
	if (plan.trim() === '') {
		return undefined;
	}
	return { before: text.slice(0, found.open.start).trimEnd(), plan, after: text.slice(found.close.end).trimStart() };
}

interface Heading {
	/** 1–6 for `#` headings; 7 for a label line, which any heading or label ends. */
	readonly level: number;
	readonly title: string;
}

/** A Markdown ATX heading, or a line that is only a label: `**How to verify**`, `How to verify:`. */
function headingOf(line: string): Heading | undefined {
	const atx = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
	if (atx) {
		return { level: (atx[1] ?? '').length, title: atx[2] ?? '' };
	}
	const bold = /^ {0,3}(?:\*\*|__)([^*_]+?)(?:\*\*|__)[ \t]*:?[ \t]*$/.exec(line);
	if (bold) {
		return { level: 7, title: (bold[1] ?? '').replace(/:$/, '') };
	}
	const colon = /^ {0,3}([A-Z][^:]{0,60}):[ \t]*$/.exec(line);
	return colon ? { level: 7, title: colon[1] ?? '' } : undefined;
}

/**
 * The body of the plan's section whose heading matches `title`, up to the next heading of the
 * same or a higher level (a label's section ends at any heading or label). Undefined when the
 * plan has no such section or it is empty.
 */
export function planSection(plan: string, title: RegExp): string | undefined {
	const fences = new Fences();
	let level: number | undefined;
	const body: string[] = [];
	for (const line of plan.split(/\r?\n/)) {
		const heading = fences.take(line) ? undefined : headingOf(line);
		if (level !== undefined) {
			if (heading && heading.level <= level) {
				break;
			}
			body.push(line);
		} else if (heading && title.test(heading.title.trim())) {
			level = heading.level;
		}
	}
	const text = trimBlankLines(body.join('\n'));
	return level === undefined || text.trim() === '' ? undefined : text;
}

/** The plan's "How to verify" (or "Verification") section. */
export function howToVerify(plan: string): string | undefined {
	return planSection(plan, /^(?:\d+[.)]\s*)?(?:how\s+to\s+verify|verif(?:y|ication)|testing|how\s+to\s+test)\b/i);
}
