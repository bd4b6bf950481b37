// A process's output as the model reads it (docs/tools.md, "Run in the background"): the terminal's
// text cleaned line by line (terminalText.ts), the last lines kept in a bounded ring for RunOutput
// and the reminders, and every line written to a file the model reads whole with Read. The file is
// bounded too: past it nothing more is kept and `overBound` says so (the process is then stopped and
// the model told). A read cursor marks what the model has read: RunOutput "since last" starts there
// and moves it, and `run.background.output` says only what is past it.
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

export class ProcessOutput {
	private readonly text = new TerminalText();
	/** The ring: the last lines, `first` the number of the oldest. */
	private ring: string[] = [];
	private ringChars = 0;
	private first = 1;
	private written = 0;
	private cut = false;
	/** The number of the last line the model read (0: none). */
	private readTo = 0;

	constructor(
		private readonly file: OutputFile | undefined,
		private readonly bounds: OutputBounds = DEFAULT_OUTPUT_BOUNDS,
	) {}

	/** Completed lines so far. */
	get lineCount(): number {
		return this.first - 1 + this.ring.length;
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
		return count <= 0 ? [] : this.ring.slice(-count);
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
		return { lines: this.ring.slice(kept - this.first, to - this.first + 1), from, to, before: kept - from, current: this.current };
	}

	/** The lines past the cursor, without moving it (what a reminder says; at most `count`, the last ones). */
	peekUnread(count: number): readonly string[] {
		const from = Math.max(this.readTo + 1, this.first, this.lineCount - count + 1);
		return this.ring.slice(from - this.first);
	}

	/** Keeps the lines up to the file's bound, in the ring and (in one write) in the file; returns those kept. */
	private keep(lines: readonly string[]): readonly string[] {
		let kept = lines.length;
		let chunk = '';
		for (const [index, line] of lines.entries()) {
			const bytes = Buffer.byteLength(line, 'utf8') + 1;
			if (this.written + bytes > this.bounds.fileBytes) {
				this.cut = true;
				kept = index;
				break;
			}
			this.written += bytes;
			chunk += `${line}\n`;
			this.ring.push(line);
			this.ringChars += line.length + 1;
			while (this.ringChars > this.bounds.ringChars && this.ring.length > 1) {
				this.ringChars -= (this.ring.shift() as string).length + 1;
				this.first++;
			}
		}
		if (chunk !== '') {
			this.file?.append(chunk);
		}
		return kept === lines.length ? lines : lines.slice(0, kept);
	}
}
