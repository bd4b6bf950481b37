// Protected paths: files whose change could change what Aside, VS Code or git do next — the
// repository's own data and hooks, the workspace's settings and tasks, Aside's configuration and
// storage — and what Aside loads as instructions, agent profiles, skills, hooks, MCP servers or
// settings (its own and the other agents' files it reads beside them), so the agent cannot rewrite
// what it is told or allowed without the person seeing it. A change to one always asks, in every mode (full-access included); an allow rule cannot
// lift that, a deny rule still refuses (docs/permissions.md). Matched without regard to case, so a
// case-insensitive disk cannot spell its way around them.
import * as nodePath from 'node:path';
import { isInside } from '../../tools/paths';

/** Folders protected at any depth, by name. */
export const PROTECTED_FOLDERS: readonly string[] = ['.git', '.vscode', '.aside'];
/** Files protected anywhere, by extension. */
export const PROTECTED_EXTENSIONS: readonly string[] = ['.code-workspace'];

/** What changes what the agent is told, by name at any depth: a folder (and everything in it) or a file of that name. */
export const INSTRUCTION_FOLDERS: readonly string[] = ['.claude', '.cursor', '.roo', '.clinerules'];
/** The same, files only. */
export const INSTRUCTION_FILES: readonly string[] = ['CLAUDE.md', 'CLAUDE.local.md', 'AGENTS.md', 'AGENTS.local.md', '.cursorrules', '.roomodes', '.mcp.json'];
/** The same, inside a `.github/` folder at any depth. */
export const GITHUB_INSTRUCTIONS: readonly string[] = ['skills', 'instructions', 'prompts', 'agents', 'chatmodes', 'copilot-instructions.md'];

const TOLD = 'this file changes what the agent is told';

/** The list as the docs and the mode.constraints reminder say it. */
export const PROTECTED_SUMMARY = `${PROTECTED_FOLDERS.map((name) => `${name}/`).join(', ')} (at any depth), *${PROTECTED_EXTENSIONS.join(', *')} files, Aside's own storage, and what changes what the agent is told: ${INSTRUCTION_FOLDERS.map((name) => `${name}/`).join(', ')}, ${INSTRUCTION_FILES.join(', ')} (at any depth), .github/{${GITHUB_INSTRUCTIONS.join(',')}}`;

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
	const toldBy = INSTRUCTION_FOLDERS.find((name) => segments.includes(name.toLowerCase()));
	if (toldBy !== undefined) {
		return `${shown} is under ${toldBy}/ (${TOLD})`;
	}
	const name = segments.at(-1) ?? '';
	const github = segments.findIndex((segment, index) => segment === '.github' && GITHUB_INSTRUCTIONS.includes(segments[index + 1] ?? ''));
	if (INSTRUCTION_FILES.some((file) => file.toLowerCase() === name) || github !== -1) {
		return `${shown} is protected (${TOLD})`;
	}
	const extension = PROTECTED_EXTENSIONS.find((ext) => name.endsWith(ext));
	if (extension !== undefined) {
		return `${shown} is a *${extension} file, a protected path`;
	}
	return undefined;
}
