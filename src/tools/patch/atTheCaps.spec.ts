// A patch at the caps on the extension host's one thread: placing its hunks is linear in the file
// plus the patch (a hunk without an "@@" line no longer rescans the rest of the file), the work
// pauses every quantum, and Stop ends it between two pauses with nothing changed. The index that
// makes it linear finds exactly what the linear-time KMP search finds.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as fc from 'fast-check';
import { SeenTexts } from '../../observe/seenTexts';
import { nodeToolContext, tempWorkspace } from '../../testing/nodeWorkspace';
import { applyPatchTool } from '../applyPatch';
import { ToolError } from '../errors';
import { invokeTool } from '../registry';
import { changeSteps } from './changes';
import { LineIndex } from './lineIndex';
import { searchLines } from './lineSearch';
import { parsePatch } from './parse';
import { PATCH_STOPPED, runToEnd, runYielding, Work } from './steps';

const LINES = 50_000;
const HUNKS = 5_000;
const fileText = Array.from({ length: LINES }, (_, i) => `const line${i} = ${i};\n`).join('');
/** One hunk per tenth line, none with an "@@" line: each must be unique below the one before. */
const patchText = [
	'*** Begin Patch',
	'*** Update File: big.ts',
	...Array.from({ length: HUNKS }, (_, h) => {
		const i = h * 10 + 1;
		return ['@@', ` const line${i - 1} = ${i - 1};`, `-const line${i} = ${i};`, `+const line${i} = -${i};`, ` const line${i + 1} = ${i + 1};`].join('\n');
	}),
	'*** End Patch',
].join('\n');

describe('ApplyPatch at the caps', () => {
	const workspace = tempWorkspace('aside-patch-caps-');
	after(() => {
		workspace.dispose();
	});

	it('places 5,000 hunks without "@@" lines in a 50,000-line file in work linear in the file plus the patch', () => {
		const work = new Work();
		const [change] = runToEnd(changeSteps(parsePatch(patchText), () => fileText, work));
		assert.match(change?.after ?? '', /^const line4991 = -4991;$/m);
		// Each hunk looks at its own lines and the one place of its rarest line, and the file is gone through a few times
		// (split, indexed, rebuilt, joined): a small multiple of the file plus the patch, where rescanning was 5,000 × 25,000 on average.
		assert.ok(work.total <= 10 * (LINES + HUNKS * 4), `work ${work.total}`);
	});

	it('gives the thread back every quantum and stops there once aborted, having done only part of the work', async () => {
		const quantum = 10_000;
		const whole = new Work(quantum);
		runToEnd(changeSteps(parsePatch(patchText), () => fileText, whole));
		assert.ok(whole.total > 3 * quantum, 'the patch is several quanta of work');
		const stop = new AbortController();
		const work = new Work(quantum);
		const running = runYielding(changeSteps(parsePatch(patchText), () => fileText, work), stop.signal);
		// Queued after the engine's first pause: it runs while the engine waits for its second turn.
		setImmediate(() => {
			stop.abort();
		});
		await assert.rejects(running, (error: unknown) => error instanceof ToolError && error.message === PATCH_STOPPED);
		assert.ok(work.total < whole.total, `stopped after ${work.total} of ${whole.total}`);
	});

	it('Stop while the tool places the hunks: the call is cancelled and the file is unchanged', async () => {
		const path = join(workspace.root, 'big.ts');
		writeFileSync(path, fileText);
		const seen = new SeenTexts();
		seen.saw(path, fileText);
		const stop = new AbortController();
		const running = invokeTool(applyPatchTool, { patch: patchText }, nodeToolContext([workspace.root], stop.signal, seen));
		setImmediate(() => {
			stop.abort();
		});
		const result = await running;
		assert.equal(result.isError, true, result.content);
		assert.match(result.content, /ApplyPatch was cancelled before it finished/);
		assert.equal(readFileSync(path, 'utf8'), fileText);
	});
});

describe('the line index finds what KMP finds', () => {
	it('the first two starts of a pattern at or after any line, over files of few distinct lines', () => {
		const line = fc.constantFrom('a', 'b', 'c', '');
		fc.assert(
			fc.property(fc.array(line, { maxLength: 40 }), fc.array(line, { minLength: 1, maxLength: 5 }), fc.nat({ max: 45 }), (texts, pattern, from) => {
				const found = runToEnd(runToEnd(LineIndex.build(texts, new Work())).find(pattern, from, 2, new Work()));
				assert.deepEqual(found, searchLines(texts, pattern, from).matches);
			}),
			{ numRuns: 2_000 },
		);
	});
});
