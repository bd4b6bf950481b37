// The agent's ports in VS Code: the built-in tools on the workspace and the MCP servers' tools
// (read-only ones only in plan mode or an untrusted workspace), the model dispatch over the model
// source with the product's retries and `aside.requestTimeoutSeconds`, and the real clock, random ids and the Aside log.
import * as vscode from 'vscode';
import { randomIds, systemClock } from '../base/clock';
import type { Logger } from '../base/log';
import { modelDispatch, PROVIDER_RETRIES } from '../agent/dispatch';
import type { AgentPorts, ModelSource, ToolSource } from '../agent/ports';
import type { CheckpointStore } from '../checkpoints/types';
import { registryToolBox } from '../agent/toolBox';
import { SeenTexts } from '../observe/seenTexts';
import { toolsFor, withEditTools } from '../tools/registry';
import type { VsCodeChangeReview } from './changeReview';
import type { Configuration } from './configuration';
import type { VsCodeToolHost } from './toolHost';

export interface AgentHost {
	readonly configuration: Configuration;
	readonly models: ModelSource;
	readonly tools: VsCodeToolHost;
	/** The current chat's stale-write guard (its observers'), when there is one. */
	readonly seen: () => SeenTexts | undefined;
	readonly log: Logger;
	/** Where a change waiting for the person opens: the diff editor. */
	readonly review: VsCodeChangeReview;
	/** Where the files' earlier content is kept (src/vscode/checkpoints.ts). */
	readonly checkpoints?: CheckpointStore;
	/** Tools beside the built-in ones: the MCP servers' (src/vscode/mcp/). */
	readonly extraTools?: ToolSource;
}

export function vscodeAgentPorts({ configuration, models, tools, seen, log, review, checkpoints, extraTools }: AgentHost): AgentPorts {
	return {
		// Without observers, an empty guard: it refuses every edit.
		tools: registryToolBox(
			(mode) => {
				const builtIn = withEditTools(configuration.current.editTools);
				// The Agent tool goes beside them.
				const offer = { providerId: models.providerId, contextWindow: models.contextWindow?.(models.configuredModel), otherTools: builtIn.length + 1 };
				return toolsFor(mode, vscode.workspace.isTrusted, [...builtIn, ...(extraTools?.tools(offer) ?? [])]);
			},
			(signal) => tools.contextFor(signal, seen() ?? new SeenTexts()),
			extraTools,
		),
		review,
		dispatch: modelDispatch(models, { retries: PROVIDER_RETRIES, idleTimeoutMs: () => configuration.current.requestTimeoutSeconds * 1000 }),
		runtime: { clock: systemClock, ids: randomIds, log },
		...(checkpoints ? { checkpoints } : {}),
	};
}
