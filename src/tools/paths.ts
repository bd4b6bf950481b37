// Workspace confinement: every path a tool touches goes through resolveInWorkspace, which
// resolves it against the workspace folders and refuses anything whose real location (symlinks
// followed) is outside them.
import * as nodePath from 'node:path';
import { ToolError } from './errors';
import type { WorkspaceFs } from './tool';

/** True when `child` is `parent` or inside it. Both absolute; compared lexically. */
export function isInside(child: string, parent: string): boolean {
	const relative = nodePath.relative(parent, child);
	// `..foo` is a name inside; `..` and `../foo` are not.
	return relative === '' || (relative !== '..' && !relative.startsWith(`..${nodePath.sep}`) && !nodePath.isAbsolute(relative));
}

function outsideMessage(input: string, roots: readonly string[], detail = ''): string {
	return `Access denied: ${input}${detail} is outside the workspace folders (${roots.join(', ')}). Tools may only use files inside them.`;
}

/**
 * The absolute path a tool may use for `input`, or a ToolError saying why not. Relative paths
 * start at the first workspace folder; absolute paths must be inside one. Symlinks are followed:
 * the result is the real location, expressed under the workspace folder as the editor knows it
 * (so a folder opened through a symlink still matches its open documents). A path that does not
 * exist yet (for Write) is checked through its nearest existing ancestor.
 */
export async function resolveInWorkspace(input: string, roots: readonly string[], fs: Pick<WorkspaceFs, 'realPath' | 'readDirectory'>, planFile?: string): Promise<string> {
	const plan = planFile === undefined || input.includes('\0') ? undefined : await planFileOf(input, roots, fs, planFile);
	if (plan !== undefined) {
		return plan;
	}
	const [first] = roots;
	if (first === undefined) {
		throw new ToolError('No workspace folder is open, so there are no files to work with.');
	}
	if (input.includes('\0')) {
		throw new ToolError(`The path ${JSON.stringify(input)} contains a NUL character.`);
	}
	const candidate = nodePath.resolve(first, input.trim() === '' ? '.' : input);
	const realRoots = await Promise.all(
		roots.map(async (root) => {
			const absolute = nodePath.resolve(root);
			return { root: absolute, real: (await fs.realPath(absolute)) ?? absolute };
		}),
	);

	// Walk up to the nearest existing ancestor: its real path decides where a new file would land.
	let existing = candidate;
	const missing: string[] = [];
	let real = await fs.realPath(existing);
	while (real === undefined) {
		const parent = nodePath.dirname(existing);
		if (parent === existing) {
			throw new ToolError(outsideMessage(input, roots));
		}
		missing.unshift(nodePath.basename(existing));
		existing = parent;
		real = await fs.realPath(existing);
	}
	const full = nodePath.join(real, ...missing);
	const owner = realRoots.find((root) => isInside(full, root.real));
	if (!owner) {
		const lexicallyInside = roots.some((root) => isInside(candidate, nodePath.resolve(root)));
		throw new ToolError(outsideMessage(input, roots, lexicallyInside ? ` (a symbolic link to ${full})` : ''));
	}
	const [firstMissing] = missing;
	if (firstMissing !== undefined) {
		// A name that is listed but has no real path is a dangling symlink: writing through it
		// could create a file anywhere.
		const entries = await fs.readDirectory(real).catch(() => []);
		if (entries.some((entry) => entry.name === firstMissing)) {
			throw new ToolError(`Access denied: ${input} is a symbolic link whose target does not exist; tools do not write through it.`);
		}
	}
	return nodePath.join(owner.root, nodePath.relative(owner.real, full));
}

/**
 * `planFile` when `input` names exactly it (the chat's approved plan, in Aside's storage), and it is
 * the file itself rather than a symbolic link to somewhere else; otherwise undefined.
 */
async function planFileOf(input: string, roots: readonly string[], fs: Pick<WorkspaceFs, 'realPath'>, planFile: string): Promise<string | undefined> {
	const candidate = nodePath.resolve(roots[0] ?? nodePath.dirname(planFile), input);
	if (candidate !== nodePath.resolve(planFile)) {
		return undefined;
	}
	const [real, folder] = await Promise.all([fs.realPath(candidate), fs.realPath(nodePath.dirname(candidate))]);
	return real !== undefined && folder !== undefined && real === nodePath.join(folder, nodePath.basename(candidate)) ? candidate : undefined;
}

/**
 * How a tool shows an absolute path to the model: relative to the first workspace folder with
 * `/` separators (`.` for the folder itself); a path in another folder stays absolute, so that
 * giving it back to a tool finds the same file.
 */
export function displayPath(absolute: string, roots: readonly string[]): string {
	const [first] = roots;
	if (first !== undefined && isInside(absolute, nodePath.resolve(first))) {
		const relative = nodePath.relative(nodePath.resolve(first), absolute);
		return relative === '' ? '.' : relative.split(nodePath.sep).join('/');
	}
	return absolute.split(nodePath.sep).join('/');
}
