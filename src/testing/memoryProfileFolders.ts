// ProfileFolders in memory (src/agent/subagents/profileLibrary.ts): folders hold files by name;
// `write`, `remove` and `fail` change them and fire the change event as a watcher would.
import { posix } from 'node:path';
import type { ProfileFolder, ProfileFolders } from '../agent/subagents/profileLibrary';
import { Emitter } from '../base/event';

export class MemoryProfileFolders implements ProfileFolders {
	private readonly files = new Map<string, Uint8Array>();
	private readonly unreadable = new Map<string, string>();
	private readonly changed = new Emitter<void>();
	readonly onDidChange = this.changed.event;
	/** How many times a file was read, by path. */
	readonly reads = new Map<string, number>();

	constructor(private shown: ProfileFolder[] = [{ path: '/ws/.aside/agents', scope: 'workspace' }]) {}

	folders(): readonly ProfileFolder[] {
		return this.shown;
	}

	/** Replaces the folders read (as a change of workspace folders or trust would), and fires. */
	setFolders(folders: ProfileFolder[]): void {
		this.shown = folders;
		this.changed.fire();
	}

	list(folder: string): readonly string[] {
		const prefix = `${folder}/`;
		return [...this.files.keys()].filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/') && path.endsWith('.md')).map((path) => path.slice(prefix.length));
	}

	read(path: string, maxBytes: number): Uint8Array {
		this.reads.set(path, (this.reads.get(path) ?? 0) + 1);
		const failure = this.unreadable.get(path);
		if (failure !== undefined) {
			throw new Error(failure);
		}
		const bytes = this.files.get(path);
		if (!bytes) {
			throw new Error(`ENOENT: no such file, open '${path}'`);
		}
		return bytes.subarray(0, maxBytes);
	}

	/** Writes a file (text as UTF-8) without firing: for the state before the library starts. */
	put(path: string, content: string | Uint8Array): this {
		this.files.set(posix.normalize(path), typeof content === 'string' ? new TextEncoder().encode(content) : content);
		return this;
	}

	write(path: string, content: string | Uint8Array): void {
		this.put(path, content);
		this.changed.fire();
	}

	remove(path: string): void {
		this.files.delete(path);
		this.changed.fire();
	}

	/** Makes reading `path` throw `message`, and fires. */
	fail(path: string, message: string): void {
		this.unreadable.set(path, message);
		this.changed.fire();
	}

	/** Fires with nothing changed (a save of the same text, a touch). */
	touch(): void {
		this.changed.fire();
	}
}
