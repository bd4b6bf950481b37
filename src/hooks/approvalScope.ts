// What the approval of a workspace's hooks covers besides the text of `.aside/hooks.json`: the
// workspace files its commands name (a script changed after it was allowed asks again) and the
// clone it lives in (the same file in another clone at the same path asks again).
import { createHash } from 'node:crypto';
import { lstat, readFile, stat } from 'node:fs/promises';
import * as nodePath from 'node:path';

/** Words a shell splits on outside quotes: blanks and its operators. */
const SEPARATORS = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
/** Bounds the files one command can name (each is a stat and a read). */
const MAX_WORDS = 64;

/** A command line's words as a shell would see them, quotes removed; separators end a word. */
export function commandWords(command: string): string[] {
	const words: string[] = [];
	let word = '';
	let started = false;
	let quote: '"' | "'" | undefined;
	const end = () => {
		if (started) {
			words.push(word);
		}
		word = '';
		started = false;
	};
	for (let index = 0; index < command.length; index++) {
		const char = command[index] as string;
		if (quote !== undefined) {
			if (char === quote) {
				quote = undefined;
			} else if (char === '\\' && quote === '"' && index + 1 < command.length) {
				word += command[++index] ?? '';
			} else {
				word += char;
			}
		} else if (char === '"' || char === "'") {
			quote = char;
			started = true;
		} else if (char === '\\' && index + 1 < command.length) {
			word += command[++index] ?? '';
			started = true;
		} else if (SEPARATORS.has(char)) {
			end();
		} else {
			word += char;
			started = true;
		}
	}
	end();
	return words;
}

/**
 * The files inside `folder` that `command` names: each word (and the value of a `--flag=value`
 * word) with `$CLAUDE_PROJECT_DIR` / `$ASIDE_PROJECT_DIR` taken as the folder, relative ones
 * from the folder (the hook's working folder). Whether each is a file is for the caller to see.
 */
export function scriptPaths(command: string, folder: string): string[] {
	const root = nodePath.resolve(folder);
	const paths = new Set<string>();
	for (const raw of commandWords(command).slice(0, MAX_WORDS)) {
		const word = raw.replace(/\$\{?(?:CLAUDE|ASIDE)_PROJECT_DIR\}?/g, root);
		const equals = word.indexOf('=');
		for (const candidate of equals > 0 ? [word, word.slice(equals + 1)] : [word]) {
			if (candidate === '' || candidate.startsWith('-') || candidate.startsWith('~') || candidate.includes('$')) {
				continue;
			}
			const path = nodePath.resolve(root, candidate);
			const relative = nodePath.relative(root, path);
			if (relative !== '' && !relative.startsWith('..') && !nodePath.isAbsolute(relative)) {
				paths.add(path);
			}
		}
	}
	return [...paths];
}

/** A SHA-256 of the file's bytes; undefined when it is not a file (absent, a folder). */
export async function fileFingerprint(path: string): Promise<string | undefined> {
	try {
		if (!(await stat(path)).isFile()) {
			return undefined;
		}
		return createHash('sha256').update(await readFile(path)).digest('hex');
	} catch {
		return undefined;
	}
}

/**
 * Which clone a folder is: the file-system identity (device, inode, birth time) of the folder and
 * of its `.git`. A fresh clone at the same path is a new folder or a new `.git`, so it differs,
 * while edits, commits and checkouts inside it change neither. (Git's first commit would not do:
 * every clone of one repository, a hostile fork's included, shares it.)
 */
export async function folderIdentity(folder: string): Promise<string> {
	const identity = async (path: string) => {
		try {
			const found = await lstat(path, { bigint: true });
			return `${found.dev}:${found.ino}:${found.birthtimeNs}`;
		} catch {
			return 'none';
		}
	};
	return `${await identity(folder)} ${await identity(nodePath.join(folder, '.git'))}`;
}
