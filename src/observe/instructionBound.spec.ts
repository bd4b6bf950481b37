import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundFiles, leftOutLine, leftOutNotice } from './instructionBound';

const file = (path: string, bytes: number) => ({ path, text: 'x'.repeat(bytes), truncated: false });

describe('the total bound on root instruction files', () => {
	it('keeps the files in order while the count holds, and names the rest to the model in one line and to the person', () => {
		const files = Array.from({ length: 300 }, (_, index) => file(`.clinerules/${String(index + 1).padStart(3, '0')}.md`, 10));
		const bound = { maxFiles: 50, maxTotalBytes: 1024 * 1024 };
		const bounded = boundFiles(files, bound);
		assert.equal(bounded.files.length, 50);
		assert.equal(bounded.files.at(-1)?.path, '.clinerules/050.md');
		assert.equal(bounded.leftOut.length, 250);
		const line = leftOutLine(bounded, bound) ?? '';
		assert.equal(line, '250 more instruction files were left out (the limit of aside.instructions.maxFiles, 50 files): .clinerules/051.md, .clinerules/052.md, .clinerules/053.md, .clinerules/054.md, .clinerules/055.md and 245 more. Read one if the task needs it.');
		assert.ok(!line.includes('\n'), 'one line');
		assert.match(leftOutNotice(bounded, bound) ?? '', /^Instruction files: 250 files were not given to the model, past the limit of aside\.instructions\.maxFiles, 50 files: \.clinerules\/051\.md, .* and 240 more\. Raise the setting/);
	});

	it('stops at the first file past the total size, and leaves out every one after it', () => {
		const bound = { maxFiles: 50, maxTotalBytes: 100 };
		const bounded = boundFiles([file('AGENTS.md', 60), file('CLAUDE.md', 50), file('.cursorrules', 10)], bound);
		assert.deepEqual(bounded.files.map((kept) => kept.path), ['AGENTS.md']);
		assert.deepEqual(bounded.leftOut, ['CLAUDE.md', '.cursorrules']);
		assert.equal(leftOutLine(bounded, bound), '2 more instruction files were left out (the limit of aside.instructions.maxTotalBytes, 100 bytes): CLAUDE.md, .cursorrules. Read one if the task needs it.');
	});

	it('says nothing when everything fits', () => {
		const bound = { maxFiles: 2, maxTotalBytes: 20 };
		const bounded = boundFiles([file('AGENTS.md', 10), file('CLAUDE.md', 10)], bound);
		assert.deepEqual(bounded.leftOut, []);
		assert.equal(leftOutLine(bounded, bound), undefined);
		assert.equal(leftOutNotice(bounded, bound), undefined);
	});
});
