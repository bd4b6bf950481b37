// When not to format at all. The text is model output, and marked's block pass slows down badly
// on deep nesting (`- - - - …`, lines indented further and further: seconds at 200 KB), so text
// that is too long or nests too deep is shown as plain text. (The inline pass is bounded in
// render.ts's lex().) Every line counts, code included: tracking fences here could be fooled.

/** Past this the whole response is plain text. */
export const MAX_MARKDOWN_CHARS = 200_000;
/** The most leading indentation, in columns, on any line. */
const MAX_INDENT = 120;
/** The most container markers (`>`, `-`, `*`, `+`, `1.`, `1)`) opening any line. */
const MAX_MARKERS = 16;

/** Why `text` must be shown plain, or null when it may be formatted. One pass, no regex. */
export function plainReason(text: string): string | null {
	if (text.length > MAX_MARKDOWN_CHARS) {
		return 'Too long to format: shown as plain text.';
	}
	let start = 0;
	while (start < text.length) {
		const found = text.indexOf('\n', start);
		const end = found < 0 ? text.length : found;
		if (nestsTooDeep(text, start, end)) {
			return 'Nested too deeply to format: shown as plain text.';
		}
		start = end + 1;
	}
	return null;
}

function nestsTooDeep(text: string, start: number, end: number): boolean {
	let indent = 0;
	let markers = 0;
	let i = start;
	while (i < end) {
		const c = text[i];
		if (c === ' ' || c === '\t') {
			indent += c === '\t' ? 4 : 1;
			i += 1;
		} else if (c === '>') {
			markers += 1;
			i += 1;
		} else if ((c === '-' || c === '*' || c === '+') && isSpace(text[i + 1])) {
			markers += 1;
			i += 2;
		} else {
			const after = orderedMarkerEnd(text, i, end);
			if (after < 0) {
				break;
			}
			markers += 1;
			i = after;
		}
		if (indent > MAX_INDENT || markers > MAX_MARKERS) {
			return true;
		}
	}
	return false;
}

/** After `1.` or `12)` followed by a space at `i`; -1 if there is none. */
function orderedMarkerEnd(text: string, i: number, end: number): number {
	let j = i;
	while (j < end && j - i < 9 && isDigit(text[j])) {
		j += 1;
	}
	const delimiter = text[j];
	return j > i && (delimiter === '.' || delimiter === ')') && isSpace(text[j + 1]) ? j + 2 : -1;
}

function isDigit(c: string | undefined): boolean {
	return c !== undefined && c >= '0' && c <= '9';
}

function isSpace(c: string | undefined): boolean {
	return c === ' ' || c === '\t';
}
