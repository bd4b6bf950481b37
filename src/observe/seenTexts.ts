// The stale-write guard's memory: what the agent last saw of each file in this chat — the text a
// Read showed it, the text Aside's own Edit or Write put there, or the new text of a files.edited
// report whose full diff was delivered — as a hash. Edit compares the file's text with it before
// it writes, so a change the agent has not seen (the person typing in the editor, a build
// rewriting the file) is never written over. One per chat for the root agent, and one of its own
// for each sub-agent (agent(path)): what one agent read says nothing about what another has seen,
// so none writes over a change another made after it read the file.
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

/** Sub-agents' memories kept at most; the least recently used go first (their files must be read again). */
export const MAX_AGENT_MEMORIES = 64;

export class SeenTexts implements SeenFiles {
	private readonly hashes = new Map<string, string>();
	private readonly agents = new Map<string, SeenTexts>();

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

	/** The file is gone (a delivered report said it was deleted): nothing of it is known any more, by any agent. */
	forget(path: string): void {
		this.hashes.delete(nodePath.resolve(path));
		for (const memory of this.agents.values()) {
			memory.forget(path);
		}
	}

	/** The sub-agent `path`'s own memory (its owner path), empty until it reads or writes. */
	agent(path: string): SeenTexts {
		const memory = this.agents.get(path) ?? new SeenTexts(this.maxFiles);
		this.agents.delete(path);
		this.agents.set(path, memory);
		for (const oldest of this.agents.keys()) {
			if (this.agents.size <= MAX_AGENT_MEMORIES) {
				break;
			}
			this.agents.delete(oldest);
		}
		return memory;
	}

	compare(path: string, text: string): SeenState {
		const hash = this.hashes.get(nodePath.resolve(path));
		return hash === undefined ? 'unseen' : hash === seenHash(text) ? 'same' : 'changed';
	}
}
