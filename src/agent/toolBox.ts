// The tool box over the tool registry (src/tools/registry.ts): its specs, its prepare and invoke,
// with the tools on offer and the context a call runs in given by whoever builds it.
import { invokeTool, prepareTool, toolSpecs } from '../tools/registry';
import type { Tool, ToolContext } from '../tools/tool';
import type { PermissionMode } from '../vocabulary/permissionModes';
import type { ToolBox } from './ports';

export function registryToolBox(offered: (mode: PermissionMode) => readonly Tool[], context: (signal: AbortSignal) => ToolContext): ToolBox {
	return { offered, specs: toolSpecs, prepare: prepareTool, invoke: invokeTool, context };
}
