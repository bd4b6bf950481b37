// `session.environment`: the operating system, the default shell and the workspace folders, kept
// out of the system prompt (which stays byte-identical for every chat) as a changing prompt
// observation (observations.ts): in full at the first request of a chat, again at a turn start
// after a folder was added or removed (or the shell changed), and again after a compaction
// dropped its delivery.
import { sanitizeUntrusted } from '../envelope';
import { rosterDefinition } from '../declaration';
import type { ReminderDefinition } from '../definition';
import { SESSION_ENVIRONMENT } from './catalog/session';
import { observation } from './observations';

/** The environment as it is now. */
export interface EnvironmentFacts {
	/** `process.platform`: linux, darwin, win32, … */
	readonly platform: string;
	/** `process.arch`. */
	readonly arch: string;
	/** The kernel's release (`os.release()`). */
	readonly release: string;
	/** The editor's default shell for terminals, when it knows one. */
	readonly shell: string | undefined;
	/** The workspace folders, absolute; relative paths start at the first. */
	readonly folders: readonly string[];
}

/** Reads the environment now (cheap: it runs at turn starts). */
export type EnvironmentReader = () => EnvironmentFacts;

/** The section the model is told: every outside string (paths, the shell) quoted neutralised. */
export function environmentBody(facts: EnvironmentFacts): string {
	const folders =
		facts.folders.length === 0
			? '- Workspace folders: none, no folder is open (the tools work only inside workspace folders).'
			: `- Workspace folders (relative paths start at the first):\n${facts.folders.map((folder) => `  - ${sanitizeUntrusted(folder)}`).join('\n')}`;
	const shell = facts.shell?.trim() ? sanitizeUntrusted(facts.shell.trim()) : 'not known';
	return [
		'The environment you work in:',
		`- Operating system: ${sanitizeUntrusted(facts.platform)} ${sanitizeUntrusted(facts.release)} (${sanitizeUntrusted(facts.arch)})`,
		`- The user's default shell: ${shell} (their terminals'; Run uses the system shell, sh or cmd.exe on Windows)`,
		folders,
	].join('\n');
}

export function sessionEnvironment(read: EnvironmentReader): ReminderDefinition {
	return observation(
		rosterDefinition(SESSION_ENVIRONMENT, {
			scope: 'all',
			trigger: () => true,
			content: () => environmentBody(read()),
		}),
	);
}
