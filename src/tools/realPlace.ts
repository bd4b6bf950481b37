// Whether a path really lands inside some folders: its real place, symbolic links followed on the
// way (through its nearest existing folder, or the link it is itself), as resolveInWorkspace
// decides it for the tools. For writers that did not get the path from a tool (Restore, a fork's
// restore into its worktree), so a folder turned into a link cannot carry a write out.
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
