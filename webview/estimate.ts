// A row's height before it is measured, from its kind and text length. Only the sum over many
// rows needs to be close (it sizes the scrollbar); each guess is replaced once the row is shown.
import type { TranscriptItem } from '../src/protocol/messages';

/** Lines of text wrapped at `perLine` characters; `breaks` keeps every newline (pre-wrap). */
function lineCount(text: string, perLine: number, breaks: boolean): number {
	if (!breaks) {
		// Markdown: newlines inside a paragraph are spaces; a blank line starts a paragraph.
		let paragraphs = 0;
		for (let at = text.indexOf('\n\n'); at !== -1; at = text.indexOf('\n\n', at + 2)) {
			paragraphs += 1;
		}
		return Math.ceil(text.length / perLine) + paragraphs * 1.6;
	}
	let count = 0;
	for (let start = 0; start <= text.length; ) {
		const end = text.indexOf('\n', start);
		const stop = end === -1 ? text.length : end;
		count += Math.max(1, Math.ceil((stop - start) / perLine));
		start = stop + 1;
	}
	return count;
}

/** Calibrated on the rows' CSS: padding, border and the header line around the text. */
export function estimateHeight(item: TranscriptItem | undefined, width: number, fontSize: number): number {
	const line = fontSize * 1.15;
	const perLine = Math.max(10, Math.floor(width / (fontSize * 0.5)));
	switch (item?.kind) {
		case 'user':
			return 22 + line * (1 + lineCount(item.text, perLine, true));
		case 'assistant':
			return item.text === '' ? 25 + line : 29 + line * (1 + lineCount(item.text, perLine, item.text.includes('```')));
		case 'tool':
			return 12 + line * 2 + item.notices.length * (line + 4);
		case 'agent':
			// Collapsed: one line; opened, it is measured like any row.
			return 12 + line * 2;
		case 'turn-end':
			return 20 + line * (1 + (item.error ? lineCount(item.error, perLine, true) : 0));
		default:
			return 9 + line * 2;
	}
}
