// Tool outputs too big for the model's context, kept whole in a folder of the window's storage so
// the model can read the rest with Read (an MCP tool's long result). The folder is Aside's: Read
// opens a file directly in it by its absolute path, and nothing else does — Edit and Write never
// reach it, and a name that is not one Aside wrote (a symbolic link, a sub-folder, `..`) is not
// in it. The folder is bounded: files older than two weeks go, and past the total the oldest go.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import * as nodePath from 'node:path';

/** What one kept file holds at most; Read opens files up to 50 MB. */
export const KEPT_OUTPUT_MAX_BYTES = 50 * 1024 * 1024;
/** What the folder holds at most, all files together. */
export const KEPT_OUTPUTS_MAX_TOTAL_BYTES = 256 * 1024 * 1024;
/** How long a kept file stays. */
export const KEPT_OUTPUTS_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

/** A kept file's name: the tool's stem, the time and a random part, `.txt`. */
const KEPT_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.txt$/;

/** Where a path really is (links followed): the workspace file system's `realPath` (tool.ts), said here so tool.ts may name this file. */
export interface RealPaths {
	realPath(path: string): Promise<string | undefined>;
}

export interface KeptOutput {
	/** The file's absolute path, as the model gives it to Read. */
	readonly path: string;
	/** The output's whole size. */
	readonly bytes: number;
	/** Whether the output was longer than a kept file holds, and its end was left out. */
	readonly cut: boolean;
	/** What the file holds. */
	readonly keptBytes: number;
}

export interface KeptOutputs {
	/** Keeps `text` (an output of the tool `stem` names) in a new file of the folder. */
	keep(stem: string, text: string): Promise<KeptOutput>;
	/** The kept file `input` names, absolute and real; undefined when it is not one. */
	resolve(input: string, fs: RealPaths): Promise<string | undefined>;
	/** A new file's path in the folder, for output written as it comes (a background process's); the writer creates it. */
	place(stem: string): string;
}

/** A file name part from a tool's name: what a file name may hold, at most 60 characters. */
function stemOf(name: string): string {
	const stem = name.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+/, '').slice(0, 60);
	return stem === '' ? 'output' : stem;
}

export class DirectoryOutputs implements KeptOutputs {
	private pruned: Promise<void> | undefined;

	constructor(
		readonly dir: string,
		private readonly now: () => number = Date.now,
		private readonly limits = { maxBytes: KEPT_OUTPUT_MAX_BYTES, maxTotalBytes: KEPT_OUTPUTS_MAX_TOTAL_BYTES, maxAgeMs: KEPT_OUTPUTS_MAX_AGE_MS },
	) {}

	async keep(stem: string, text: string): Promise<KeptOutput> {
		// Once per window, before the first file: what earlier windows kept past the bounds goes.
		this.pruned ??= this.prune().catch(() => undefined);
		await this.pruned;
		const whole = Buffer.from(text, 'utf8');
		const cut = whole.length > this.limits.maxBytes;
		const kept = cut ? whole.subarray(0, this.limits.maxBytes) : whole;
		const path = this.place(stem);
		await mkdir(this.dir, { recursive: true });
		await writeFile(path, kept, { flag: 'wx' });
		await this.prune(nodePath.basename(path));
		return { path, bytes: whole.length, cut, keptBytes: kept.length };
	}

	place(stem: string): string {
		return nodePath.join(this.dir, `${stemOf(stem)}-${new Date(this.now()).toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.txt`);
	}

	async resolve(input: string, fs: RealPaths): Promise<string | undefined> {
		if (input.includes('\0') || !nodePath.isAbsolute(input)) {
			return undefined;
		}
		const candidate = nodePath.resolve(input);
		if (nodePath.dirname(candidate) !== nodePath.resolve(this.dir) || !KEPT_NAME.test(nodePath.basename(candidate))) {
			return undefined;
		}
		// Not a symbolic link, and the folder is where it says: the real path is the path itself.
		const [real, folder] = await Promise.all([fs.realPath(candidate), fs.realPath(this.dir)]);
		return real !== undefined && folder !== undefined && real === nodePath.join(folder, nodePath.basename(candidate)) ? real : undefined;
	}

	/** Removes the files past the age, then the oldest past the total; `keep` names one just written. */
	private async prune(keep?: string): Promise<void> {
		const names = await readdir(this.dir).catch(() => [] as string[]);
		const files = (
			await Promise.all(names.filter((name) => KEPT_NAME.test(name)).map(async (name) => {
				const info = await stat(nodePath.join(this.dir, name)).catch(() => undefined);
				return info?.isFile() === true ? { name, bytes: info.size, at: info.mtimeMs } : undefined;
			}))
		).filter((file) => file !== undefined);
		// The file just written first, then the newest: the oldest go past the total.
		files.sort((a, b) => Number(b.name === keep) - Number(a.name === keep) || b.at - a.at);
		let total = 0;
		const gone: string[] = [];
		for (const file of files) {
			if (file.name !== keep && (this.now() - file.at > this.limits.maxAgeMs || total + file.bytes > this.limits.maxTotalBytes)) {
				gone.push(file.name);
			} else {
				total += file.bytes;
			}
		}
		await Promise.all(gone.map((name) => rm(nodePath.join(this.dir, name), { force: true })));
	}
}
