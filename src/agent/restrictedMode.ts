// Restricted Mode, the one rule (docs/permissions.md#restricted-mode): in a workspace the person
// has not trusted, nothing the workspace provides is loaded as instructions, skills, agent
// profiles, reminders or hooks, and no hook runs; the person's own files still apply. Each chat
// says once what was not loaded, and offers to trust the workspace.
import { existsSync } from 'node:fs';
import * as nodePath from 'node:path';
import type { HasCurrent } from '../base/current';
import type { Event } from '../base/event';
import { Disposable } from '../base/lifecycle';

/** What a workspace folder can provide, by what it is, as paths relative to the folder. */
export const WORKSPACE_PROVIDED: readonly { readonly what: string; readonly paths: readonly string[] }[] = [
	{ what: 'instruction files', paths: ['AGENTS.md', 'AGENTS.local.md', 'CLAUDE.md', 'CLAUDE.local.md', '.github/copilot-instructions.md', '.github/instructions', '.clinerules', '.cursorrules', '.cursor/rules', '.roo/rules'] },
	{ what: 'skills', paths: ['.aside/skills', '.claude/skills', '.github/skills'] },
	{ what: 'agent profiles', paths: ['.aside/agents', '.claude/agents'] },
	{ what: 'reminders', paths: ['.aside/reminders'] },
	{ what: 'hooks', paths: ['.aside/hooks.json'] },
];

/** The person's own folders, outside every workspace: loaded in Restricted Mode too. */
const USER_FOLDERS = ['~/.aside/skills', '~/.aside/agents', '~/.claude/agents'];

/** "a, b and c". */
function listed(items: readonly string[]): string {
	return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

/** What of WORKSPACE_PROVIDED exists in `folders`, by what it is (shown paths, `/`). */
export function providedBy(
	folders: readonly string[],
	exists: (path: string) => boolean = existsSync,
): { readonly what: string; readonly shown: readonly string[] }[] {
	return WORKSPACE_PROVIDED.map(({ what, paths }) => ({
		what,
		shown: folders.flatMap((folder) => paths.filter((path) => exists(nodePath.join(folder, path))).map((path) => (folders.length > 1 ? `${nodePath.basename(folder)}/${path}` : path))),
	})).filter(({ shown }) => shown.length > 0);
}

/**
 * The chat's sentence; undefined when the workspace provides nothing Aside would load.
 * `userFiles`: the person's own instruction files Aside reads (`~/.claude/CLAUDE.md`), named first.
 */
export function restrictedNotice(provided: ReturnType<typeof providedBy>, userFiles: readonly string[] = []): string | undefined {
	if (provided.length === 0) {
		return undefined;
	}
	const withheld = provided.map(({ what, shown }) => `${what} (${shown.join(', ')})`).join('; ');
	return `Restricted Mode: this workspace is not trusted, so Aside did not load what it provides — ${withheld} — and runs no hooks. Your own ${listed([...userFiles, ...USER_FOLDERS])} still apply. Trust the workspace to load them.`;
}

export interface RestrictedModeHost {
	readonly sessions: HasCurrent<{ readonly id: string }>;
	readonly trusted: () => boolean;
	readonly folders: () => readonly string[];
	/** Says `text` in the chat, with a button to trust the workspace. */
	readonly notify: (text: string, chat: string) => void;
	readonly exists?: (path: string) => boolean;
	/** The person's own instruction files Aside reads now, as shown (`~/.claude/CLAUDE.md`). */
	readonly userFiles?: () => readonly string[];
	/** After each turn: a chat that was empty when it became current (files written since) is told then. */
	readonly onDidEndTurn?: Event<unknown>;
}

/** Tells each chat, the first time it is current in an untrusted window, what was not loaded. */
export class RestrictedModeNotices extends Disposable {
	private readonly told = new Set<string>();

	constructor(private readonly host: RestrictedModeHost) {
		super();
		this.tell(host.sessions.current.id);
		this._register(host.sessions.onDidChangeCurrent((session) => {
			this.tell(session.id);
		}));
		if (host.onDidEndTurn) {
			this._register(host.onDidEndTurn(() => {
				this.tell(host.sessions.current.id);
			}));
		}
	}

	private tell(chat: string): void {
		if (this.host.trusted() || this.told.has(chat)) {
			return;
		}
		const text = restrictedNotice(providedBy(this.host.folders(), this.host.exists), this.host.userFiles?.());
		// Only a chat that was told counts: files that appear later are told at the next chat.
		if (text !== undefined) {
			this.told.add(chat);
			this.host.notify(text, chat);
		}
	}
}
