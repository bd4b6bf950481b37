// The ports the agent is built from. A turn loop takes three — the tool box, the model dispatch
// and the runtime (clock, ids, log) — plus what makes it this loop and not another (its scope:
// owner, transcript, engine; turn.ts). The root turn and an agent invocation's loop take the same
// ports. The model source feeds the agent's model state (the picker, the window) and the
// dispatch. Implementations: src/vscode/agentPorts.ts and src/vscode/models.ts in VS Code,
// src/testing/agentPorts.ts in tests (docs/architecture.md has the table).
import type { Clock, IdSource } from '../base/clock';
import type { Event } from '../base/event';
import type { Logger } from '../base/log';
import type { ChatProvider, ChatRequest, ModelInfo, ProviderError, StreamEvent, ToolSpec } from '../providers/provider';
import type { Preparation } from '../tools/registry';
import type { Tool, ToolContext, ToolResult } from '../tools/tool';
import type { CheckpointStore } from '../checkpoints/types';
import type { ChangeReview } from './changeReview';
import type { PermissionMode } from '../vocabulary/permissionModes';

/** Time, ids and the log, so every part of the agent is deterministic under test. */
export interface Runtime {
	readonly clock: Clock;
	readonly ids: IdSource;
	readonly log: Logger;
}

/** The tools a loop may call, and the one way to call them. */
export interface ToolBox {
	/** The tools on offer in `mode` (workspace trust applied). */
	offered(mode: PermissionMode): readonly Tool[];
	/** What the model is told of them. */
	specs(tools: readonly Tool[]): ToolSpec[];
	/** Before asking the person: validates the input and builds what they confirm; never throws. */
	prepare(tool: Tool, input: unknown, context: ToolContext): Promise<Preparation>;
	/** Validates the input and runs the call; never throws. */
	invoke(tool: Tool, input: unknown, context: ToolContext): Promise<ToolResult>;
	/** What a call runs with (the workspace, the chat's stale-write guard), cancelled by `signal`. */
	context(signal: AbortSignal): ToolContext;
	/** Waits, before a loop's first request, until the tools from outside are on offer (MCP servers started); undefined when there are none. */
	ready?(signal: AbortSignal): Promise<void>;
}

/** Tools from outside the built-in ones (MCP servers'), offered beside them. */
export interface ToolSource {
	/**
	 * The tools now, the same objects while they do not change (their specs are kept per object).
	 * `offer`: the provider, its model's window and the other tools' count, by which the source may
	 * offer fewer, stable tools in their stead (MCP's deferral).
	 */
	tools(offer?: { readonly providerId: string; readonly contextWindow?: number; readonly otherTools: number }): readonly Tool[];
	/** Starts what provides them, the first time, and waits until it is ready or `signal` aborts. */
	ready(signal: AbortSignal): Promise<void>;
}

/** The provider and model a loop uses. */
export interface ResolvedModel {
	readonly provider: ChatProvider;
	readonly model: string;
	readonly contextWindow?: number;
}

/** Told before each retry; `attempt` is the 1-based number of the attempt that failed. */
export type RetryListener = (attempt: number, error: ProviderError, delayMs: number) => void;

/** Which model answers, and how a request reaches it (dispatch.ts binds retries and the idle timeout once). */
export interface ModelDispatch {
	/** The provider and model to use now. Throws an Error saying what to configure. */
	resolve(signal: AbortSignal): Promise<ResolvedModel>;
	/** Streams one request to `model`: retried while the provider has not accepted it, and under the idle timeout. */
	stream(model: ResolvedModel, request: ChatRequest, signal: AbortSignal, onRetry: RetryListener): AsyncIterable<StreamEvent>;
}

/** What every turn loop is built from, the root's and an agent invocation's alike. */
export interface AgentPorts {
	readonly tools: ToolBox;
	readonly dispatch: ModelDispatch;
	readonly runtime: Runtime;
	/** Where a change set waiting for the person opens in the editor; without it, the card alone. */
	readonly review?: ChangeReview;
	/** Where the previous content of the files the tools change is kept (src/checkpoints/); without it, nothing is kept and nothing can be restored. */
	readonly checkpoints?: CheckpointStore;
}

/** Where models come from (settings, API keys, vscode.lm), implemented in src/vscode/. */
export interface ModelSource {
	readonly providerId: string;
	/** The configured model id; '' lets the provider choose. */
	readonly configuredModel: string;
	/** The provider and model to use now. Throws an Error saying what to configure. */
	resolve(signal: AbortSignal): Promise<ResolvedModel>;
	/** The models on offer, for the picker, or why there are none. */
	listModels(signal: AbortSignal): Promise<{ readonly models: readonly ModelInfo[]; readonly problem?: string }>;
	/** Remembers the person's choice (the `aside.model` setting). */
	selectModel(model: string): Promise<void>;
	/** Settings or keys changed: the choice may differ now. */
	readonly onDidChange: Event<void>;
	/**
	 * The model's context window as known now: `aside.contextWindow`, else what the provider's API
	 * or server said, else the known-models table; undefined when unknown. Never waits: what is
	 * learned in the background fires `onDidChangeContextWindow`.
	 */
	contextWindow?(model: string): number | undefined;
	readonly onDidChangeContextWindow?: Event<void>;
	/** A request with this model finished: a window that was only a guess is asked again, in the background. */
	requestFinished?(resolved: ResolvedModel): void;
}
