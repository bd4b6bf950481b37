// parsePatch: the text of an apply_patch patch → its operations, or a PatchError naming the patch
// line and what was expected there. Pure and linear in the patch; nothing here reads a file.
import { truncateChars } from '../text';
import { type Hunk, type HunkLine, type Patch, PatchError, type PatchOperation } from './patch';
import { patchPath } from './patchPath';

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const END_OF_FILE = '*** End of File';
const FILE_HEADER = /^\*\*\* (Add|Delete|Update) File:(.*)$/;
const MOVE_TO = /^\*\*\* Move to:(.*)$/;
// What a unified diff (`diff -u`, git) puts after `@@`: line numbers, which this format has none of.
const UNIFIED_RANGE = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;

const HUNK_LINE_KINDS: Readonly<Record<string, HunkLine['kind']>> = { ' ': 'context', '-': 'remove', '+': 'add' };

function quote(line: string): string {
	return JSON.stringify(truncateChars(line, 120));
}

function fail(line: number, message: string): never {
	throw new PatchError(`Invalid patch at line ${line}: ${message}`, { line });
}

/** A marker line: markers may carry trailing whitespace (never leading: ` ***` is a context line). */
function marker(line: string): string {
	return line.trimEnd();
}

function isBlank(line: string): boolean {
	return line.trim() === '';
}

interface FileHeader {
	readonly kind: 'add' | 'delete' | 'update';
	readonly rawPath: string;
	readonly label: string;
}

function fileHeader(line: string): FileHeader | undefined {
	const match = FILE_HEADER.exec(marker(line));
	if (!match) {
		return undefined;
	}
	const [, verb = '', rawPath = ''] = match;
	return { kind: verb === 'Add' ? 'add' : verb === 'Delete' ? 'delete' : 'update', rawPath, label: `*** ${verb} File:` };
}

/** Where one file operation's lines end: the next header, or the patch's last line. */
function endsOperation(line: string): boolean {
	return fileHeader(line) !== undefined || marker(line) === END;
}

/**
 * Parses an apply_patch patch: `*** Begin Patch`, file operations, `*** End Patch` (blank lines
 * around the whole are ignored). Lines may end with `\n`, `\r\n` or `\r`.
 */
export function parsePatch(text: string): Patch {
	const lines = text.split(/\r\n|\n|\r/);
	let first = 0;
	while (first < lines.length && isBlank(lines[first] ?? '')) {
		first++;
	}
	let last = lines.length - 1;
	while (last > first && isBlank(lines[last] ?? '')) {
		last--;
	}
	const opening = lines[first];
	if (opening === undefined) {
		fail(1, `the patch is empty: expected "${BEGIN}", then file operations, then "${END}".`);
	}
	if (opening.trim() !== BEGIN) {
		const hint = opening.startsWith('<<') ? ' (without a heredoc around it)' : opening.startsWith('```') ? ' (without a code fence around it)' : '';
		fail(first + 1, `expected "${BEGIN}" as the first line${hint}, found ${quote(opening)}.`);
	}
	if (last === first || marker(lines[last] ?? '') !== END) {
		const found = last === first ? 'nothing after the first' : quote(lines[last] ?? '');
		fail(last + 1, `expected "${END}" as the last line, found ${found}: the patch may have been cut off.`);
	}
	const reader = new LineReader(lines, first + 1, last);
	const operations: PatchOperation[] = [];
	while (!reader.done()) {
		const line = reader.peek();
		if (isBlank(line)) {
			reader.next();
			continue;
		}
		if (marker(line) === END) {
			fail(reader.lineNumber(), `"${END}" must be the last line, but more follows.`);
		}
		const header = fileHeader(line);
		if (!header) {
			fail(reader.lineNumber(), `expected a file operation ("*** Add File: <path>", "*** Update File: <path>" or "*** Delete File: <path>"), found ${quote(line)}.`);
		}
		operations.push(parseOperation(reader, header));
	}
	if (operations.length === 0) {
		fail(last + 1, 'the patch has no file operations: nothing to change.');
	}
	return { operations };
}

/** The patch's lines between the two envelope lines, with 1-based line numbers for messages. */
class LineReader {
	constructor(
		private readonly lines: readonly string[],
		private index: number,
		private readonly end: number,
	) {}

	done(): boolean {
		return this.index >= this.end;
	}

	peek(): string {
		return this.lines[this.index] ?? '';
	}

	next(): string {
		return this.lines[this.index++] ?? '';
	}

	lineNumber(): number {
		return this.index + 1;
	}
}

function parseOperation(reader: LineReader, header: FileHeader): PatchOperation {
	const line = reader.lineNumber();
	reader.next();
	const path = patchPath(header.rawPath, line, header.label);
	switch (header.kind) {
		case 'add':
			return { kind: 'add', path, line, text: parseAddedText(reader, path) };
		case 'delete':
			if (!reader.done() && !isBlank(reader.peek()) && !endsOperation(reader.peek())) {
				fail(reader.lineNumber(), `"*** Delete File: ${path}" takes no lines after it; expected the next file operation or "${END}", found ${quote(reader.peek())}.`);
			}
			return { kind: 'delete', path, line };
		case 'update':
			return parseUpdate(reader, path, line);
	}
}

/** An added file's lines, each written with a leading `+`. */
function parseAddedText(reader: LineReader, path: string): string {
	const added: string[] = [];
	while (!reader.done()) {
		const line = reader.peek();
		if (line.startsWith('+')) {
			added.push(line.slice(1));
			reader.next();
			continue;
		}
		if (endsOperation(line)) {
			break;
		}
		if (isBlank(line)) {
			// A separator before the next operation, unless content follows: an empty line of the
			// new file written without its `+`.
			const blank = reader.lineNumber();
			while (!reader.done() && isBlank(reader.peek())) {
				reader.next();
			}
			if (!reader.done() && reader.peek().startsWith('+')) {
				fail(blank, `every line of the added file ${path} starts with "+"; write an empty line as "+".`);
			}
			break;
		}
		fail(reader.lineNumber(), `every line of the added file ${path} starts with "+"; found ${quote(line)}.`);
	}
	return added.map((line) => `${line}\n`).join('');
}

function parseUpdate(reader: LineReader, path: string, line: number): PatchOperation {
	let moveTo: string | undefined;
	const move = MOVE_TO.exec(marker(reader.done() ? '' : reader.peek()));
	if (move) {
		moveTo = patchPath(move[1] ?? '', reader.lineNumber(), '*** Move to:');
		reader.next();
	}
	const hunks: Hunk[] = [];
	while (!reader.done()) {
		const next = reader.peek();
		if (endsOperation(next)) {
			break;
		}
		if (isBlank(next)) {
			reader.next();
			continue;
		}
		if (MOVE_TO.test(marker(next))) {
			misplacedMove(reader, path);
		}
		// Only the first hunk may leave out its `@@`: after a hunk, anything else is a stray line.
		if (hunks.length > 0 && !next.startsWith('@@')) {
			fail(reader.lineNumber(), `expected "@@" to start the next hunk of ${path}, the next file operation or "${END}", found ${quote(next)}.`);
		}
		hunks.push(parseHunk(reader, path));
	}
	if (hunks.length === 0 && moveTo === undefined) {
		fail(line, `"*** Update File: ${path}" has no hunks: expected "@@" and the lines to change.`);
	}
	return moveTo === undefined ? { kind: 'update', path, line, hunks } : { kind: 'update', path, line, moveTo, hunks };
}

function misplacedMove(reader: LineReader, path: string): never {
	fail(reader.lineNumber(), `"*** Move to:" goes right after "*** Update File: ${path}", before its hunks.`);
}

function parseHunk(reader: LineReader, path: string): Hunk {
	const start = reader.lineNumber();
	const anchors: string[] = [];
	while (!reader.done() && reader.peek().startsWith('@@')) {
		const line = reader.peek();
		if (UNIFIED_RANGE.test(line)) {
			fail(reader.lineNumber(), `${quote(line)} is a unified diff's line-number header; this format has none: write "@@" alone, or "@@ " followed by a line of the file the hunk is below (a function or class).`);
		}
		const rest = line.slice(2);
		if (rest !== '' && !/^\s/.test(rest)) {
			fail(reader.lineNumber(), `expected "@@" alone or "@@ " followed by a line of the file, found ${quote(line)}.`);
		}
		if (rest.trim() !== '') {
			anchors.push(rest.trim());
		}
		reader.next();
	}
	const lines: HunkLine[] = [];
	// How many of the last lines were empty lines taken as empty context lines (see below).
	let trailingBare = 0;
	let endOfFile = false;
	while (!reader.done()) {
		const line = reader.peek();
		if (line.startsWith('@@') || endsOperation(line)) {
			break;
		}
		if (marker(line) === END_OF_FILE) {
			// Empty lines right before it separate nothing: they are the file's last (empty) lines.
			trailingBare = 0;
			endOfFile = true;
			reader.next();
			break;
		}
		if (line === '') {
			// An empty context line whose leading space was stripped (editors and models do): it
			// cannot mean anything else. At the end of a hunk it separates hunks instead.
			lines.push({ kind: 'context', text: '' });
			trailingBare++;
			reader.next();
			continue;
		}
		if (MOVE_TO.test(marker(line))) {
			misplacedMove(reader, path);
		}
		const kind = HUNK_LINE_KINDS[line.charAt(0)];
		if (kind === undefined) {
			const what = line.startsWith('***') ? 'an unknown "***" line' : quote(line);
			fail(reader.lineNumber(), `expected a hunk line of ${path} (starting with " " to keep, "-" to remove or "+" to add), "@@", "${END_OF_FILE}", the next file operation or "${END}"; found ${what}.`);
		}
		lines.push({ kind, text: line.slice(1) });
		trailingBare = 0;
		reader.next();
	}
	lines.length -= trailingBare;
	if (lines.length === 0) {
		fail(start, `a hunk of ${path} has no lines: expected lines starting with " ", "-" or "+" after its "@@".`);
	}
	if (!lines.some((line) => line.kind !== 'context')) {
		fail(start, `a hunk of ${path} changes nothing: it has no "-" or "+" lines.`);
	}
	return { anchors, lines, endOfFile, line: start };
}
