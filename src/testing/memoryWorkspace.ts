// A workspace in memory for observer tests: the files are a Map, and every call answers at once,
// so fake time alone decides what happens when.
import type { DocumentWriter, FileStat, WorkspaceFs } from '../tools/tool';

export class MemoryWorkspaceFs implements WorkspaceFs {
	constructor(readonly files: Map<string, string>) {}

	stat(path: string): Promise<FileStat | undefined> {
		const text = this.files.get(path);
		if (text !== undefined) {
			return Promise.resolve({ type: 'file', size: text.length, mtimeMs: 1 });
		}
		const isFolder = [...this.files.keys()].some((file) => file.startsWith(`${path}/`));
		return Promise.resolve(isFolder ? { type: 'directory', size: 0, mtimeMs: 1 } : undefined);
	}

	readFile(path: string): Promise<Uint8Array> {
		return Promise.resolve(new TextEncoder().encode(this.files.get(path) ?? ''));
	}

	readDirectory(): Promise<readonly { readonly name: string; readonly type: FileStat['type'] }[]> {
		return Promise.resolve([]);
	}

	async realPath(path: string): Promise<string | undefined> {
		return (await this.stat(path)) ? path : undefined;
	}
}

/** The editor's documents over the same Map; `onWrite` runs after each write (a language server, say). */
export class MemoryDocumentWriter implements DocumentWriter {
	constructor(
		readonly files: Map<string, string>,
		private readonly onWrite: (path: string, text: string) => void = () => undefined,
	) {}

	readText(path: string): Promise<string | undefined> {
		return Promise.resolve(this.files.get(path));
	}

	replace(path: string, text: string): Promise<void> {
		this.write(path, text);
		return Promise.resolve();
	}

	create(path: string, text: string): Promise<void> {
		this.write(path, text);
		return Promise.resolve();
	}

	delete(path: string): Promise<void> {
		this.files.delete(path);
		return Promise.resolve();
	}

	private write(path: string, text: string): void {
		this.files.set(path, text);
		this.onWrite(path, text);
	}
}
