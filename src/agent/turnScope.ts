// What makes a turn loop this one, as the loop and its parts see it (turn.ts, sample.ts, the tool
// calls, compaction, sub-agents): its scope, settings, transcript, updates and outcome, and what
// it knows of sub-agents (the Agent tool it may offer and who runs its calls; the root turn's is
// made by the agent, a child's by its parent's; a loop without one offers no Agent tool). Types
// only, so every part of the loop stands on it rather than on the loop.
import type { ReminderEngine } from '../reminders/engine';
import type { CheckpointRecorder } from '../checkpoints/types';
import type { CompactionCause, TurnOutcomeKind } from '../vocabulary/outcomes';
import type { AgentRecord } from '../transcript/records';
import type { PermissionGate } from './approvals';
import type { ToolHooks } from '../hooks/toolHooks';
import type { MessageAttachments } from './attachments';
import type { TurnObservers } from './observers';
import type { PermissionMode } from '../vocabulary/permissionModes';
import type { PermissionContext } from './permissions/policy';
import type { ResolvedModel } from './ports';
import type { FeatureAccess } from '../tools/featureAccess';
import type { TurnPromptHooks } from './turnHooks';
import type { ToolSpec } from '../providers/provider';
import type { ToolResult } from '../tools/tool';
import type { ToolCall } from './response';
import type { CallProgress } from './toolProgress';

/** A loop's transcript as it sees it: what is recorded, and where new records go. */
export interface TurnTranscript {
	readonly records: readonly AgentRecord[];
	/** Writes the record (to disk first) and adds it to `records`. Throws when it cannot be written. */
	append(record: AgentRecord): void;
}

/** The limits and the mode of a loop, read at every step. */
export interface TurnSettings {
	readonly maxOutputTokens: number;
	readonly maxSteps: number;
	readonly permissionMode: PermissionMode;
	/** The model's context window in tokens, when known (for the context-use reminder). */
	readonly contextWindow?: number;
	/** Present while automatic compaction is on (`aside.context.*`): its threshold and the warning's, as shares of the window. */
	readonly autoCompact?: { readonly at: number; readonly warnAt: number };
}

export type TurnUpdate =
	/** The loop has its model (resolved after the user message was recorded). */
	| { readonly type: 'resolved'; readonly model: ResolvedModel }
	| { readonly type: 'status'; readonly status: 'preparing' | 'waiting' | 'streaming' | 'running-tool' | 'asking'; readonly detail?: string }
	| { readonly type: 'retrying'; readonly attempt: number; readonly delayMs: number; readonly reason: string }
	/** The model writes a compaction's summary (src/agent/compaction/). */
	| { readonly type: 'compacting'; readonly cause: CompactionCause }
	| { readonly type: 'text'; readonly requestId: string; readonly text: string }
	/** A running call's progress for its live row (throttled; `null`: the call finished). Never recorded. */
	| { readonly type: 'tool-progress'; readonly callId: string; readonly progress: CallProgress | null };

/** What makes a loop this one, beside its ports: the engine and transcript it works on, who decides its calls, its prompt and limits. */
export interface TurnScope {
	readonly engine: ReminderEngine;
	readonly transcript: TurnTranscript;
	readonly permissions: PermissionGate;
	/** What the permission policy reads besides the mode: the rules, workspace trust, Aside's storage (none, trusted, when absent). */
	readonly permissionPolicy?: () => PermissionContext;
	/** The limits and mode for a step with `model`. */
	readonly settings: (model: ResolvedModel) => TurnSettings;
	readonly system: () => string;
	/** What the editor tells the engine around tool calls and WAITs (edited files, AGENTS.md). */
	readonly observers?: TurnObservers;
	readonly onUpdate?: (update: TurnUpdate) => void;
	/** Sub-agents: the Agent tool this loop may offer and who runs its calls; none, no Agent tool. */
	readonly agents?: LoopAgents;
	/** What the chat features hand the tools of the loop of an owner path (`root`, or a child's): its calls get it in their context. */
	readonly toolAccess?: (ownerPath: string) => FeatureAccess;
	/** What the user's message brings (mentions, skills): staged on the turn's first request, and on each attempt of it. */
	readonly attachments?: MessageAttachments;
	/** The person's PreToolUse / PostToolUse hooks (docs/hooks.md); none, no hooks run. */
	readonly hooks?: ToolHooks;
	/** The chat's SessionStart / UserPromptSubmit / Stop hooks and its pending hook context (turnHooks.ts); none for a sub-agent. */
	readonly prompt?: TurnPromptHooks;
	/** Keeps what this loop's write calls change: the root turn's recorder (a sub-agent's writes count to its root turn); none, nothing kept. */
	readonly checkpoint?: CheckpointRecorder;
	/** The chat features, asked after each step's tool calls (chatFeature.ts): true stops the loop there, sending no further request. Root only. */
	readonly stopAfterStep?: (turnId: string) => boolean;
	/** The chat's approved plan file, if any: its tools may read and edit it (callContext.ts). */
	readonly planFile?: () => string | undefined;
	/** After this loop's conversation was compacted (the root's: plan.reference is re-armed when the chat has an approved plan). */
	readonly onCompacted?: () => void;
}

export interface TurnOutcome {
	readonly turnId: string;
	readonly outcome: TurnOutcomeKind;
	readonly error?: string;
	/** A UserPromptSubmit hook blocked the message: nothing was recorded or sent; the text as typed and the hook's reason (the view offers the text back). */
	readonly blocked?: { readonly text: string; readonly reason: string };
}

/** The loop that calls Agent, as the child it spawns inherits from it. */
export interface ParentLoop {
	/** Its scope: a child asks the person through its gate, in its mode, with its observers. */
	readonly scope: TurnScope;
	/** The loop's own turn id (a child's records carry its own). */
	readonly turnId: string;
	/** The model the loop uses: a child uses it, or its profile's model of the same provider. */
	readonly model: ResolvedModel;
}

export interface LoopAgents {
	/** The Agent tool's spec when the loop may spawn now (there are profiles, the depth allows); else undefined. */
	spec(): ToolSpec | undefined;
	/** How many Agent calls of one answer run at the same time (aside.agents.maxConcurrent). */
	maxConcurrent(): number;
	/** Runs one Agent call's child to its end; its result is the child's answer. Never throws. */
	run(call: ToolCall, parent: ParentLoop, signal: AbortSignal): Promise<ToolResult>;
}
