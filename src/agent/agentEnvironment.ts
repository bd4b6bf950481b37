// What the agent of a window works on and with, beside its ports (ports.ts): the chats, the models,
// the settings, and what the editor provides (observers, permissions, plan files, profiles, hooks,
// the chat features).
import type { Event } from '../base/event';
import type { PromptHooks, ToolHooks } from '../hooks/toolHooks';
import type { AgentSettings } from './agentSettings';
import type { MessageAttachments } from './attachments';
import type { AgentFeature, FeatureServices } from './chatFeature';
import type { TurnObservers } from './observers';
import type { PermissionContext } from './permissions/policy';
import type { PlanFiles } from './plans';
import type { ModelSource } from './ports';
import type { ChatSessions } from './sessions';
import type { AgentProfiles } from './subagents/profile';

/** What the agent works on and with, beside its ports. */
export interface AgentEnvironment {
	readonly sessions: ChatSessions;
	/** Where models come from: the catalogue, the person's choice, what is known of windows. */
	readonly models: ModelSource;
	/** The settings now (read at every step), and when they change. */
	readonly settings: { readonly current: AgentSettings; readonly onDidChange: Event<unknown> };
	/** The root turn's system prompt. */
	readonly system: () => string;
	/** The current session's observers (edited files, AGENTS.md), when the editor provides them. */
	readonly observers?: () => TurnObservers | undefined;
	/** What the permission policy reads besides the mode (rules, trust, Aside's storage); no rules, trusted, when absent. */
	readonly permissions?: () => PermissionContext;
	/** Where approved plans are saved; without it an approval is refused with a message. */
	readonly planFiles?: PlanFiles;
	/** The agent profiles the Agent tool may run; without it (or with none) the tool is not offered. */
	readonly profiles?: AgentProfiles;
	/** What a root message brings besides its text (mentions, skills), prepared at send time. */
	readonly attachments?: MessageAttachments;
	/** The person's tool hooks (PreToolUse, PostToolUse), for the root's calls and its sub-agents'. */
	readonly hooks?: ToolHooks;
	/** The person's SessionStart / UserPromptSubmit / Stop hooks, for root messages (each chat's: chatWork.ts). */
	readonly prompt?: PromptHooks;
	/** The chat features (src/features/features.ts): each chat's state of each, opened with the chat. */
	readonly features?: readonly AgentFeature[];
	/** What the window hands the features' agent sides (src/agent/chatFeature.ts). */
	readonly featureServices?: FeatureServices;
}
