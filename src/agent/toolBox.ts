// The tool box over the tool registry (src/tools/registry.ts): its specs, its prepare and invoke,
// with the tools on offer and the context a call runs in given by whoever builds it, and the tools
// from outside (MCP servers') beside the built-in ones.
import { invokeTool, prepareTool, toolSpecs } from '../tools/registry';
import type { Tool, ToolContext } from '../tools/tool';
import type { PermissionMode } from '../vocabulary/permissionModes';
import type { ToolBox, ToolSource } from './ports';

export function registryToolBox(
	offered: (mode: PermissionMode) => readonly Tool[],
	context: (signal: AbortSignal) => ToolContext,
	source?: ToolSource,
): ToolBox {
	return { offered, specs: toolSpecs, prepare: prepareTool, invoke: invokeTool, context, ...(source ? { ready: (signal) => source.ready(signal) } : {}) };
}
