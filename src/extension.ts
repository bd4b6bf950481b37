// Aside's entry point: composes the VS Code adapters (src/vscode/) and the pure core, and returns
// the public API (src/api.ts), with the test hooks when the integration tests ask for them.
import * as vscode from 'vscode';
import { Agent } from './agent/agent';
import { deleteChat } from './agent/chatDeletion';
import { DirectoryPlanFiles } from './agent/planFiles';
import { CurrentObservers } from './agent/currentObservers';
import { rememberCurrentSession, reopenLastSession } from './agent/lastSession';
import { GatedModelSource, NetworkGate } from './agent/networkGate';
import { RestrictedModeNotices } from './agent/restrictedMode';
import { combineAttachments } from './agent/attachments';
import { permissionContextOf } from './agent/permissions/context';
import type { ProfileProblem } from './agent/subagents/profile';
import { problemsNotice } from './agent/subagents/profileLibrary';
import { ProfileOverride } from './agent/subagents/profileOverride';
import { systemPrompt } from './agent/systemPrompt';
import type { SkillProblem } from './skills/skill';
import { skillAttachments } from './skills/skillAttachments';
import { skillProblemsNotice } from './skills/skillLibrary';
import { HeldNotices } from './view/heldNotices';
import { type AsideApi, ContributedReminders, createApi } from './api';
import { DisposableStore } from './base/lifecycle';
import { mentionAttachments } from './mentions/expand';
import { editorSelection, workingTreeChanges, workspaceMentionCandidates, workspaceProblems } from './vscode/mentionPorts';
import { vscodeAgentPorts } from './vscode/agentPorts';
import { vscodeAgentProfiles } from './vscode/agentProfiles';
import { ApiKeys } from './vscode/apiKeys';
import { VsCodeChangeReview } from './vscode/changeReview';
import { windowCheckpoints } from './vscode/checkpoints';
import { CHAT_VIEW_ID, ChatViewProvider } from './vscode/chatView';
import { ChatForks } from './agent/forks';
import { adoptWaitingFork, VsCodeWorktreeForks } from './vscode/worktreeFork';
import { registerCommands } from './vscode/commands';
import { registerReadmeCommand } from './vscode/readme';
import { Configuration } from './vscode/configuration';
import { localServerProbe, vscodeProviderSetup } from './vscode/firstRun';
import { vscodeHooks } from './vscode/hooks';
import { userInstructionsShown } from './vscode/instructions';
import { VsCodeModelSource } from './vscode/models';
import { vscodeSkills } from './vscode/skills';
import { vscodeObserverPorts } from './vscode/observerPorts';
import { ReminderLanguage } from './vscode/reminderLanguage';
import { windowSessions } from './vscode/sessionStorage';
import { contributedReminderSwitch, mentionLimitsOf } from './vscode/settings';
import { vscodeUserRules } from './vscode/userRules';
import { type AsideTestHooks, testHooks } from './vscode/testHooks';
import { VsCodeToolHost, workspaceRoots } from './vscode/toolHost';
import { workspaceTrust } from './vscode/trust';
import { VsCodeWorkspaceReminders, workspaceReminderSwitch } from './vscode/workspaceReminders';
import { observingActivity, TurnActivity } from './workspaceReminders/activity';
import { type UnregisteredFile, WorkspaceReminders } from './workspaceReminders/registry';
import { parseReminderFolder } from './workspaceReminders/reminderFolder';
import { systemClock } from './base/clock';
import { whileCurrent } from './base/current';
import { AgentPresenter } from './view/agentView';
import { agentFeatures, featureViewParts } from './features/features';
import { SessionProjections } from './view/sessionView';
import { SetupPresenter } from './view/setupView';

export type AsideExports = AsideApi & Partial<AsideTestHooks>;

export async function activate(context: vscode.ExtensionContext): Promise<AsideExports> {
	const log = vscode.window.createOutputChannel('Aside', { log: true });
	context.subscriptions.push(log);
	const version = (context.extension.packageJSON as { version?: string }).version ?? 'unknown';
	log.info(`Aside ${version} activating (VS Code ${vscode.version}).`);
	const store = new DisposableStore();
	context.subscriptions.push(store);

	const configuration = store.add(new Configuration(log));
	const reminders = new ContributedReminders(contributedReminderSwitch(() => configuration.current));
	// The workspace's own reminders (.aside/reminders/*.md), under workspace.<key> in the same key registry.
	const activity = new TurnActivity();
	const workspaceReminders = store.add(new WorkspaceReminders({ keys: reminders.keys, activity, clock: systemClock, enabled: workspaceReminderSwitch(configuration) }));
	const workspaceReminderFiles = store.add(new VsCodeWorkspaceReminders(workspaceReminders, (files) => parseReminderFolder(files, workspaceReminders.vocabulary()), log));
	// Read before the sessions are made, so a reopened chat restores their deliveries from its records.
	const firstReminderProblems = workspaceReminderFiles.load();
	const agentProfiles = store.add(vscodeAgentProfiles(log));
	// The profiles the Agent tool offers and agents.listing lists: the built-ins and profile files (the test hooks may set their own).
	const profiles = store.add(new ProfileOverride(agentProfiles));
	// The skills of the workspace and the user (skills.catalog, `$name`, skills.activated).
	const skills = store.add(vscodeSkills(log));
	// What the host says in the chat on its own (held until a view shows it).
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
	const tools = await VsCodeToolHost.create(log);
	const observers = store.add(new CurrentObservers(sessions, { ...store.add(vscodeObserverPorts({ configuration, fs: tools.fs, storageFolders, log })), skills }));

	const keys = new ApiKeys(context.secrets, log);
	const gate = store.add(new NetworkGate(workspaceTrust, log));
	if (!gate.isOpen) {
		log.info('Restricted Mode: Aside contacts no model server until you send a message, choose a provider, or trust the workspace.');
	}
	const models = store.add(new VsCodeModelSource(configuration, context.secrets, keys, log));
	const gated = store.add(new GatedModelSource(models, gate));
	const review = store.add(new VsCodeChangeReview(log));
	const ports = vscodeAgentPorts({ configuration, models: gated, tools, seen: () => observers.current?.seen, log, review, checkpoints: checkpoints.store });
	const permissions = permissionContextOf({ rules: () => configuration.current.permissionRules, trusted: () => workspaceTrust.isTrusted, storage: storageFolders, editTools: () => configuration.current.editTools });
	// The person's hooks (docs/hooks.md); what goes wrong with one is said in the chat (the notices below).
	const configuredHooks = vscodeHooks({
		globalState: context.globalState,
		sessionId: () => sessions.current.id,
		notify: (text) => {
			notices.add({ level: 'warning', text });
		},
		log,
	});
	// What a message brings beside its text: its @-mentions (then skills), expanded at send time.
	const mentions = mentionAttachments({ fs: tools.fs, roots: workspaceRoots, records: () => sessions.current.selectedRecords, problems: workspaceProblems, selection: editorSelection, changes: workingTreeChanges, isEnabled: (type) => reminderConfig.isEnabled(type) }, () => mentionLimitsOf(configuration.current));
	const attachments = combineAttachments(log, mentions, skillAttachments({ skills, roots: workspaceRoots, history: () => sessions.current.selectedRecords, given: (owner, skill) => observers.current?.skillGiven(owner, skill) }));
	const agent = store.add(new Agent({ sessions, models: gated, settings: configuration, system: systemPrompt, observers: () => observingActivity(observers.current, activity), planFiles: new DirectoryPlanFiles(sessionsDir), permissions, profiles, hooks: configuredHooks, prompt: configuredHooks, attachments, features: agentFeatures() }, ports));
	checkpoints.follow(agent.onDidEndTurn);
	store.add(new RestrictedModeNotices({ sessions, trusted: () => workspaceTrust.isTrusted, folders: workspaceRoots, userFiles: userInstructionsShown(configuration, reminderConfig), onDidEndTurn: agent.onDidEndTurn, notify: (text, chat) => { notices.add({ level: 'info', text, action: 'trust.manage', sessionId: chat }); } }));
	// The diff editor's title-bar Accept / Reject decide as the card does (without a note).
	store.add(review.onDidDecide(({ callId, granted }) => {
		agent.approve(callId, granted, undefined);
	}));
	const probe = localServerProbe();
	const setup = store.add(vscodeProviderSetup({ gate, agent, sessions, models, probe, log }));

	const projections = store.add(new SessionProjections(sessions));
	// The editor of .aside/reminders/*.md: its language server starts at the first such file opened.
	store.add(new ReminderLanguage({ extensionUri: context.extensionUri, vocabulary: () => workspaceReminders.vocabulary(), chats: projections, mode: () => sessions.current.mode ?? configuration.current.permissionMode, log }));
	// A profile file that could not be used is said in the log (by the library) and in the chat, once per change.
	const profileProblems = (problems: readonly ProfileProblem[]): void => {
		if (problems.length > 0) {
			notices.add({ level: problems.some((problem) => problem.severity === 'error') ? 'error' : 'warning', text: problemsNotice(problems) });
		}
	};
	profileProblems(agentProfiles.problems());
	store.add(agentProfiles.onDidReportProblems(profileProblems));
	const skillProblems = (problems: readonly SkillProblem[]): void => {
		if (problems.length > 0) {
			notices.add({ level: problems.some((problem) => problem.severity === 'error') ? 'error' : 'warning', text: skillProblemsNotice(problems) });
		}
	};
	skillProblems(skills.problems());
	store.add(skills.onDidReportProblems(skillProblems));
	const reminderFileProblems = (problems: readonly UnregisteredFile[]): void => {
		if (problems.length > 0) {
			notices.add({ level: 'warning', text: `Workspace reminders: ${problems.map((problem) => problem.message).join(' ')}` });
		}
	};
	reminderFileProblems(firstReminderProblems);
	store.add(workspaceReminderFiles.onDidReportProblems(reminderFileProblems));
	const features = featureViewParts({ sessions, features: agent.features, approvedPlans: agent.approvedPlans, onDidChange: agent.onDidChange }).map((part) => store.add(part));
	// Issue 18, slice C: Fork from here (docs/forks.md).
	const worktrees = new VsCodeWorktreeForks({ sessions, checkpoints: ports.checkpoints, globalStorage: context.globalStorageUri, log });
	const forks = new ChatForks({ sessions, runningTurn: (id) => agent.runningTurn(id), checkpoints: ports.checkpoints, worktrees, log });
	const chatView = store.add(new ChatViewProvider(context.extensionUri, { sessions, projections, settings: configuration.view, agent: new AgentPresenter(agent), setup: new SetupPresenter(setup), features, notices, forks, userRules: vscodeUserRules, deleteChat: (id) => deleteChat(id, { sessions, running: () => agent.isRunning, checkpoints: checkpoints.store, log }), mentionCandidates: workspaceMentionCandidates, skillCandidates: () => skills.current().map(({ name, description }) => ({ name, description })), log }));
	store.add(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, chatView));
	const api = createApi({ agent, sessions, reminders, log });
	const current = () => ({ provider: configuration.current.provider, baseUrl: configuration.current.baseUrl });
	store.add(registerCommands({ sessions, library, agent, api, chatView, log, gate, providers: { keys, detect: () => probe.detect(), ports: probe.ports, current, log } }));
	store.add(registerReadmeCommand(context.extensionUri));

	const hooks = testHooks(process.env, { forks: { fork: (from, worktree) => forks.fork(from, worktree), inWorktree: (from, choice) => worktrees.make(from, agent.runningTurn(sessions.current.id), choice, 'here') }, checkpointsKept: ports.checkpoints !== undefined, sessions, sessionsDir, projections, agent, observers, configuration, reminderConfig, keys, gate, review, agentProfiles, profiles, skills, workspaceReminders, workspaceReminderFiles, checkpoints: checkpoints.store });
	return hooks ? { ...api, ...hooks } : api;
}

export function deactivate(): void {
	// Everything is disposed through context.subscriptions.
}
