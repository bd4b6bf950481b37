// Whether a path really lands inside some folders: its real place, symbolic links followed on the
// way (through its nearest existing folder, or the link it is itself), as resolveInWorkspace
// decides it for the tools. For writers that did not get the path from a tool (Restore, a fork's
// restore into its worktree), so a folder turned into a link cannot carry a write out.
import { realpath } from 'node:fs/promises';
import { ToolError } from './errors';
import { resolveInWorkspace } from './paths';
import type { WorkspaceFs } from './tool';

/** False when `path` leads out of every one of `roots` (a dangling link on its way counts as out). */
export async function realPlaceInside(path: string, roots: readonly string[], fs: Pick<WorkspaceFs, 'realPath' | 'readDirectory'>): Promise<boolean> {
	try {
		await resolveInWorkspace(path, roots, fs);
		return true;
	} catch (error) {
		if (error instanceof ToolError) {
			return false;
		}
		throw error;
	}
}

/** The real path of `path` on this machine's disk, undefined when it does not resolve (missing, not a folder on the way, a link loop). */
export async function realPathOnDisk(path: string): Promise<string | undefined> {
	try {
		return await realpath(path);
	} catch (error) {
		const code = (error as { code?: unknown } | null)?.code;
		if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') {
			return undefined;
		}
		throw error;
	}
}
