// What the agent says of itself (Agent.state): what it is doing, the call waiting for the
// person, the stream, steering, the mode and the models, in domain terms. src/view/agentView.ts
// turns it into what the chat shows.
import type { ModelInfo } from '../providers/provider';
import type { PermissionMode } from '../vocabulary/permissionModes';
import type { PermissionRequest } from './approvals';
import type { PendingPlan } from './plans';
import type { CallProgress } from './toolProgress';

/** What a running turn is doing now. */
export type TurnActivity =
	| { readonly kind: 'choosing-model' | 'preparing' | 'waiting' | 'streaming' | 'stopping' }
	/** The model writes the summary of a compaction (`cause`: what started it). */
	| { readonly kind: 'compacting'; readonly cause: 'manual' | 'auto' | 'overflow' }
	/** `tool`: the tool's name, when the turn said it. */
	| { readonly kind: 'running-tool' | 'asking'; readonly tool?: string }
	/** The provider did not take the request; it is sent again after `delayMs`. */
	| { readonly kind: 'retrying'; readonly attempt: number; readonly delayMs: number; readonly reason: string };

/** A response streaming now: its text so far, not yet recorded. */
export interface Streaming {
	readonly requestId: string;
	readonly text: string;
}

/** A child agent invocation running now (the Agent tool), as the view shows it inside its parent's turn. */
export interface ChildState {
	/** Its owner path, `root/explore#2`: also the `agent` of its records and the owner of its injection records. */
	readonly path: string;
	readonly profile: string;
	readonly description: string;
	readonly activity: TurnActivity;
	/** Its response streaming now (the view shows it inside the expanded child); text arrives as the root's does. */
	readonly streaming: Streaming | null;
}

/** The agent as it is now, in its own terms (src/view/agentView.ts says it to the person). */
export interface AgentState {
	/** What the running turn is doing; undefined while no turn runs. */
	readonly activity: TurnActivity | undefined;
	/** Why nothing can answer (as the model source said it); undefined when something can. */
	readonly problem: string | undefined;
	readonly provider: string;
	/** The configured model id; '' lets the provider choose. */
	readonly model: string;
	readonly models: readonly ModelInfo[];
	readonly mode: PermissionMode;
	/** The tool call waiting for the person's verdict. */
	readonly approval: PermissionRequest | null;
	readonly streaming: Streaming | null;
	/** Messages typed while the agent works, waiting for its next step. */
	readonly steering: readonly string[];
	/** The context window of the model a turn would use now, in tokens, when known. */
	readonly contextWindow: number | undefined;
	/** The proposed plan waiting for the person's decision (the plan card), with the mode offered first for its implementation. */
	readonly plan?: (PendingPlan & { readonly mode: PermissionMode }) | null;
	/** The child invocations running now, in the order they started (empty while none runs). */
	readonly children?: readonly ChildState[];
	/** The root turn's running calls that report progress (live only, never recorded). */
	readonly toolProgress?: readonly CallProgress[];
}
