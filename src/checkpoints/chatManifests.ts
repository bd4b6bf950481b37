// The folder of manifests, one per chat (`<store>/chats/<session id>.jsonl`): where a chat's
// manifest is, which chats have one, and the hashes each names. Apart from one manifest's lines
// (manifest.ts) because the collector (collector.ts) and the store both ask it across chats.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../base/log';
import { manifestName, readManifest, requireSessionId, sessionOfManifest } from './manifest';
import type { CheckpointEntry, ContentHash } from './types';

/** A chat with checkpoints: its id, the hashes it names, its last change. */
export interface ChatSummary {
	readonly id: string;
	readonly hashes: readonly ContentHash[];
	readonly last: number;
}

export class ChatManifests {
	constructor(
		readonly dir: string,
		private readonly log: Logger,
	) {}

	pathOf(sessionId: string): string {
		return join(this.dir, manifestName(requireSessionId(sessionId)));
	}

	/** A chat's entries, settled; none for a chat without a manifest. */
	entries(sessionId: string): CheckpointEntry[] {
		return readManifest(this.pathOf(sessionId), manifestName(sessionId), this.log);
	}

	remove(sessionId: string): void {
		rmSync(this.pathOf(sessionId), { force: true });
	}

	/** Every chat with checkpoints. */
	all(): ChatSummary[] {
		return this.ids().map((id) => {
			const entries = this.entries(id);
			return { id, hashes: entries.flatMap(hashesOf), last: entries.reduce((last, entry) => Math.max(last, entry.at), 0) };
		});
	}

	namedByAny(): Set<ContentHash> {
		return new Set(this.all().flatMap((chat) => chat.hashes));
	}

	private ids(): string[] {
		let names: string[];
		try {
			names = readdirSync(this.dir);
		} catch {
			return [];
		}
		return names.map(sessionOfManifest).filter((id): id is string => id !== undefined);
	}
}

/** The hashes an entry names (its texts that are known and exist). */
export function hashesOf(entry: CheckpointEntry): ContentHash[] {
	return [entry.before, entry.after].filter((hash): hash is ContentHash => hash !== null && hash !== undefined);
}
