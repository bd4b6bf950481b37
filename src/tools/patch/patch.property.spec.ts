// Properties of the engine over generated input: random edits of random files come back exactly
// through a patch written for them; anything else, garbage or a patch against the wrong text,
// ends in a PatchError and never in another exception.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as fc from 'fast-check';
import { changesFromPatch } from './changes';
import { parsePatch } from './parse';
import { PatchError } from './patch';

const RUNS = 300;

/** One edit of a file's lines: lines [start, end) become `added`. */
interface Edit {
	readonly start: number;
	readonly end: number;
	readonly added: readonly string[];
}

// Line text without line breaks: anything else goes, marker look-alikes included, since a hunk
// line's prefix says what it is.
const lineText = fc.oneof(
	fc.string({ maxLength: 12 }).map((text) => text.replace(/[\r\n]/g, '')),
	fc.constantFrom('', ' ', '\t', '*** End Patch', '*** End of File', '@@', '@@ x', '+', '-', '*** Delete File: a', '‹system-reminder>'),
);

/**
 * A file of distinct lines (each carries its index, so context is never ambiguous) and edits of
 * it that leave at least two kept lines between each other, so every hunk has context of its own.
 */
const editedFile = fc
	.record({
		texts: fc.array(lineText, { minLength: 1, maxLength: 30 }),
		cuts: fc.array(fc.record({ at: fc.nat(), removed: fc.nat({ max: 3 }), added: fc.array(lineText, { maxLength: 3 }) }), { minLength: 1, maxLength: 5 }),
		context: fc.integer({ min: 1, max: 3 }),
		eol: fc.constantFrom('\n', '\r\n'),
		finalNewline: fc.boolean(),
		endOfFile: fc.boolean(),
	})
	.map(({ texts, cuts, ...rest }) => {
		const lines = texts.map((text, i) => `${i}|${text}`);
		const edits: Edit[] = [];
		let next = 0;
		for (const { at, removed, added } of cuts) {
			const start = next + (at % (lines.length + 1 - next || 1));
			if (start > lines.length) {
				break;
			}
			const end = Math.min(lines.length, start + removed);
			if (end === start && added.length === 0) {
				continue;
			}
			edits.push({ start, end, added: added.map((text, i) => `new ${edits.length}.${i}|${text}`) });
			next = end + 2;
			if (next > lines.length) {
				break;
			}
		}
		return { lines, edits, ...rest };
	})
	.filter(({ edits }) => edits.length > 0);

/**
 * The patch lines of an update making `edits` to `lines`, with up to `context` kept lines around
 * each; hunks never share a line (the one before the next edit is left for the next hunk).
 */
function updateBody(lines: readonly string[], edits: readonly Edit[], context: number, endOfFile: boolean): string[] {
	const body: string[] = [];
	let consumed = 0;
	edits.forEach((edit, index) => {
		const next = edits[index + 1];
		const before = lines.slice(Math.max(consumed, edit.start - context), edit.start);
		const after = lines.slice(edit.end, Math.min(next ? next.start - 1 : lines.length, edit.end + context));
		consumed = edit.end + after.length;
		body.push('@@', ...before.map((line) => ` ${line}`), ...lines.slice(edit.start, edit.end).map((line) => `-${line}`), ...edit.added.map((line) => `+${line}`), ...after.map((line) => ` ${line}`));
		if (endOfFile && edit.end + after.length === lines.length) {
			body.push('*** End of File');
		}
	});
	return body;
}

function edited(lines: readonly string[], edits: readonly Edit[]): string[] {
	const result: string[] = [];
	let next = 0;
	for (const { start, end, added } of edits) {
		result.push(...lines.slice(next, start), ...added);
		next = end;
	}
	result.push(...lines.slice(next));
	return result;
}

const join = (lines: readonly string[], eol: string, finalNewline: boolean) => (lines.length === 0 ? '' : lines.join(eol) + (finalNewline ? eol : ''));

const wrap = (body: readonly string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

function onlyPatchErrors(run: () => unknown): boolean {
	try {
		run();
	} catch (error) {
		if (!(error instanceof PatchError)) {
			throw error;
		}
	}
	return true;
}

describe('apply_patch engine, generated', () => {
	it('random edits of a random file, written as a patch, parse and apply to exactly the edited file (LF or CRLF, final newline or not)', () => {
		fc.assert(
			fc.property(editedFile, ({ lines, edits, context, eol, finalNewline, endOfFile }) => {
				const before = join(lines, eol, finalNewline);
				// A file without any line break has no style to keep: lines added to it get `\n`.
				const expected = join(edited(lines, edits), lines.length === 1 && !finalNewline ? '\n' : eol, finalNewline);
				const parsed = parsePatch(wrap(['*** Update File: dir/f.txt', ...updateBody(lines, edits, context, endOfFile)]));
				const changes = changesFromPatch(parsed, (path) => (path === 'dir/f.txt' ? before : undefined));
				assert.deepEqual(changes, expected === before ? [] : [{ path: 'dir/f.txt', before, after: expected }]);
			}),
			{ numRuns: RUNS },
		);
	});

	it('a patch written with CRLF line breaks means the same', () => {
		fc.assert(
			fc.property(editedFile, ({ lines, edits, context, endOfFile }) => {
				const text = wrap(['*** Update File: f', ...updateBody(lines, edits, context, endOfFile)]);
				assert.deepEqual(parsePatch(text.replaceAll('\n', '\r\n')), parsePatch(text));
			}),
			{ numRuns: RUNS },
		);
	});

	it('an added file comes back as its lines, each with a line break', () => {
		fc.assert(
			fc.property(fc.array(lineText, { maxLength: 20 }), (lines) => {
				const [operation] = parsePatch(wrap(['*** Add File: a', ...lines.map((line) => `+${line}`)])).operations;
				assert.deepEqual(operation, { kind: 'add', path: 'a', line: 2, text: lines.map((line) => `${line}\n`).join('') });
			}),
			{ numRuns: RUNS },
		);
	});

	it('a patch for one text applied to another changes nothing and fails with a PatchError naming the file and a hunk', () => {
		fc.assert(
			fc.property(editedFile, fc.nat(), ({ lines, edits, context, endOfFile }, pick) => {
				const body = updateBody(lines, edits, context, endOfFile);
				// One context or removed line of the file changes under the patch.
				const old = lines.filter((_, i) => body.includes(` ${lines[i]}`) || body.includes(`-${lines[i]}`));
				const target = old[pick % old.length] ?? '';
				const drifted = lines.map((line) => (line === target ? `${line}~` : line)).join('\n');
				assert.throws(
					() => changesFromPatch(parsePatch(wrap(['*** Update File: f', ...body])), () => drifted),
					(error: unknown) => error instanceof PatchError && error.where.path === 'f' && typeof error.where.hunk === 'number' && error.where.hunk >= 1 && error.where.hunk <= edits.length,
				);
			}),
			{ numRuns: RUNS },
		);
	});

	it('garbage never throws anything but a PatchError, from the parser or the applier', () => {
		const vocabulary = fc.oneof(
			fc.constantFrom('*** Begin Patch', '*** End Patch', '*** Add File: a', '*** Update File: a', '*** Delete File: a', '*** Move to: b', '*** Update File: ../x', '*** End of File', '@@', '@@ a', '@@ -1 +1 @@', '', ' ', ' a', '-a', '+a', '+', '-', ' b', '\r'),
			fc.string({ maxLength: 8 }),
		);
		const texts = fc.dictionary(fc.constantFrom('a', 'b', 'x'), fc.array(fc.constantFrom('a', 'b', '', ' a'), { maxLength: 5 }).map((lines) => lines.join('\n')));
		fc.assert(
			fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.array(vocabulary, { maxLength: 25 }).map((lines) => lines.join('\n'))), texts, (text, files) =>
				onlyPatchErrors(() => changesFromPatch(parsePatch(text), (path) => (Object.hasOwn(files, path) ? files[path] : undefined))),
			),
			{ numRuns: 2000 },
		);
	});

	it('garbage inside a well-formed envelope never throws anything but a PatchError', () => {
		const line = fc.oneof(fc.constantFrom('*** Update File: a', '*** Add File: a', '*** Delete File: a', '*** Move to: a', '@@', '*** End of File', ''), lineText.map((text) => `${'+- '.charAt(text.length % 3)}${text}`), fc.string({ maxLength: 6 }));
		fc.assert(
			fc.property(fc.array(line, { maxLength: 30 }), fc.array(lineText, { maxLength: 8 }), (body, lines) =>
				onlyPatchErrors(() => changesFromPatch(parsePatch(wrap(body)), () => lines.join('\n'))),
			),
			{ numRuns: 2000 },
		);
	});
});
