// Writes a text to a new file synchronously through one reused buffer, instead of encoding the
// whole text into a fresh one per write (as writeFileSync does): on a machine whose fresh memory
// is slow to touch, a 1 MB buffer per write cost more than the write (PERFORMANCE.md, checkpoints).
import { closeSync, openSync, writeSync } from 'node:fs';

/** Bytes of the buffer, allocated once, on the first write. */
const SCRATCH_BYTES = 1024 * 1024;
let scratch: Buffer | undefined;

/** Writes `text` as UTF-8 to `path` (created or truncated). */
export function writeTextSync(path: string, text: string): void {
	scratch ??= Buffer.allocUnsafeSlow(SCRATCH_BYTES);
	const buffer = scratch;
	// A UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair is 4 bytes for 2 units).
	const chunk = Math.floor(buffer.length / 3);
	const fd = openSync(path, 'w');
	try {
		let at = 0;
		while (at < text.length) {
			let end = Math.min(text.length, at + chunk);
			const last = text.charCodeAt(end - 1);
			if (end < text.length && last >= 0xd800 && last <= 0xdbff) {
				// Never between the two halves of a surrogate pair.
				end--;
			}
			const bytes = buffer.write(text.slice(at, end), 0, 'utf8');
			let written = 0;
			while (written < bytes) {
				written += writeSync(fd, buffer, written, bytes - written);
			}
			at = end;
		}
	} finally {
		closeSync(fd);
	}
}
