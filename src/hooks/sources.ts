// Which hooks may run now. In an untrusted workspace (Restricted Mode) none: not even the user's
// own, which would run with the untrusted folder as cwd and CLAUDE_PROJECT_DIR (and so run its
// scripts). In a trusted one the user's own (`aside.hooks` from user settings — never a
// workspace's value) always may; a workspace folder's `.aside/hooks.json` only once the person
// allowed that file as it is: the answer is kept per file and a hash of its text, the workspace
// scripts its commands name and the clone (approvalScope.ts), so a change to any asks again.
// Each problem (a malformed setting or file) is said once per change, naming where; it loses
// nothing else.
import { createHash } from 'node:crypto';
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import { scriptPaths } from './approvalScope';
import { type HookGroup, type HookOrigin, parseHooks, parseHooksFile } from './config';

/** The file of a workspace folder that holds its hooks. */
export const WORKSPACE_HOOKS_FILE = '.aside/hooks.json';

/** What the person said about one workspace hooks file, as it was. */
export type Consent = 'allowed' | 'refused';

export interface HookSourcePorts {
	/** `aside.hooks` as the user settings hold it (undefined: not set). */
	readonly userValue: () => unknown;
	readonly folders: () => readonly string[];
	readonly trusted: () => boolean;
	/** The file's text; undefined when it does not exist. */
	readonly readFile: (path: string) => Promise<string | undefined>;
	/** Kept across windows and restarts (globalState): file path → { hash, consent }. */
	readonly memory: {
		get(): Readonly<Record<string, { readonly hash: string; readonly consent: Consent }>>;
		set(value: Record<string, { readonly hash: string; readonly consent: Consent }>): Promise<void>;
	};
	/** A SHA-256 of a file's bytes; undefined when it is no file (approvalScope.ts). */
	readonly fingerprint: (path: string) => Promise<string | undefined>;
	/** Which clone a workspace folder is (approvalScope.ts). */
	readonly identity: (folder: string) => Promise<string>;
	/** Asks whether the file's hooks may run, naming the file, its commands and the workspace scripts they run (a modal). */
	readonly ask: (file: string, commands: readonly string[], scripts: readonly string[]) => Promise<boolean>;
	/** Says a problem in the chat. */
	readonly notify: (text: string) => void;
	readonly log: Logger;
}

function hooksFileOf(folder: string): string {
	return `${folder.replace(/[\\/]+$/, '')}/${WORKSPACE_HOOKS_FILE}`;
}

export function contentHash(text: string): string {
	return createHash('sha256').update(text).digest('hex');
}

/** How the person's own hooks are named in the chat. */
const USER_HOOKS_WHERE = 'the setting aside.hooks';

export class HookSources {
	/** Problems already said, so each is said once until it changes. */
	private said = new Set<string>();
	/** One question per file and content at a time, however many calls wait for it. */
	private readonly asking = new Map<string, Promise<boolean>>();

	constructor(private readonly ports: HookSourcePorts) {}

	/** The hooks that may run now, user hooks first. */
	async groups(): Promise<readonly HookGroup[]> {
		const { ports } = this;
		if (!ports.trusted()) {
			// The workspace's hooks files are named by the Restricted Mode notice with everything else
			// the workspace provides; only the person's own hooks need saying here.
			const own = (await this.skippedByTrust()).filter((where) => where === USER_HOOKS_WHERE);
			this.say(own.length === 0 ? [] : [`No hook runs in an untrusted workspace (Restricted Mode), not even your own (${USER_HOOKS_WHERE}). Trust the workspace to run them.`], '');
			return [];
		}
		const problems: string[] = [];
		const user = parseHooks(ports.userValue(), { kind: 'user', where: USER_HOOKS_WHERE });
		problems.push(...user.problems);
		const groups: HookGroup[] = [...user.groups];
		for (const folder of ports.folders()) {
			const file = hooksFileOf(folder);
			let text: string | undefined;
			try {
				text = await ports.readFile(file);
			} catch (error) {
				problems.push(`${file}: could not be read (${errorMessage(error)}); none of its hooks run.`);
				continue;
			}
			if (text === undefined) {
				continue;
			}
			const origin: HookOrigin = { kind: 'workspace', where: file, folder };
			const parsed = parseHooksFile(text, origin);
			problems.push(...parsed.problems);
			if (parsed.groups.length === 0) {
				continue;
			}
			if (await this.allowed(file, folder, text, parsed.groups)) {
				groups.push(...parsed.groups);
			}
		}
		this.say(problems);
		return groups;
	}

	/** Where hooks are configured that do not run because the workspace is untrusted (empty when trusted): what the Restricted Mode notice names. */
	async skippedByTrust(): Promise<readonly string[]> {
		const { ports } = this;
		if (ports.trusted()) {
			return [];
		}
		const skipped: string[] = [];
		const user: HookOrigin = { kind: 'user', where: USER_HOOKS_WHERE };
		if (parseHooks(ports.userValue(), user).groups.length > 0) {
			skipped.push(user.where);
		}
		for (const folder of ports.folders()) {
			const file = hooksFileOf(folder);
			// A file that cannot be read is not named: nothing is known to be skipped.
			if ((await ports.readFile(file).catch(() => undefined)) !== undefined) {
				skipped.push(file);
			}
		}
		return skipped;
	}

	/** The approval is kept per file and this hash: the file's text, the clone it is in, and each workspace script its commands name. */
	private async scope(folder: string, text: string, groups: readonly HookGroup[]): Promise<{ readonly hash: string; readonly scripts: readonly string[] }> {
		const { ports } = this;
		const paths = [...new Set(groups.flatMap((group) => group.hooks.flatMap((hook) => scriptPaths(hook.command, folder))))].sort();
		const prints = await Promise.all(paths.map((path) => ports.fingerprint(path).catch(() => undefined)));
		const clone = await ports.identity(folder).catch(() => 'unknown');
		const lines = [contentHash(text), `clone ${clone}`, ...paths.map((path, index) => `${path} ${prints[index] ?? 'no file'}`)];
		return { hash: contentHash(lines.join('\n')), scripts: paths.filter((_, index) => prints[index] !== undefined) };
	}

	private async allowed(file: string, folder: string, text: string, groups: readonly HookGroup[]): Promise<boolean> {
		const { ports } = this;
		const { hash, scripts } = await this.scope(folder, text, groups);
		const known = ports.memory.get()[file];
		if (known?.hash === hash) {
			return known.consent === 'allowed';
		}
		const key = `${file}\u0000${hash}`;
		let question = this.asking.get(key);
		if (!question) {
			const commands = [...new Set(groups.flatMap((group) => group.hooks.map((hook) => `${group.event}${group.matcher ? ` (${group.matcher})` : ''}: ${hook.command}`)))];
			question = ports.ask(file, commands, scripts).then(async (yes) => {
				await ports.memory.set({ ...ports.memory.get(), [file]: { hash, consent: yes ? 'allowed' : 'refused' } });
				ports.log.info(`Aside: the hooks of ${file} were ${yes ? 'allowed' : 'refused'} as the file and its scripts are now, in this clone.`);
				return yes;
			});
			this.asking.set(key, question);
			void question.finally(() => this.asking.delete(key)).catch(() => undefined);
		}
		try {
			return await question;
		} catch (error) {
			ports.log.error(`Aside: could not ask about the hooks of ${file}: ${errorMessage(error)}`);
			return false;
		}
	}

	private say(problems: readonly string[], lead = 'Some hooks are not used: '): void {
		const now = new Set(problems);
		const fresh = problems.filter((problem) => !this.said.has(problem));
		this.said = now;
		if (fresh.length === 0) {
			return;
		}
		for (const problem of fresh) {
			this.ports.log.warn(`Aside: hooks: ${problem}`);
		}
		this.ports.notify(`${lead}${fresh.join(' ')}`);
	}
}
