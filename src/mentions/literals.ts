// What a message quotes rather than says: code spans and blocks (a run of back-ticks up to the next
// run of the same length, as Markdown reads them) and quoted strings ("…" or '…' on one line). An
// `@path` or a `$name` inside one is text the person is writing about, not a mention. A quote
// opens only at the start or after a space or an opening bracket, and closes before a space,
// punctuation or the end, so an apostrophe (don't, it's) opens nothing; `@"…"` is a quoted path.
const OPENS_AFTER = /[\s([{<]/u;
const WORD = /[\p{L}\p{N}_]/u;

/** The back-tick run at `start`, and the end (exclusive) of the code span it opens; no end when it is not closed. */
function codeSpanEnd(text: string, start: number): { readonly run: number; readonly end?: number } {
	let run = 0;
	while (text[start + run] === '`') {
		run++;
	}
	for (let at = start + run; at < text.length; ) {
		if (text[at] !== '`') {
			at++;
			continue;
		}
		let length = 0;
		while (text[at + length] === '`') {
			length++;
		}
		if (length === run) {
			return { run, end: at + length };
		}
		at += length;
	}
	return { run };
}

/** The end (exclusive) of the quoted string opened at `start`, or undefined when it is none. */
function quoteEnd(text: string, start: number): number | undefined {
	const quote = text[start] ?? '';
	const before = text[start - 1];
	if (before !== undefined && !OPENS_AFTER.test(before)) {
		return undefined;
	}
	for (let at = start + 1; at < text.length && text[at] !== '\n'; at++) {
		if (text[at] === quote && at > start + 1 && !WORD.test(text[at + 1] ?? '')) {
			return at + 1;
		}
	}
	return undefined;
}

/** `text` with everything inside its code spans and quoted strings blanked (same length, so offsets hold). */
export function withoutLiterals(text: string): string {
	if (!/[`"']/u.test(text)) {
		return text;
	}
	let out = '';
	let at = 0;
	while (at < text.length) {
		const char = text[at] ?? '';
		let end: number | undefined;
		if (char === '`') {
			const span = codeSpanEnd(text, at);
			if (span.end === undefined) {
				out += text.slice(at, at + span.run);
				at += span.run;
				continue;
			}
			end = span.end;
		} else if (char === '"' || char === "'") {
			end = quoteEnd(text, at);
		}
		if (end === undefined) {
			out += char;
			at++;
			continue;
		}
		// Per UTF-16 unit (no `u` flag), so a blanked span keeps its length.
		out += text.slice(at, end).replace(/[^\n]/g, ' ');
		at = end;
	}
	return out;
}
