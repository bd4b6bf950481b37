// The window's core: the pieces every contribution is wired from, built in the order they need
// each other. It is not a contribution that may fail alone: without the configuration, the
// sessions and the agent there is nothing to contribute to, so a throw here fails the activation.
import { dirname, join } from 'node:path';
import type * as vscode from 'vscode';
import { Agent } from '../../agent/agent';
import { combineAttachments } from '../../agent/attachments';
import { CurrentObservers } from '../../agent/currentObservers';
import { ChatForks } from '../../agent/forks';
import type { FileSessionLibrary } from '../../agent/library';
import { rememberCurrentSession, reopenLastSession } from '../../agent/lastSession';
import { GatedModelSource, NetworkGate } from '../../agent/networkGate';
import { permissionContextOf } from '../../agent/permissions/context';
import { DirectoryPlanFiles } from '../../agent/planFiles';
import { DirectoryOutputs } from '../../tools/keptOutputs';
import type { ProviderSetup } from '../../agent/providerSetup';
import type { ChatSessions } from '../../agent/sessions';
import { ProfileOverride } from '../../agent/subagents/profileOverride';
import { systemPrompt } from '../../agent/systemPrompt';
import { type AsideApi, ContributedReminders, createApi } from '../../api';
import { systemClock } from '../../base/clock';
import type { Contribution } from '../../base/contributions';
import { whileCurrent } from '../../base/current';
import type { DisposableStore } from '../../base/lifecycle';
import type { FileCheckpointStore } from '../../checkpoints/store';
import { mentionAttachments } from '../../mentions/expand';
import type { ReminderConfig } from '../../reminders/config';
import { skillAttachments } from '../../skills/skillAttachments';
import { HeldNotices } from '../../view/heldNotices';
import { SessionProjections } from '../../view/sessionView';
import { observingActivity, TurnActivity } from '../../workspaceReminders/activity';
import { type UnregisteredFile, WorkspaceReminders } from '../../workspaceReminders/registry';
import { parseReminderFolder } from '../../workspaceReminders/reminderFolder';
import { vscodeAgentPorts } from '../agentPorts';
import { vscodeAgentProfiles, type WindowAgentProfiles } from '../agentProfiles';
import { ApiKeys } from '../apiKeys';
import { VsCodeChangeReview } from '../changeReview';
import { windowCheckpoints } from '../checkpoints';
import type { ChatViewProvider } from '../chatView';
import { Configuration } from '../configuration';
import { type LocalServerProbe, localServerProbe, vscodeProviderSetup } from '../firstRun';
import { vscodeHooks } from '../hooks';
import { editorSelection, workingTreeChanges, workspaceProblems } from '../mentionPorts';
import { VsCodeModelSource } from '../models';
import { vscodeObserverPorts } from '../observerPorts';
import { windowSessions } from '../sessionStorage';
import { contributedReminderSwitch, mentionLimitsOf } from '../settings';
import { vscodeSkills, type WindowSkills } from '../skills';
import { VsCodeToolHost, workspaceRoots } from '../toolHost';
import { workspaceTrust } from '../trust';
import { VsCodeWorkspaceReminders, workspaceReminderSwitch } from '../workspaceReminders';
import { adoptWaitingFork, VsCodeWorktreeForks } from '../worktreeFork';
import { agentFeatures, featureMentionKinds } from '../../features/features';
import { type WindowMcp, windowMcp } from '../mcp/mcpWindow';
import { type WindowProcesses, windowProcesses } from '../terminal/windowProcesses';
import { vscodeLanguageFeatures } from '../languageFeatures';

/** The chat view once its contribution has made it; until then (or if it failed) revealing does nothing. */
export class ChatViewSlot {
	provider: ChatViewProvider | undefined;

	reveal(): Promise<void> {
		return this.provider ? this.provider.reveal() : Promise.resolve();
	}
}

/** What the contributions are wired from. */
export interface AsideWindow {
	readonly context: vscode.ExtensionContext;
	readonly log: vscode.LogOutputChannel;
	readonly configuration: Configuration;
	readonly workspaceReminders: WorkspaceReminders;
	readonly workspaceReminderFiles: VsCodeWorkspaceReminders;
	/** What the first read of `.aside/reminders/` could not use (later reads report through the files' event). */
	readonly firstReminderProblems: readonly UnregisteredFile[];
	readonly agentProfiles: WindowAgentProfiles;
	readonly profiles: ProfileOverride;
	readonly skills: WindowSkills;
	/** What the host says in the chat on its own (held until a view shows it). */
	readonly notices: HeldNotices;
	readonly library: FileSessionLibrary;
	readonly sessions: ChatSessions;
	readonly sessionsDir: string;
	readonly reminderConfig: ReminderConfig;
	readonly checkpoints: FileCheckpointStore;
	/** Whether the agent keeps checkpoints (its ports have the store). */
	readonly checkpointsKept: boolean;
	readonly observers: CurrentObservers;
	readonly keys: ApiKeys;
	readonly gate: NetworkGate;
	readonly review: VsCodeChangeReview;
	readonly agent: Agent;
	readonly probe: LocalServerProbe;
	readonly setup: ProviderSetup;
	readonly projections: SessionProjections;
	readonly worktrees: VsCodeWorktreeForks;
	readonly forks: ChatForks;
	/** The MCP servers (docs/mcp.md): their tools beside the built-in ones, the chats told of them. */
	readonly mcp: WindowMcp;
	/** Run's terminals and the chats' background processes (docs/tools.md). */
	readonly processes: WindowProcesses;
	readonly api: AsideApi;
	readonly chatView: ChatViewSlot;
}

export type WindowContribution = Contribution<AsideWindow>;

/** Builds the core into `store`, with what the window's earlier sessions, forks and checkpoints left. */
export async function createWindow(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, store: DisposableStore): Promise<AsideWindow> {
	const configuration = store.add(new Configuration(log));
	const reminders = new ContributedReminders(contributedReminderSwitch(() => configuration.current));
	// The workspace's own reminders (.aside/reminders/*.md), under workspace.<key> in the same key registry.
	const activity = new TurnActivity();
	const workspaceReminders = store.add(
		new WorkspaceReminders({ keys: reminders.keys, activity, clock: systemClock, enabled: workspaceReminderSwitch(configuration) }),
	);
	const workspaceReminderFiles = store.add(
		new VsCodeWorkspaceReminders(workspaceReminders, (files) => parseReminderFolder(files, workspaceReminders.vocabulary()), log),
	);
	// Read before the sessions are made, so a reopened chat restores their deliveries from its records.
	const firstReminderProblems = workspaceReminderFiles.load();
	const agentProfiles = store.add(vscodeAgentProfiles(log));
	// The profiles the Agent tool offers and agents.listing lists: the built-ins and profile files (the test hooks may set their own).
	const profiles = store.add(new ProfileOverride(agentProfiles));
	// The skills of the workspace and the user (skills.catalog, `$name`, skills.activated).
	const skills = store.add(vscodeSkills(log));
	const notices = store.add(new HeldNotices());
	// edits.verify reads the current chat's observers and approved plan, made below once there are sessions.
	const { library, sessions, sessionsDir, reminderConfig, storageFolders } = windowSessions(context, configuration, reminders, log, {
		writes: () => observers.current?.writes,
		plans: { current: () => agent.approvedPlans.current() },
	}, profiles, { current: () => skills.current(), roots: workspaceRoots }, workspaceReminders, notices);
	store.add(sessions);
	store.add(whileCurrent(sessions, (session) => {
		workspaceReminders.sync(session.reminders.roster);
		return workspaceReminders.onDidChange(() => {
			workspaceReminders.sync(session.reminders.roster);
		});
	}));
	reopenLastSession(context.workspaceState, library, sessions, log);
	// The files' earlier content, kept before each tool write (docs/checkpoints.md).
	const checkpoints = store.add(windowCheckpoints(context, configuration, log));
	// A worktree fork another window handed to this one is its current chat, its checkpoints here.
	await adoptWaitingFork(context.globalStorageUri, sessions, checkpoints.store, log);
	store.add(rememberCurrentSession(context.workspaceState, sessions));
	// Outputs too big for the context, kept whole beside the chats for Read (keptOutputs.ts).
	const outputs = new DirectoryOutputs(join(dirname(sessionsDir), 'tool-outputs'));
	const tools = await VsCodeToolHost.create(log, outputs);
	const observers = store.add(
		new CurrentObservers(sessions, { ...store.add(vscodeObserverPorts({ configuration, fs: tools.fs, storageFolders, log })), skills }),
	);

	const keys = new ApiKeys(context.secrets, log);
	const gate = store.add(new NetworkGate(workspaceTrust, log));
	if (!gate.isOpen) {
		log.info('Restricted Mode: Aside contacts no model server until you send a message, choose a provider, or trust the workspace.');
	}
	const models = store.add(new VsCodeModelSource(configuration, context.secrets, keys, log));
	const gated = store.add(new GatedModelSource(models, gate));
	const review = store.add(new VsCodeChangeReview(log));
	const mcp = store.add(windowMcp(context, configuration, log, { models: gated, sessions }));
	const ports = vscodeAgentPorts({
		configuration, models: gated, tools, seen: () => observers.current?.seen, log, review, checkpoints: checkpoints.store, extraTools: mcp.tools,
	});
	const permissions = permissionContextOf({
		rules: () => configuration.current.permissionRules,
		trusted: () => workspaceTrust.isTrusted,
		storage: storageFolders,
		editTools: () => configuration.current.editTools,
	});
	// The person's hooks (docs/hooks.md); what goes wrong with one is said in the chat (the notices).
	const configuredHooks = vscodeHooks({
		globalState: context.globalState,
		sessionId: () => sessions.current.id,
		notify: (text) => {
			notices.add({ level: 'warning', text });
		},
		log,
	});
	// Run's terminals and each chat's background processes, their output beside the kept outputs.
	const processes = store.add(windowProcesses(configuration, outputs, sessions.onDidDelete));
	const featureServices = { mcp: mcp.servers, mcpGate: mcp.gate, processes: processes.host, languageFeatures: vscodeLanguageFeatures() };
	// What a message brings beside its text: its @-mentions (then skills), expanded at send time.
	const mentions = mentionAttachments(
		{
			fs: tools.fs,
			roots: workspaceRoots,
			records: () => sessions.current.selectedRecords,
			problems: workspaceProblems,
			selection: editorSelection,
			changes: workingTreeChanges,
			isEnabled: (type) => reminderConfig.isEnabled(type),
			kinds: featureMentionKinds(featureServices),
		},
		() => mentionLimitsOf(configuration.current),
	);
	const attachments = combineAttachments(
		log,
		mentions,
		skillAttachments({
			skills,
			roots: workspaceRoots,
			history: () => sessions.current.selectedRecords,
			given: (owner, skill) => observers.current?.skillGiven(owner, skill),
		}),
	);
	const agent = store.add(
		new Agent(
			{
				sessions,
				models: gated,
				settings: configuration,
				system: systemPrompt,
				observers: () => observingActivity(observers.current, activity),
				planFiles: new DirectoryPlanFiles(sessionsDir),
				permissions,
				profiles,
				hooks: configuredHooks,
				prompt: configuredHooks,
				attachments,
				features: agentFeatures(),
				featureServices,
			},
			ports,
		),
	);
	checkpoints.follow(agent.onDidEndTurn);
	const probe = localServerProbe();
	const setup = store.add(vscodeProviderSetup({ gate, agent, sessions, models, probe, log }));
	const projections = store.add(new SessionProjections(sessions));
	// Fork from here (docs/forks.md): the chat view offers it, the test hooks run it.
	const worktrees = new VsCodeWorktreeForks({ sessions, checkpoints: ports.checkpoints, globalStorage: context.globalStorageUri, log });
	const forks = new ChatForks({ sessions, runningTurn: (id) => agent.runningTurn(id), checkpoints: ports.checkpoints, worktrees, log });
	const api = createApi({ agent, sessions, reminders, log });
	return {
		context, log, configuration, workspaceReminders, workspaceReminderFiles, firstReminderProblems, agentProfiles, profiles, skills, notices,
		library, sessions, sessionsDir, reminderConfig, checkpoints: checkpoints.store, checkpointsKept: ports.checkpoints !== undefined, observers,
		keys, gate, review, agent, probe, setup, projections, worktrees, forks, mcp, processes, api, chatView: new ChatViewSlot(),
	};
}
