// Protected paths: files whose change could change what Aside, VS Code or git do next — the
// repository's own data and hooks, the workspace's settings and tasks, Aside's configuration and
// storage. A change to one always asks, in every mode (full-access included); an allow rule cannot
// lift that, a deny rule still refuses (docs/permissions.md). Matched without regard to case, so a
// case-insensitive disk cannot spell its way around them.
import * as nodePath from 'node:path';
import { isInside } from '../../tools/paths';

/** Folders protected at any depth, by name. */
export const PROTECTED_FOLDERS: readonly string[] = ['.git', '.vscode', '.aside'];
/** Files protected anywhere, by extension. */
export const PROTECTED_EXTENSIONS: readonly string[] = ['.code-workspace'];

/** The list as the docs and the mode.constraints reminder say it. */
export const PROTECTED_SUMMARY = `${PROTECTED_FOLDERS.map((name) => `${name}/`).join(', ')} (at any depth), *${PROTECTED_EXTENSIONS.join(', *')} files, and Aside's own storage`;

/** `absolute` relative to the workspace folder that holds it, with `/` separators; undefined outside them. */
export function workspaceRelative(absolute: string, roots: readonly string[]): string | undefined {
	const root = roots.find((candidate) => isInside(absolute, nodePath.resolve(candidate)));
	return root === undefined ? undefined : nodePath.relative(nodePath.resolve(root), absolute).split(nodePath.sep).join('/');
}

/**
 * Why a change to `absolute` must be asked about, or undefined when it need not. `storage`: Aside's
 * own storage folders (the workspace's and the global one), which tools never reach from a normal
 * workspace, but might from one opened inside them.
 */
export function protectedReason(absolute: string, roots: readonly string[], storage: readonly string[]): string | undefined {
	const shown = workspaceRelative(absolute, roots) ?? absolute;
	if (storage.some((folder) => isInside(absolute, nodePath.resolve(folder)) || isInside(absolute.toLowerCase(), nodePath.resolve(folder).toLowerCase()))) {
		return `${shown} is in Aside's own storage`;
	}
	const segments = shown.split(/[\\/]/).map((segment) => segment.toLowerCase());
	const folder = PROTECTED_FOLDERS.find((name) => segments.includes(name));
	if (folder !== undefined) {
		return `${shown} is under ${folder}/, a protected path`;
	}
	const name = segments.at(-1) ?? '';
	const extension = PROTECTED_EXTENSIONS.find((ext) => name.endsWith(ext));
	if (extension !== undefined) {
		return `${shown} is a *${extension} file, a protected path`;
	}
	return undefined;
}
