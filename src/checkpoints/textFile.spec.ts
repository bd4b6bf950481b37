// writeTextSync: the bytes on disk are the text's UTF-8, whatever its size and wherever a chunk
// of the reused buffer ends (surrogate pairs and 3-byte characters included).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { writeTextSync } from './textFile';

const dir = mkdtempSync(join(tmpdir(), 'aside-text-file-'));
after(() => {
	rmSync(dir, { recursive: true, force: true });
});

function roundTrip(name: string, text: string): void {
	const path = join(dir, name);
	writeTextSync(path, text);
	assert.ok(readFileSync(path).equals(Buffer.from(text, 'utf8')), `${name}: the same bytes as Buffer.from`);
}

describe('writeTextSync', () => {
	it('writes empty, small and multi-chunk texts as their UTF-8', () => {
		roundTrip('empty', '');
		roundTrip('small', 'export const a = 1;\n');
		roundTrip('big', 'x'.repeat(3 * 1024 * 1024 + 17));
	});

	it('never splits a surrogate pair or a 3-byte character at a chunk\'s end', () => {
		// The chunk is a third of the 1 MiB buffer in UTF-16 units: put pairs across every offset near it.
		const chunk = Math.floor((1024 * 1024) / 3);
		for (const shift of [0, 1, 2, 3]) {
			roundTrip(`pairs${shift}`, 'a'.repeat(chunk - shift) + '😀'.repeat(chunk) + 'ü€'.repeat(1000));
		}
		roundTrip('three-byte', '€'.repeat(chunk * 2 + 5));
	});

	it('truncates a file that was there', () => {
		const path = join(dir, 'again');
		writeTextSync(path, 'a long first text\n'.repeat(100));
		writeTextSync(path, 'short\n');
		assert.equal(readFileSync(path, 'utf8'), 'short\n');
	});
});
