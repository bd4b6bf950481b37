// Where a file or folder chip of a user row leads. The webview sends the path as the message
// wrote it; only a place inside a workspace folder is ever opened (the agent's own rule for
// mentions, src/mentions/expand.ts), so a crafted message cannot make a chip open anything else.
import * as nodePath from 'node:path';
import { isInside } from '../tools/paths';

/** The absolute places `path` may name, in the workspace folders' order; a string says why none may be opened. */
export function mentionTargets(path: string, roots: readonly string[]): readonly string[] | string {
	if (path.includes('\0')) {
		return 'That path cannot be opened.';
	}
	const resolvedRoots = roots.map((root) => nodePath.resolve(root));
	if (resolvedRoots.length === 0) {
		return `${path} cannot be opened: no workspace folder is open.`;
	}
	const candidates = nodePath.isAbsolute(path) ? [nodePath.resolve(path)] : resolvedRoots.map((root) => nodePath.resolve(root, path));
	const inside = candidates.filter((candidate) => resolvedRoots.some((root) => isInside(candidate, root)));
	return inside.length > 0 ? inside : `${path} is outside the workspace folders: the chat opens only files inside them.`;
}

/** Whether a place, with its links followed, is still inside one of the folders (with theirs followed). */
export function insideRealRoots(realPath: string, realRoots: readonly string[]): boolean {
	return realRoots.some((root) => isInside(realPath, root));
}
