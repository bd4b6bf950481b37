// Host state for the integration tests, exported beside the public API only when the extension
// host runs with ASIDE_TEST_HOOKS=1 (the harness sets it); never part of the public API.
import type { Agent } from '../agent/agent';
import type { ChildState } from '../agent/agentState';
import type { AgentProfile } from '../agent/subagents/profile';
import type { ProfileOverride } from '../agent/subagents/profileOverride';
import type { CurrentObservers } from '../agent/currentObservers';
import type { NetworkGate } from '../agent/networkGate';
import type { ProfileProblem } from '../agent/subagents/profile';
import type { ProfileLibrary } from '../agent/subagents/profileLibrary';
import type { ChatSessions } from '../agent/sessions';
import type { Event } from '../base/event';
import type { FileCheckpointStore } from '../checkpoints/store';
import type { CheckpointEntry } from '../checkpoints/types';
import type { AgentStatus, TranscriptItem } from '../protocol/messages';
import type { ReminderConfig } from '../reminders/config';
import type { AgentRecord } from '../transcript/records';
import type { RestoreRequest } from '../vocabulary/restore';
import { restoreOf } from '../features/features';
import { agentStatus } from '../view/agentView';
import type { SessionProjections } from '../view/sessionView';
import type { ApiKeys, KeyedProvider } from './apiKeys';
import type { VsCodeChangeReview } from './changeReview';
import type { Configuration } from './configuration';
import { contributedReminderSwitch, type SettingProblem } from './settings';
import type { SkillProblem } from '../skills/skill';
import type { WorkspaceReminders } from '../workspaceReminders/registry';
import type { SkillLibrary } from '../skills/skillLibrary';
import type { WorktreeChoice } from '../agent/forks/worktreeFork';
import type { McpTestHooks } from './mcp/mcpTestHooks';

export interface AsideTestHooks {
	/** The window's MCP servers (src/vscode/mcp/mcpTestHooks.ts). */
	readonly mcp?: McpTestHooks;
	readonly currentSessionItems: () => readonly TranscriptItem[];
	readonly currentSessionId: () => string;
	readonly onDidAppend: Event<readonly TranscriptItem[]>;
	/** The reminder configuration the engine reads at every WAIT. */
	readonly reminderConfig: ReminderConfig;
	readonly settingProblems: () => readonly SettingProblem[];
	/** Whether a contributed reminder's wire key is on in `aside.reminders.contributed`, as the engine reads it. */
	readonly contributedReminderOn: (key: string) => boolean;
	readonly sessionsDir: string;
	readonly agentBusy: () => boolean;
	readonly stop: () => void;
	readonly approve: (callId: string, granted: boolean, note?: string) => void;
	readonly pendingApproval: () => string | undefined;
	/** Stores an API key for one origin as Aside: Set API Key would (the command asks through quick picks). */
	readonly storeApiKey: (provider: KeyedProvider, origin: string, key: string | undefined) => Promise<void>;
	/** Whether Aside may contact model servers yet (Restricted Mode closes it until the person acts). */
	readonly networkAllowed: () => boolean;
	/** What the chat says about whether anything can answer. */
	readonly agentStatus: () => AgentStatus;
	/** Files the agent saw that changed and were not reported yet. */
	readonly pendingEditedFiles: () => number;
	/** The context window the agent uses now (what the context meter shows), if known. */
	readonly contextWindow: () => number | undefined;
	/** The current chat's permission mode (what the toolbar shows). */
	readonly permissionMode: () => string;
	/** The change set under review in the diff editor: its call, and each proposed side's document (as the person edits it). */
	readonly openReview: () => VsCodeChangeReview['openReview'];
	/** The agent profiles on offer now (names), and the problems of the profile files. */
	readonly agentProfiles: () => { readonly names: readonly string[]; readonly problems: readonly ProfileProblem[] };
	/** Reads the profile folders again now, as a watcher's change would after its delay. */
	readonly reloadAgentProfiles: () => void;
	/** The sub-agent whose call the approval card shows (its owner path), if a child asks. */
	readonly pendingApprovalAgent: () => string | undefined;
	/** The sub-agents running now: owner path, profile, description. */
	readonly runningAgents: () => readonly Pick<ChildState, 'path' | 'profile' | 'description'>[];
	/** Offers these agent profiles instead of the product's (undefined: the product's again). */
	readonly setAgentProfiles: (profiles: readonly AgentProfile[] | undefined) => void;
	/** Appends records to the current chat (stored, then shown), as a turn writes them: the view's tests of child agents and tasks. */
	readonly appendRecords: (records: readonly AgentRecord[]) => void;
	/** The skills on offer now (names), and the problems of the skill files. */
	readonly skills: () => { readonly names: readonly string[]; readonly problems: readonly SkillProblem[] };
	/** The workspace reminders in use now (wire keys), and why the other files are not used. */
	readonly workspaceReminders: () => { readonly keys: readonly string[]; readonly problems: readonly string[] };
	/** Reads the workspace's `.aside/reminders/` again now, as a file event would (the untrusted window's test: not at all). */
	readonly reloadWorkspaceReminders: () => void;
	/** The checkpoint store's folder, a chat's kept entries, and a kept text (undefined: not kept). */
	readonly checkpoints: () => {
		readonly dir: string;
		entries(sessionId: string): Promise<readonly CheckpointEntry[]>;
		text(hash: string): Promise<string | undefined>;
	} | undefined;
	/** Fork from here on the root message `from` (`worktree` false: here); resolves with why not. */
	readonly fork: (from: string, worktree?: boolean) => Promise<string | undefined>;
	/** A worktree fork without its dialogs, opened in this window (the handoff written and taken back here, as the new window would). */
	readonly forkInWorktree: (from: string, choice: WorktreeChoice) => Promise<string | undefined>;
	/** Whether the agent keeps checkpoints here (the store is wired). */
	readonly checkpointsKept: () => boolean;
	/** Restore… as the preview's Restore does it: the preview of `scope` to before message `to`, then applied; what the preview listed, or why not. */
	readonly restore: (to: string, scope: RestoreRequest, overwriteChanged?: boolean) => Promise<{
		readonly ok: boolean;
		readonly id?: string;
		readonly message?: string;
		readonly tracked?: boolean;
		readonly files?: readonly { readonly shown: string; readonly action: string; readonly done?: boolean }[];
	}>;
}

export interface HookedState {
	readonly sessions: ChatSessions;
	readonly sessionsDir: string;
	readonly projections: SessionProjections;
	readonly agent: Agent;
	readonly observers: CurrentObservers;
	readonly configuration: Configuration;
	readonly reminderConfig: ReminderConfig;
	readonly keys: ApiKeys;
	readonly gate: NetworkGate;
	readonly review: VsCodeChangeReview;
	readonly agentProfiles: ProfileLibrary;
	readonly profiles: ProfileOverride;
	readonly skills?: SkillLibrary;
	readonly workspaceReminders?: WorkspaceReminders;
	readonly workspaceReminderFiles?: { load(): unknown };
	readonly checkpoints?: FileCheckpointStore;
	readonly forks?: {
		fork(from: string, worktree?: boolean): Promise<string | undefined>;
		inWorktree(from: string, choice: WorktreeChoice): Promise<string | undefined>;
	};
	readonly checkpointsKept?: boolean;
}

/** The hooks when the environment asks for them (ASIDE_TEST_HOOKS=1), else none. */
export function testHooks(env: NodeJS.ProcessEnv, state: HookedState): AsideTestHooks | undefined {
	if (env.ASIDE_TEST_HOOKS !== '1') {
		return undefined;
	}
	const { sessions, projections, agent, observers, configuration, keys, gate } = state;
	return {
		currentSessionItems: () => projections.current.items,
		currentSessionId: () => sessions.current.id,
		// Follows whichever session is current.
		onDidAppend: projections.onDidAppend,
		reminderConfig: state.reminderConfig,
		settingProblems: () => configuration.problems,
		contributedReminderOn: contributedReminderSwitch(() => configuration.current),
		sessionsDir: state.sessionsDir,
		agentBusy: () => agent.isRunning,
		stop: () => {
			agent.stop();
		},
		approve: (callId, granted, note) => {
			agent.approve(callId, granted, note);
		},
		pendingApproval: () => agent.state.approval?.callId,
		pendingEditedFiles: () => observers.current?.pendingCount ?? 0,
		contextWindow: () => agent.state.contextWindow,
		permissionMode: () => agent.state.mode,
		openReview: () => state.review.openReview,
		storeApiKey: async (provider, origin, key) => {
			await (key === undefined ? keys.delete(provider, origin) : keys.store(provider, origin, key));
		},
		networkAllowed: () => gate.isOpen,
		agentStatus: () => agentStatus(agent.state),
		agentProfiles: () => ({ names: state.agentProfiles.current().map((profile) => profile.name), problems: state.agentProfiles.problems() }),
		reloadAgentProfiles: () => {
			state.agentProfiles.reload();
		},
		pendingApprovalAgent: () => agent.state.approval?.agent,
		runningAgents: () => (agent.state.children ?? []).map(({ path, profile, description }) => ({ path, profile, description })),
		setAgentProfiles: (profiles) => {
			state.profiles.set(profiles);
		},
		appendRecords: (records) => {
			for (const record of records) {
				sessions.current.append(record);
			}
		},
		skills: () => ({ names: state.skills?.current().map((skill) => skill.name) ?? [], problems: state.skills?.problems() ?? [] }),
		workspaceReminders: () => ({
			keys: state.workspaceReminders?.current.map((definition) => definition.key) ?? [],
			problems: state.workspaceReminders?.problems.map((problem) => problem.message) ?? [],
		}),
		reloadWorkspaceReminders: () => {
			state.workspaceReminderFiles?.load();
		},
		checkpoints: () => {
			const store = state.checkpoints;
			return (
				store && {
					dir: store.dir,
					// As a restore reads them: once the new texts of the last writes are kept.
					entries: async (sessionId) => {
						await store.settled();
						return store.chat(sessionId).entries();
					},
					text: async (hash) => {
						await store.settled();
						return store.blobs.get(hash);
					},
				}
			);
		},
		fork: (from, worktree) => state.forks?.fork(from, worktree) ?? Promise.resolve('no forks here'),
		forkInWorktree: (from, choice) => state.forks?.inWorktree(from, choice) ?? Promise.resolve('no forks here'),
		checkpointsKept: () => state.checkpointsKept ?? false,
		restore: async (to, scope, overwriteChanged = false) => {
			const restore = restoreOf(agent, state.sessions.current);
			const preview = await restore.preview(to, scope);
			if (!preview.ok) {
				return preview;
			}
			const applied = await restore.apply(preview.value, overwriteChanged);
			// Applied, each file as the restore left it (one that turned out outside at apply time says so); refused, as planned.
			return applied.ok
				? {
					ok: true,
					id: applied.value.id,
					tracked: preview.value.tracked,
					files: applied.value.files.map(({ shown, action, done }) => ({ shown, action, done })),
				}
				: {
					ok: false,
					message: applied.message,
					tracked: preview.value.tracked,
					files: preview.value.plan.files.map(({ shown, action }) => ({ shown, action })),
				};
		},
	};
}
