// The window's chats: stored as JSONL transcripts in the workspace's storage folder, made with
// the environment every session shares (the real clock and ids, the log, the reminder settings,
// the built-in reminders and those other extensions contributed, as of each session's making).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { FileSessionLibrary } from '../agent/library';
import type { AgentProfiles } from '../agent/subagents/profile';
import type { SessionEnvironment } from '../agent/session';
import { ChatSessions } from '../agent/sessions';
import { type VerificationSources, verificationInputs } from '../agent/verification';
import type { ContributedReminders } from '../api';
import { randomIds, systemClock } from '../base/clock';
import type { Logger } from '../base/log';
import { builtinReminders } from '../reminders/builtin/defaults';
import type { SkillCatalogSource } from '../reminders/builtin/skillsCatalog';
import type { ReminderConfig } from '../reminders/config';
import type { ReminderDefinition } from '../reminders/definition';
import type { HeldNotices } from '../view/heldNotices';
import type { Configuration } from './configuration';
import { readEnvironment } from './environment';
import { malformedInstructionsNotice, rootInstructionsReader } from './instructions';
import { reminderConfigOf } from './settings';

export interface WindowSessions {
	readonly library: FileSessionLibrary;
	readonly sessions: ChatSessions;
	readonly sessionsDir: string;
	/** What each session's reminder engine reads at its WAITs. */
	readonly reminderConfig: ReminderConfig;
	/** Aside's own storage folders (the workspace's and the global one). */
	readonly storageFolders: readonly string[];
}

/** What edits.verify reads of the current chat beside its records: its observers' writes, its approved plan. */
export type WindowVerification = Omit<VerificationSources, 'records'>;

export function windowSessions(
	context: vscode.ExtensionContext,
	configuration: Configuration,
	reminders: ContributedReminders,
	log: Logger,
	verification: WindowVerification,
	profiles: AgentProfiles,
	skills?: SkillCatalogSource,
	workspace?: { readonly current: readonly ReminderDefinition[] },
	notices?: HeldNotices,
): WindowSessions {
	const reminderConfig = reminderConfigOf(() => configuration.current);
	// Read at WAITs only, when the turn's session is the current one.
	const verify = verificationInputs({ ...verification, records: () => sessions.current.records });
	const readRootInstructions = rootInstructionsReader({
		kinds: () => configuration.current.instructionFiles,
		bound: () => ({ maxFiles: configuration.current.instructionsMaxFiles, maxTotalBytes: configuration.current.instructionsMaxTotalBytes }),
		malformed: malformedInstructionsNotice(log),
		log,
		tell: (text) => notices?.add({ level: 'warning', text }),
	});
	const env: SessionEnvironment = {
		clock: systemClock,
		ids: randomIds,
		log,
		reminderConfig,
		reminderDefaults: () => [
			...builtinReminders(systemClock, readRootInstructions, verify, profiles, readEnvironment, skills),
			...reminders.current,
			...(workspace?.current ?? []),
		],
		reminderKeys: reminders.keys,
	};
	const storage = context.storageUri ?? context.globalStorageUri;
	const sessionsDir = join(storage.fsPath, 'sessions');
	mkdirSync(sessionsDir, { recursive: true });
	const library = new FileSessionLibrary(sessionsDir, () => systemClock.now(), log);
	const sessions = new ChatSessions(library, env);
	return { library, sessions, sessionsDir, reminderConfig, storageFolders: [storage.fsPath, context.globalStorageUri.fsPath] };
}
