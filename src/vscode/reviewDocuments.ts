// The proposed sides of a review, as documents of Aside's own scheme held in memory: the path of
// each is the file's workspace-relative path (`aside-review:/src/greeting.ts`), so the diff
// editor's title and breadcrumb name the file, not a folder in the extension's storage. A file
// system provider rather than a content provider, because the person may change the proposed side
// (and save it) before deciding: Aside reads their text back. The query tells one review's
// document from another's of the same file (VS Code keeps a closed document a while).
import * as vscode from 'vscode';

export const REVIEW_SCHEME = 'aside-review';

interface Entry {
	data: Uint8Array;
	readonly ctime: number;
	mtime: number;
}

/** `shown` (workspace-relative, as the model and the person see it) as a URI path. */
function reviewPath(shown: string): string {
	const path = shown.split('\\').join('/').replace(/^(\.\/)+/, '');
	return path.startsWith('/') ? path : `/${path}`;
}

export class ReviewDocuments implements vscode.FileSystemProvider {
	private readonly entries = new Map<string, Entry>();
	private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
	readonly onDidChangeFile = this.changed.event;

	/** The URI of `shown`'s side in review `review`. */
	uriOf(shown: string, review: string): vscode.Uri {
		return vscode.Uri.from({ scheme: REVIEW_SCHEME, path: reviewPath(shown), query: `review=${encodeURIComponent(review)}` });
	}

	/** Puts a proposed side's text at `uri`. */
	put(uri: vscode.Uri, text: string): void {
		const now = Date.now();
		this.entries.set(uri.toString(), { data: new TextEncoder().encode(text), ctime: now, mtime: now });
	}

	/** The review is over: its sides go. */
	drop(uris: readonly vscode.Uri[]): void {
		for (const uri of uris) {
			this.entries.delete(uri.toString());
		}
		this.changed.fire(uris.map((uri) => ({ type: vscode.FileChangeType.Deleted, uri })));
	}

	watch(): vscode.Disposable {
		return new vscode.Disposable(() => undefined);
	}

	stat(uri: vscode.Uri): vscode.FileStat {
		const entry = this.entries.get(uri.toString());
		if (entry) {
			return { type: vscode.FileType.File, ctime: entry.ctime, mtime: entry.mtime, size: entry.data.byteLength };
		}
		if (this.isFolder(uri)) {
			return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0, permissions: vscode.FilePermission.Readonly };
		}
		throw vscode.FileSystemError.FileNotFound(uri);
	}

	readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
		const prefix = uri.path.endsWith('/') ? uri.path : `${uri.path}/`;
		const names = new Map<string, vscode.FileType>();
		for (const key of this.entries.keys()) {
			const path = vscode.Uri.parse(key).path;
			if (path.startsWith(prefix)) {
				const [name = '', ...rest] = path.slice(prefix.length).split('/');
				names.set(name, rest.length > 0 ? vscode.FileType.Directory : vscode.FileType.File);
			}
		}
		return [...names];
	}

	readFile(uri: vscode.Uri): Uint8Array {
		const entry = this.entries.get(uri.toString());
		if (!entry) {
			throw vscode.FileSystemError.FileNotFound(uri);
		}
		return entry.data;
	}

	/** The person saved their revision of a proposed side (or Aside did, closing the review). */
	writeFile(uri: vscode.Uri, content: Uint8Array): void {
		const entry = this.entries.get(uri.toString());
		if (!entry) {
			// Only the sides of a review exist here: nothing new is created.
			throw vscode.FileSystemError.NoPermissions(uri);
		}
		entry.data = content;
		entry.mtime = Date.now();
		this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
	}

	createDirectory(uri: vscode.Uri): void {
		throw vscode.FileSystemError.NoPermissions(uri);
	}

	delete(uri: vscode.Uri): void {
		throw vscode.FileSystemError.NoPermissions(uri);
	}

	rename(uri: vscode.Uri): void {
		throw vscode.FileSystemError.NoPermissions(uri);
	}

	dispose(): void {
		this.entries.clear();
		this.changed.dispose();
	}

	private isFolder(uri: vscode.Uri): boolean {
		const prefix = uri.path.endsWith('/') ? uri.path : `${uri.path}/`;
		return [...this.entries.keys()].some((key) => vscode.Uri.parse(key).path.startsWith(prefix));
	}
}
