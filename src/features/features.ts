// The feature list: every chat feature, one line each. The agent's feature states, the view's
// feature parts and their slash commands, and the kinds of `@`-mention are composed from it;
// nothing below src/features/ imports a feature.
import type { AgentFeature } from '../agent/chatFeature';
import type { IDisposable } from '../base/lifecycle';
import type { FeatureViewPart } from '../view/featureView';
import { registerRecordKinds } from '../transcript/records';
import { registerReminderTypes } from '../reminders/keys';
import { registerMentionKinds, type WindowMentionKind, windowMentionKinds } from '../mentions/kinds';
import type { ChatFeature, FeatureServices, FeatureWindow } from './feature';
import { COMPACTION } from './compaction/feature';
import { FORK } from './fork/feature';
import { GOAL } from './goal/feature';
import { LSP } from './lsp/feature';
import { IMAGES } from './images/feature';
import { MCP } from './mcp/feature';
import { MODE } from './mode/feature';
import { PLAN } from './plan/feature';
import { PROCESSES } from './processes/feature';
import { QUESTIONS } from './questions/feature';
import { RESTORE } from './restore/feature';
import { TASKS } from './tasks/feature';

export const CHAT_FEATURES: readonly ChatFeature[] = [
	COMPACTION,
	GOAL,
	TASKS,
	RESTORE,
	PLAN,
	MODE,
	FORK,
	MCP,
	PROCESSES,
	QUESTIONS,
	LSP,
	IMAGES,
];

// What the window's commands and test hooks reach of a feature, one line each.
export { compactionOf } from './compaction/feature';
export { restoreOf } from './restore/feature';
export { planDecisionOf } from './plan/feature';
export type { McpServerControl } from './mcp/serverList';

// The transcript holds the features' record kinds, and the key registry their reminder types, from
// the moment the list is loaded (before any chat is read or any setting is); the mention parser their
// kinds of `@`-mention.
registerRecordKinds(CHAT_FEATURES.flatMap((feature) => feature.records ?? []));
registerReminderTypes(CHAT_FEATURES.flatMap((feature) => feature.reminders ?? []));
registerMentionKinds(CHAT_FEATURES.flatMap((feature) => feature.mentions ?? []));

/** The agent's side of each feature that keeps per-chat state. */
export function agentFeatures(features: readonly ChatFeature[] = CHAT_FEATURES): AgentFeature[] {
	return features.flatMap((feature) => (feature.agent ? [feature.agent] : []));
}

/** Each feature's view part in a window. */
export function featureViewParts(window: FeatureWindow, features: readonly ChatFeature[] = CHAT_FEATURES): (FeatureViewPart & IDisposable)[] {
	return features.flatMap((feature) => (feature.view ? [feature.view(window)] : []));
}

/** The features' kinds of `@`-mention in a window, over what it hands the features. */
export function featureMentionKinds(services: FeatureServices, features: readonly ChatFeature[] = CHAT_FEATURES): WindowMentionKind[] {
	return windowMentionKinds(features.flatMap((feature) => feature.mentions ?? []), services);
}
