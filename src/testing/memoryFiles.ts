// File-system helpers for observer tests: a WorkspaceFs wrapper that records every call in
// memory (to assert what a WAIT touched), and writes to real files with a chosen mtime.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FileStat, WorkspaceFs } from '../tools/tool';

export type FsCall = readonly [method: 'stat' | 'readFile' | 'readDirectory' | 'realPath', path: string];

/** Passes every call to `inner` and records it. */
export class CountingWorkspaceFs implements WorkspaceFs {
	readonly calls: FsCall[] = [];

	constructor(private readonly inner: WorkspaceFs) {}

	reset(): void {
		this.calls.length = 0;
	}

	/** How many calls there were, of one method when given. */
	count(method?: FsCall[0]): number {
		return method === undefined ? this.calls.length : this.calls.filter(([name]) => name === method).length;
	}

	stat(path: string): Promise<FileStat | undefined> {
		this.calls.push(['stat', path]);
		return this.inner.stat(path);
	}

	readFile(path: string): Promise<Uint8Array> {
		this.calls.push(['readFile', path]);
		return this.inner.readFile(path);
	}

	readDirectory(path: string): Promise<readonly { readonly name: string; readonly type: FileStat['type'] }[]> {
		this.calls.push(['readDirectory', path]);
		return this.inner.readDirectory(path);
	}

	realPath(path: string): Promise<string | undefined> {
		this.calls.push(['realPath', path]);
		return this.inner.realPath(path);
	}
}

/** Writes a real file (and its missing folders) with this mtime, so tests decide whether the mtime moved. Returns the bytes. */
export function writeFileAt(path: string, content: string | Uint8Array, mtimeMs: number): Buffer {
	const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, bytes);
	utimesSync(path, mtimeMs / 1000, mtimeMs / 1000);
	return bytes;
}
