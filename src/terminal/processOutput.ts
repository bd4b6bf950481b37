// A process's output as the model reads it (docs/tools.md, "Run in the background"): the terminal's
// text cleaned line by line (terminalText.ts), the last lines kept in a bounded ring for RunOutput
// and the reminders, and every line written to a file the model reads whole with Read. The file is
// bounded too: past it nothing more is kept and `overBound` says so (the process is then stopped and
// the model told), the file's last line says where and why it was cut (its bytes are kept free for
// it, so the file stays within the bound). A line with no end is broken by terminalText.ts, so the
// ring, the file and the line being written all stay bounded, and the ring drops its oldest lines
// in constant time (a start index, compacted now and then), so a flood of short lines is linear.
// A read cursor marks what the model has read: RunOutput "since last" starts there and moves it,
// and `run.background.output` says only what is past it.
import { formatBytes } from '../tools/text';
import { TerminalText } from './terminalText';

/** Where the lines go whole. */
export interface OutputFile {
	/** Where it is, as the model is told (an absolute path Read opens). */
	readonly path: string;
	append(text: string): void;
	close(): void;
}

export interface OutputBounds {
	/** The most of the last lines the ring keeps, in UTF-16 units (about bytes for ASCII). */
	readonly ringChars: number;
	/** The most the file takes, in UTF-8 bytes; past it the output is cut off and `overBound` is set. */
	readonly fileBytes: number;
}

/** The file stays under what Read opens (50 MB), so the model can read all of it. */
export const DEFAULT_OUTPUT_BOUNDS: OutputBounds = { ringChars: 256 * 1024, fileBytes: 48 * 1024 * 1024 };

/** Lines `from`–`to` (1-based, inclusive) of the output; `before` lines of the range are no longer in the ring (only in the file). */
export interface OutputRead {
	readonly lines: readonly string[];
	readonly from: number;
	readonly to: number;
	readonly before: number;
	/** The line being written now (no newline yet): a prompt, a progress bar. */
	readonly current: string;
}

/** The file's last line when the output passed its bound. */
export const cutNote = (fileBytes: number): string => `[Aside kept no more of this output here: it passed the bound of ${formatBytes(fileBytes)}.]`;

export class ProcessOutput {
	private readonly text = new TerminalText();
	/** The ring: the last lines are `ring[start]` on, `first` the number of the oldest. */
	private ring: string[] = [];
	private start = 0;
	private ringChars = 0;
	private first = 1;
	private written = 0;
	private cut = false;
	/** The number of the last line the model read (0: none). */
	private readTo = 0;
	/** What the note at the cut takes of the file. */
	private readonly noteBytes: number;

	constructor(
		private readonly file: OutputFile | undefined,
		private readonly bounds: OutputBounds = DEFAULT_OUTPUT_BOUNDS,
	) {
		this.noteBytes = Buffer.byteLength(cutNote(bounds.fileBytes), 'utf8') + 1;
	}

	/** Completed lines so far. */
	get lineCount(): number {
		return this.first - 1 + this.ring.length - this.start;
	}

	/** The line being written now, as the terminal shows it. */
	get current(): string {
		return this.text.current;
	}

	/** The file's bound was reached: later output is not kept. */
	get overBound(): boolean {
		return this.cut;
	}

	/** Completed lines the model has not read yet (RunOutput moves the cursor). */
	get unread(): number {
		return this.lineCount - this.readTo;
	}

	/** Takes a chunk of raw terminal output; returns the lines it completed. */
	push(chunk: string): readonly string[] {
		if (this.cut) {
			return [];
		}
		return this.keep(this.text.push(chunk));
	}

	/** The output ended: the unfinished line becomes the last. */
	end(): readonly string[] {
		const lines = this.cut ? [] : this.keep(this.text.end());
		this.file?.close();
		return lines;
	}

	/** The last `count` lines still in the ring (fewer when it holds fewer). */
	last(count: number): readonly string[] {
		return count <= 0 ? [] : this.ring.slice(Math.max(this.start, this.ring.length - count));
	}

	/**
	 * What RunOutput returns: the lines since the model last read (`last`) or from the start, the
	 * last `tailLines` of them when given; the cursor moves to the end either way.
	 */
	read(since: 'last' | 'start', tailLines?: number): OutputRead {
		const to = this.lineCount;
		let from = since === 'start' ? 1 : this.readTo + 1;
		if (tailLines !== undefined) {
			from = Math.max(from, to - tailLines + 1);
		}
		const kept = Math.max(from, this.first);
		this.readTo = to;
		const at = this.start - this.first;
		return { lines: this.ring.slice(at + kept, at + to + 1), from, to, before: kept - from, current: this.current };
	}

	/** The lines past the cursor, without moving it (what a reminder says; at most `count`, the last ones). */
	peekUnread(count: number): readonly string[] {
		const from = Math.max(this.readTo + 1, this.first, this.lineCount - count + 1);
		return this.ring.slice(this.start + from - this.first);
	}

	/** Keeps the lines up to the file's bound, in the ring and (in one write) in the file; returns those kept. */
	private keep(lines: readonly string[]): readonly string[] {
		if (lines.length === 0) {
			return lines;
		}
		const room = this.bounds.fileBytes - this.noteBytes;
		let chunk = `${lines.join('\n')}\n`;
		let kept = lines.length;
		let bytes = Buffer.byteLength(chunk, 'utf8');
		if (this.written + bytes > room) {
			// Near the bound: line by line, up to it.
			this.cut = true;
			bytes = 0;
			kept = 0;
			for (const line of lines) {
				const size = Buffer.byteLength(line, 'utf8') + 1;
				if (this.written + bytes + size > room) {
					break;
				}
				bytes += size;
				kept++;
			}
			chunk = `${lines.slice(0, kept).map((line) => `${line}\n`).join('')}${cutNote(this.bounds.fileBytes)}\n`;
		}
		this.written += bytes;
		for (let index = 0; index < kept; index++) {
			const line = lines[index] as string;
			this.ring.push(line);
			this.ringChars += line.length + 1;
		}
		while (this.ringChars > this.bounds.ringChars && this.ring.length - this.start > 1) {
			this.ringChars -= (this.ring[this.start] as string).length + 1;
			this.ring[this.start++] = '';
			this.first++;
		}
		if (this.start > 1024 && this.start * 2 > this.ring.length) {
			this.ring = this.ring.slice(this.start);
			this.start = 0;
		}
		this.file?.append(chunk);
		return kept === lines.length ? lines : lines.slice(0, kept);
	}
}
