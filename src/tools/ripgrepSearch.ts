// A TextSearch backed by ripgrep (the binary VS Code ships), reading its --json output.
import { spawn } from 'node:child_process';
import { access, constants, stat } from 'node:fs/promises';
import * as nodePath from 'node:path';
import type { TextSearch, TextSearchMatch } from './tool';
import { SKIPPED_FOLDERS, skippedFoldersFor } from './walk';

/** Where VS Code keeps ripgrep under its app root, newest layout first. */
export function ripgrepCandidates(appRoot: string, platform: string = process.platform, arch: string = process.arch): string[] {
	const binary = platform === 'win32' ? 'rg.exe' : 'rg';
	const candidates: string[] = [];
	for (const modules of ['node_modules.asar.unpacked', 'node_modules']) {
		candidates.push(nodePath.join(appRoot, modules, '@vscode', 'ripgrep-universal', 'bin', `${platform}-${arch}`, binary));
		candidates.push(nodePath.join(appRoot, modules, '@vscode', 'ripgrep', 'bin', binary));
	}
	return candidates;
}

/** The first ripgrep binary that exists and can be run, or undefined. */
export async function findRipgrep(appRoot: string): Promise<string | undefined> {
	for (const candidate of ripgrepCandidates(appRoot)) {
		try {
			await access(candidate, constants.X_OK);
			return candidate;
		} catch {
			// Try the next layout.
		}
	}
	return undefined;
}

interface RipgrepText {
	readonly text?: string;
	readonly bytes?: string;
}

function textOf(value: RipgrepText | undefined): string | undefined {
	if (value?.text !== undefined) {
		return value.text;
	}
	return value?.bytes === undefined ? undefined : Buffer.from(value.bytes, 'base64').toString('utf8');
}

/** One line of `rg --json` as a match, or undefined for the other message types. */
export function parseRipgrepLine(line: string): TextSearchMatch | undefined {
	let message: unknown;
	try {
		message = JSON.parse(line);
	} catch {
		return undefined;
	}
	if (typeof message !== 'object' || message === null || (message as { type?: unknown }).type !== 'match') {
		return undefined;
	}
	const data = (message as { data?: { path?: RipgrepText; lines?: RipgrepText; line_number?: unknown } }).data;
	const path = textOf(data?.path);
	const text = textOf(data?.lines);
	const lineNumber = data?.line_number;
	if (path === undefined || text === undefined || typeof lineNumber !== 'number') {
		return undefined;
	}
	return { path, line: lineNumber, text: text.replace(/\r?\n$/, '') };
}

type SearchOptions = Parameters<TextSearch['search']>[1];
type SearchResult = Awaited<ReturnType<TextSearch['search']>>;

export class RipgrepTextSearch implements TextSearch {
	constructor(private readonly rgPath: string) {}

	async search(pattern: string, options: SearchOptions): Promise<SearchResult> {
		const matches: TextSearchMatch[] = [];
		for (const root of options.roots) {
			if (options.signal.aborted) {
				break;
			}
			// One run per folder, from inside it: ripgrep matches a glob with `/` against the path
			// relative to its working directory.
			const cwd = (await stat(root).catch(() => undefined))?.isDirectory() === true ? root : nodePath.dirname(root);
			const found = await this.searchOne(pattern, root, cwd, { ...options, maxResults: options.maxResults - matches.length });
			matches.push(...found.matches);
			if (found.truncated) {
				return { matches, truncated: true };
			}
		}
		return { matches, truncated: false };
	}

	private searchOne(pattern: string, root: string, cwd: string, options: SearchOptions): Promise<SearchResult> {
		const { glob, caseSensitive, maxResults, signal } = options;
		const args = ['--json', '--no-config', '--hidden', '--max-filesize', '50M', '--engine', 'auto', caseSensitive ? '--case-sensitive' : '--ignore-case'];
		// Skipped even when .gitignore does not list them, like the Node search and Glob do.
		for (const folder of skippedFoldersFor(glob)) {
			args.push('--glob', `!${folder}`);
		}
		if (glob !== undefined) {
			args.push('--glob', glob);
			if (SKIPPED_FOLDERS.some((folder) => glob.includes(folder))) {
				// A glob into node_modules means it; .gitignore would otherwise prune the folder.
				args.push('--no-ignore');
			}
		}
		args.push('--regexp', pattern, '--', root);
		return new Promise((resolve, reject) => {
			const matches: TextSearchMatch[] = [];
			let truncated = false;
			let stopped = false;
			let pending = '';
			let stderr = '';
			const child = spawn(this.rgPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
			const stop = () => {
				stopped = true;
				child.kill();
			};
			signal.addEventListener('abort', stop, { once: true });
			child.stdout.setEncoding('utf8');
			child.stdout.on('data', (chunk: string) => {
				if (stopped) {
					return;
				}
				const lines = (pending + chunk).split('\n');
				pending = lines.pop() ?? '';
				for (const line of lines) {
					const match = parseRipgrepLine(line);
					if (match === undefined) {
						continue;
					}
					if (matches.length >= maxResults) {
						truncated = true;
						stop();
						return;
					}
					matches.push(match);
				}
			});
			child.stderr.setEncoding('utf8');
			child.stderr.on('data', (chunk: string) => {
				stderr = (stderr + chunk).slice(0, 4000);
			});
			child.on('error', (error) => {
				signal.removeEventListener('abort', stop);
				reject(error);
			});
			child.on('close', (code) => {
				signal.removeEventListener('abort', stop);
				// 0: matches, 1: none, 2: an error — fatal only when nothing was found (an
				// unreadable file among many also gives 2).
				if (code === 2 && matches.length === 0 && !stopped) {
					reject(new Error(`ripgrep: ${stderr.trim() || 'exited with code 2'}`));
					return;
				}
				resolve({ matches, truncated });
			});
		});
	}
}
