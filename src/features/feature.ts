// A chat feature: something with per-chat state, records, reminders, a control or card in the
// view, and commands, declared once in its own folder (src/features/<id>/) and registered once in
// the feature list (features.ts). The agent takes its `agent` side (src/agent/chatFeature.ts: the
// per-chat state and the hooks the turn asks); the view connection takes its `view` part
// (src/view/featureView.ts: its `<id>.*` messages, its snapshot messages, its slash commands).
import type { Event } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import type { ApprovedPlans } from '../agent/approvedPlan';
import type { AgentFeature, ChatFeatures, FeatureServices } from '../agent/chatFeature';
import type { ChatSession } from '../agent/session';
import type { FeatureRecordKind } from '../transcript/recordKinds';
import type { ReminderDeclaration } from '../reminders/declaration';
import type { FeatureViewPart } from '../view/featureView';
import type { WorkbenchActions } from '../view/controls';
import type { Logger } from '../base/log';
import type { MentionKind } from '../mentions/kinds';

export type { FeatureServices };

/** What a feature's view part is made from, in a window. */
export interface FeatureWindow {
	readonly sessions: { readonly current: ChatSession; readonly onDidChangeCurrent: Event<ChatSession> };
	/** Each chat's feature states (the agent's). */
	readonly features: ChatFeatures;
	/** The current chat's approved plan. */
	readonly approvedPlans: ApprovedPlans;
	/** The agent's state changed. */
	readonly onDidChange: Event<unknown>;
	/** The workbench around the view. */
	readonly workbench: WorkbenchActions;
	readonly services: FeatureServices;
	readonly log: Logger;
}

export interface ChatFeature {
	/** Unique: its folder, the prefix of its protocol messages. */
	readonly id: string;
	/** Its record kinds, with their traits: registered with the transcript by the feature list. */
	readonly records?: readonly FeatureRecordKind[];
	/** Its reminder types: registered with the key registry (and so the settings) by the feature list. */
	readonly reminders?: readonly ReminderDeclaration[];
	/** Its kinds of `@`-mention (`@mcp:server/uri`): parsed, expanded and offered in the composer beside the built-in ones. */
	readonly mentions?: readonly MentionKind<FeatureServices>[];
	readonly agent?: AgentFeature;
	view?(window: FeatureWindow): FeatureViewPart & IDisposable;
}
