// A terminal's output as text the model can read: escape sequences (colours, cursor moves, window
// titles, VS Code's shell integration marks) stripped, carriage-return progress folded to what the
// terminal shows last ("Downloading 99%", not every step), CRLF as LF, backspaces applied and every
// other control character dropped (NUL, BEL, a lone ESC: binary output leaves only text, invalid
// UTF-8 already U+FFFD from the decoder). Fed in chunks as they come: a sequence or a CR LF split
// between two chunks is held until the rest arrives (a held sequence at most MAX_SEQUENCE long).
//
// The line is kept as the terminal renders it: text overwrites what is under the cursor, `\r`
// moves it to the start, `\b` and the cursor moves CSI C / D / G move it, and CSI K erases
// (the usual "\r\x1b[K" of a progress line). Other sequences change nothing in the text.
//
// Memory stays bounded whatever comes: the cursor stays within `maxLineChars` columns (as a
// terminal keeps it in its last), and a line that would grow past them (output with no newline
// at all) is broken there into a completed line ending in LINE_CONTINUES, the rest going on in
// the next. Progress folded with `\r` only grows as wide as its widest rendering, so it is not
// broken however long it goes on; a rendering wider than the bound is broken like any line.
//
// zsh ends every command's output with its PROMPT_SP: the PROMPT_EOL_MARK (`%` or `#` in reverse
// video), spaces to the last column, then CR, space, CR. A terminal with a width either erases the
// mark (the output ended in a newline) or wraps past it (it did not); without a width it would
// leave a blank line or overwrite the output's first character. Recognised as it comes, it leaves
// the line as it was before the mark (test/fixtures/terminal/zsh-integration.bin).

const ESC = '\u001b';
const BEL = '\u0007';
const CSI_8BIT = '\u009b';
const OSC_8BIT = '\u009d';
/** An unfinished sequence longer than this is not one: dropped, so garbage cannot hold the output back. */
const MAX_SEQUENCE = 4096;
/** How long a line may grow before it is broken (UTF-16 units): many screens wide, and the 256 KB ring still holds 16 such lines. */
export const MAX_LINE_CHARS = 16 * 1024;
/** Ends a line that was broken at MAX_LINE_CHARS: the next line goes on with it. */
export const LINE_CONTINUES = ' …[line continues]';

/** Plain text: not a C0 control (but tab), DEL or a C1 control. */
function isPlain(code: number): boolean {
	return code >= 0xa0 ? true : code >= 0x20 ? code < 0x7f : code === 0x09;
}

/** Where the sequence starting at `start` ends (the index after it), or -1 when the text ends first. */
function sequenceEnd(text: string, start: number): number {
	const first = text[start];
	const kind = first === CSI_8BIT ? '[' : first === OSC_8BIT ? ']' : text[start + 1];
	const body = first === ESC ? start + 2 : start + 1;
	if (kind === undefined) {
		return -1;
	}
	if (kind === '[') {
		// Parameters and intermediates, then one final byte.
		for (let i = body; i < text.length; i++) {
			const code = text.charCodeAt(i);
			if (code >= 0x40 && code <= 0x7e) {
				return i + 1;
			}
			if (code < 0x20 || code > 0x3f) {
				// Not a CSI after all: drop the introducer only.
				return body;
			}
		}
		return -1;
	}
	if (kind === ']' || kind === 'P' || kind === 'X' || kind === '^' || kind === '_') {
		// A string: to BEL (OSC) or to ST (ESC \).
		for (let i = body; i < text.length; i++) {
			if (text[i] === BEL && kind === ']') {
				return i + 1;
			}
			if (text[i] === ESC) {
				if (i + 1 >= text.length) {
					return -1;
				}
				return text[i + 1] === '\\' ? i + 2 : i;
			}
		}
		return -1;
	}
	// ESC, any intermediates (ESC ( B), then one final character; anything else after them (a
	// newline, a letter past ASCII) is not part of it: the ESC alone is dropped.
	for (let i = start + 1; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code < 0x20 || code > 0x2f) {
			return code >= 0x30 && code <= 0x7e ? i + 1 : i;
		}
	}
	return -1;
}

/** How far zsh's PROMPT_SP has come: reverse video, the mark, its end, the spaces, CR, the space. */
type EolStage = 'reverse' | 'mark' | 'marked' | 'spaces' | 'cr' | 'cr-space';

export class TerminalText {
	/** The line as rendered so far (never longer than `maxLineChars`). */
	private line = '';
	private cursor = 0;
	/** A PROMPT_SP under way, with the line and cursor it found (restored once it completes). */
	private eol: { stage: EolStage; readonly line: string; readonly cursor: number } | undefined;
	/** The start of a sequence (or a lone CR) the last chunk ended in. */
	private held = '';

	constructor(private readonly maxLineChars = MAX_LINE_CHARS) {}

	/** The line being written now, as the terminal shows it (the prompt a process waits at, a progress bar). */
	get current(): string {
		return this.line;
	}

	/** Takes a chunk of output; returns the lines it completed. */
	push(chunk: string): string[] {
		const text = this.held + chunk;
		this.held = '';
		const lines: string[] = [];
		let i = 0;
		while (i < text.length) {
			// Plain text up to the next control character, written in one go.
			let next = i;
			while (next < text.length && isPlain(text.charCodeAt(next))) {
				next++;
			}
			if (next > i) {
				this.followEol(text.slice(i, next));
				this.write(text.slice(i, next), lines);
				i = next;
				continue;
			}
			const char = text[i];
			if (char === ESC || char === CSI_8BIT || char === OSC_8BIT) {
				const end = sequenceEnd(text, i);
				if (end === -1) {
					const rest = text.slice(i);
					this.held = rest.length > MAX_SEQUENCE ? '' : rest;
					break;
				}
				this.control(text.slice(i, end));
				i = end;
				continue;
			}
			if (char === '\r') {
				if (i + 1 === text.length) {
					this.held = '\r';
					break;
				}
				if (text[i + 1] !== '\n' && !this.eolReturn()) {
					this.cursor = 0;
				}
			} else if (char === '\n') {
				this.eol = undefined;
				lines.push(this.takeLine(''));
			} else if (char === '\b') {
				this.eol = undefined;
				this.cursor = Math.max(0, this.cursor - 1);
			}
			i++;
		}
		return lines;
	}

	/** The output ended: the unfinished line, if any, as a last line. */
	end(): string[] {
		// A CR the output ended in (held for a LF that did not come) may complete a PROMPT_SP.
		if (this.held === '\r') {
			this.eolReturn();
		}
		this.held = '';
		return this.line.length > 0 ? [this.takeLine('')] : [];
	}

	private takeLine(suffix: string): string {
		const line = this.line.trimEnd() + suffix;
		this.line = '';
		this.cursor = 0;
		return line;
	}

	/** Writes plain text at the cursor, breaking the line where it would pass the bound. */
	private write(text: string, lines: string[]): void {
		let rest = text;
		while (rest.length > 0) {
			let room = this.maxLineChars - this.cursor;
			if (room > 0 && room < rest.length && isHighSurrogate(rest.charCodeAt(room - 1))) {
				// Not between the two halves of a character.
				room--;
			}
			if (room <= 0) {
				lines.push(this.takeLine(LINE_CONTINUES));
				continue;
			}
			const part = room < rest.length ? rest.slice(0, room) : rest;
			rest = room < rest.length ? rest.slice(room) : '';
			const { line, cursor } = this;
			if (cursor >= line.length) {
				this.line = line + ' '.repeat(cursor - line.length) + part;
			} else {
				this.line = line.slice(0, cursor) + part + line.slice(cursor + part.length);
			}
			this.cursor = cursor + part.length;
		}
	}

	/** A sequence starts a PROMPT_SP (reverse video), ends its mark, or, past colours, shows there is none. */
	private followEolSequence(sequence: string): void {
		if (sequence === `${ESC}[7m`) {
			this.eol = { stage: 'reverse', line: this.line, cursor: this.cursor };
		} else if (this.eol?.stage === 'mark' && sequence === `${ESC}[27m`) {
			this.eol.stage = 'marked';
		} else if (!(this.eol?.stage === 'marked' && SGR.test(sequence)) && !(this.eol?.stage === 'reverse' && SGR.test(sequence))) {
			this.eol = undefined;
		}
	}

	/** A run of plain text moves a PROMPT_SP on, or shows there is none. */
	private followEol(text: string): void {
		const stage = this.eol?.stage;
		if (this.eol && stage === 'reverse' && (text === '%' || text === '#')) {
			this.eol.stage = 'mark';
		} else if (this.eol && (stage === 'marked' || stage === 'spaces') && /^ +$/u.test(text)) {
			this.eol.stage = 'spaces';
		} else if (this.eol && stage === 'cr' && text === ' ') {
			this.eol.stage = 'cr-space';
		} else {
			this.eol = undefined;
		}
	}

	/** A CR (not of a CR LF) in a PROMPT_SP: true when it completed one (the line is back as it was before the mark). */
	private eolReturn(): boolean {
		const { eol } = this;
		if (eol?.stage === 'spaces') {
			eol.stage = 'cr';
			return false;
		}
		this.eol = undefined;
		if (eol?.stage === 'cr-space') {
			this.line = eol.line;
			this.cursor = eol.cursor;
			return true;
		}
		return false;
	}

	/** The cursor moves and erases of a CSI sequence; every other sequence changes no text. */
	private control(sequence: string): void {
		this.followEolSequence(sequence);
		// eslint-disable-next-line no-control-regex -- escape sequences are what this reads
		const match = /^(?:\u001b\[|\u009b)([0-9;]*)([CDGK])$/u.exec(sequence);
		if (!match) {
			return;
		}
		const n = Number.parseInt(match[1] ?? '', 10);
		const last = this.maxLineChars - 1;
		switch (match[2]) {
			case 'C':
				this.cursor = Math.min(last, this.cursor + (Number.isNaN(n) || n === 0 ? 1 : n));
				break;
			case 'D':
				this.cursor = Math.max(0, this.cursor - (Number.isNaN(n) || n === 0 ? 1 : n));
				break;
			case 'G':
				this.cursor = Math.min(last, Math.max(0, (Number.isNaN(n) ? 1 : n) - 1));
				break;
			case 'K':
				if (Number.isNaN(n) || n === 0) {
					this.line = this.line.slice(0, this.cursor);
				} else if (n === 1) {
					const erased = Math.min(this.line.length, this.cursor + 1);
					this.line = ' '.repeat(erased) + this.line.slice(erased);
				} else {
					this.line = '';
				}
				break;
		}
	}
}

/** Select graphic rendition: colours and weights, which PROMPT_SP's mark is written with. */
// eslint-disable-next-line no-control-regex -- escape sequences are what this reads
const SGR = /^(?:\u001b\[|\u009b)[0-9;]*m$/u;

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

/** The whole of `text` as the model reads it (one call; for output that came at once). */
export function terminalText(text: string): string {
	const reader = new TerminalText();
	return [...reader.push(text), ...reader.end()].join('\n');
}
