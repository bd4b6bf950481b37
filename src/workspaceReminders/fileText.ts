// Offsets in a reminder file's text as the Language Server Protocol counts positions: zero-based
// lines, characters in UTF-16 code units (a JavaScript string's own units, so no conversion), a
// `\r\n` ending a line like `\n`. One index per parse, shared by every problem of the file.
import type { FilePosition, FileRange } from './spec';

export class LineIndex {
	/** Offset of the first character of each line. */
	private readonly starts: number[] = [0];

	constructor(readonly text: string) {
		for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
			this.starts.push(at + 1);
		}
	}

	position(offset: number): FilePosition {
		const clamped = Math.max(0, Math.min(offset, this.text.length));
		let low = 0;
		let high = this.starts.length - 1;
		while (low < high) {
			const middle = (low + high + 1) >> 1;
			if ((this.starts[middle] ?? 0) <= clamped) {
				low = middle;
			} else {
				high = middle - 1;
			}
		}
		return { line: low, character: clamped - (this.starts[low] ?? 0) };
	}

	offset(position: FilePosition): number {
		const start = this.starts[position.line];
		if (start === undefined) {
			return this.text.length;
		}
		const next = this.starts[position.line + 1] ?? this.text.length + 1;
		return Math.min(start + position.character, next - 1, this.text.length);
	}

	range(start: number, end: number): FileRange {
		return { start: this.position(start), end: this.position(Math.max(start, end)) };
	}

	/** The whole of one line (without its line break). */
	lineRange(line: number): FileRange {
		const start = this.starts[line] ?? this.text.length;
		const next = this.starts[line + 1];
		const end = next === undefined ? this.text.length : this.text[next - 2] === '\r' ? next - 2 : next - 1;
		return this.range(start, end);
	}

	get lineCount(): number {
		return this.starts.length;
	}
}

/** The fences of a frontmatter, with the rules of src/base/frontmatter.ts (`---` first line, `---` or `...` closing) but keeping offsets. */
export type FrontmatterSpan =
	| { readonly kind: 'none' }
	| { readonly kind: 'unclosed'; readonly openLine: number }
	/** `yamlStart`..`yamlEnd`: the text between the fence lines; `bodyStart`: just past the closing line. */
	| { readonly kind: 'closed'; readonly yamlStart: number; readonly yamlEnd: number; readonly closeLine: number; readonly bodyStart: number };

export function frontmatterSpan(text: string): FrontmatterSpan {
	const bom = text.startsWith('\uFEFF') ? 1 : 0;
	const lineAt = (offset: number): { readonly content: string; readonly next: number } => {
		const newline = text.indexOf('\n', offset);
		const end = newline === -1 ? text.length : newline;
		return { content: text.slice(offset, end), next: newline === -1 ? text.length : newline + 1 };
	};
	const first = lineAt(bom);
	if (first.content.trimEnd() !== '---') {
		return { kind: 'none' };
	}
	let line = 1;
	for (let at = first.next; at < text.length; line++) {
		const current = lineAt(at);
		const fence = current.content.trimEnd();
		if (fence === '---' || fence === '...') {
			return { kind: 'closed', yamlStart: first.next, yamlEnd: at, closeLine: line, bodyStart: current.next };
		}
		at = current.next;
	}
	return { kind: 'unclosed', openLine: 0 };
}
