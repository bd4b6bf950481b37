// What a turn loop knows of sub-agents: the Agent tool it may offer, and who runs its calls. The
// root turn's is made by the agent (agent.ts), a child's by its parent's (childAgents.ts); a loop
// without one offers no Agent tool.
import type { ToolSpec } from '../../providers/provider';
import type { ToolResult } from '../../tools/tool';
import type { ResolvedModel } from '../ports';
import type { ToolCall } from '../response';
import type { TurnScope } from '../turn';

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
