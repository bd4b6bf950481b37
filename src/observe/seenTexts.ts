// The stale-write guard's memory: what the agent last saw of each file in this chat — the text a
// Read showed it, the text Aside's own Edit or Write put there, or the new text of a files.edited
// report whose full diff was delivered — as a hash. Edit compares the file's text with it before
// it writes, so a change the agent has not seen (the person typing in the editor, a build
// rewriting the file) is never written over. One per chat.
import { createHash } from 'node:crypto';
import * as nodePath from 'node:path';
import type { SeenFiles, SeenState } from '../tools/tool';

/** Files remembered at most; the least recently seen go first (such a file must be read again). */
export const DEFAULT_MAX_SEEN_FILES = 10_000;

/**
 * The text's hash, line endings aside: the editor may normalize them when Aside writes (a CRLF
 * document takes its own line break for an inserted LF), and Edit matches either style anyway.
 */
export function seenHash(text: string): string {
	return createHash('sha256').update(text.replace(/\r\n?/g, '\n')).digest('hex');
}

export class SeenTexts implements SeenFiles {
	private readonly hashes = new Map<string, string>();

	constructor(private readonly maxFiles = DEFAULT_MAX_SEEN_FILES) {}

	get size(): number {
		return this.hashes.size;
	}

	saw(path: string, text: string): void {
		const key = nodePath.resolve(path);
		this.hashes.delete(key);
		this.hashes.set(key, seenHash(text));
		for (const oldest of this.hashes.keys()) {
			if (this.hashes.size <= this.maxFiles) {
				break;
			}
			this.hashes.delete(oldest);
		}
	}

	/** The file is gone (a delivered report said it was deleted): nothing of it is known any more. */
	forget(path: string): void {
		this.hashes.delete(nodePath.resolve(path));
	}

	compare(path: string, text: string): SeenState {
		const hash = this.hashes.get(nodePath.resolve(path));
		return hash === undefined ? 'unseen' : hash === seenHash(text) ? 'same' : 'changed';
	}
}
