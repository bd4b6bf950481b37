// A TextSearch backed by ripgrep (the binary VS Code ships), reading its --json output.
import { spawn } from 'node:child_process';
import { access, constants, stat } from 'node:fs/promises';
import * as nodePath from 'node:path';
import type { TextSearch, TextSearchMatch, TextSearchResult } from './tool';
import { SEARCH_MAX_FILE_BYTES, SKIPPED_FOLDERS, skippedFoldersFor } from './walk';

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

/**
 * The path in one line of ripgrep's stderr about a file it could not read
 * (`rg: /w/secret.txt: Permission denied (os error 13)`), or undefined for any other line.
 */
export function parseRipgrepError(line: string): { readonly path: string } | undefined {
	const match = /^(?:rg: )?(.+): [^:]+ \(os error \d+\)$/.exec(line.trim());
	return match?.[1] === undefined ? undefined : { path: match[1] };
}

type SearchOptions = Parameters<TextSearch['search']>[1];

interface RunOutcome {
	readonly matches: readonly TextSearchMatch[];
	readonly truncated: boolean;
	readonly unreadable: readonly string[];
	readonly unreadableCount: number;
}

/** How many unreadable paths a result names. */
const NAMED_SKIPS = 3;

export class RipgrepTextSearch implements TextSearch {
	constructor(private readonly rgPath: string) {}

	async search(pattern: string, options: SearchOptions): Promise<TextSearchResult> {
		const matches: TextSearchMatch[] = [];
		const unreadable: string[] = [];
		let unreadableCount = 0;
		let truncated = false;
		for (const root of options.roots) {
			if (options.signal.aborted) {
				break;
			}
			// One run per folder, from inside it: ripgrep matches a glob with `/` against the path
			// relative to its working directory.
			const cwd = (await stat(root).catch(() => undefined))?.isDirectory() === true ? root : nodePath.dirname(root);
			const found = await this.searchOne(pattern, root, cwd, { ...options, maxResults: options.maxResults - matches.length });
			matches.push(...found.matches);
			unreadable.push(...found.unreadable.slice(0, NAMED_SKIPS - unreadable.length));
			unreadableCount += found.unreadableCount;
			if (found.truncated) {
				truncated = true;
				break;
			}
		}
		// ripgrep says nothing of the binary files and those over --max-filesize it skips; it
		// does report the files it could not read.
		return {
			matches,
			truncated,
			...(unreadableCount > 0 ? { skipped: { unreadable: { count: unreadableCount, paths: unreadable } } } : {}),
			...(options.signal.aborted ? { cutShort: { reason: 'cancelled' as const } } : {}),
		};
	}

	private searchOne(pattern: string, root: string, cwd: string, options: SearchOptions): Promise<RunOutcome> {
		const { glob, caseSensitive, maxResults, signal } = options;
		const args = ['--json', '--no-config', '--hidden', '--max-filesize', `${SEARCH_MAX_FILE_BYTES / (1024 * 1024)}M`, '--engine', 'auto', caseSensitive ? '--case-sensitive' : '--ignore-case'];
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
			const unreadable: string[] = [];
			let unreadableCount = 0;
			let truncated = false;
			let stopped = false;
			let pending = '';
			let pendingError = '';
			// What ripgrep said besides unreadable files, for the message when it fails.
			let otherErrors = '';
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
			const readError = (line: string) => {
				const problem = parseRipgrepError(line);
				if (problem) {
					unreadableCount++;
					if (unreadable.length < NAMED_SKIPS) {
						unreadable.push(problem.path);
					}
				} else if (line.trim() !== '') {
					otherErrors = `${otherErrors}${line}\n`.slice(0, 4000);
				}
			};
			child.stderr.setEncoding('utf8');
			child.stderr.on('data', (chunk: string) => {
				const lines = (pendingError + chunk).split('\n');
				pendingError = lines.pop() ?? '';
				lines.forEach(readError);
			});
			child.on('error', (error) => {
				signal.removeEventListener('abort', stop);
				reject(error);
			});
			child.on('close', (code) => {
				signal.removeEventListener('abort', stop);
				readError(pendingError);
				// 0: matches, 1: none, 2: an error — fatal only when nothing was found and ripgrep
				// said more than which files it could not read.
				if (code === 2 && matches.length === 0 && !stopped && otherErrors !== '') {
					reject(new Error(`ripgrep: ${otherErrors.trim()}`));
					return;
				}
				resolve({ matches, truncated, unreadable, unreadableCount });
			});
		});
	}
}
