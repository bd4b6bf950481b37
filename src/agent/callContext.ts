// The context one tool call runs in: the tool box's (the workspace, the chat's stale-write guard)
// narrowed to the agent that makes the call — its own memory of what it read (a sub-agent's is its
// own, so it never writes over what another agent changed after it read), what the chat features
// hand that agent's tools (the task list as it reaches it) — the root turn's checkpoint recorder, and the chat's approved plan file (the one file
// outside the workspace its tools reach: the model is told its path).
import type { Owner } from '../reminders/definition';
import type { ToolContext } from '../tools/tool';
import { ROOT_OWNER_PATH } from '../vocabulary/tasks';
import type { TurnScope } from './turnScope';

export function callContext(base: ToolContext, scope: TurnScope, owner: Owner): ToolContext {
	const root = owner.kind === 'root';
	const features = scope.toolAccess?.(root ? ROOT_OWNER_PATH : owner.id);
	const planFile = scope.planFile?.();
	return {
		...base,
		seen: root ? base.seen : base.seen.agent(owner.id),
		...(features ? { features } : {}),
		...(scope.checkpoint ? { checkpoint: scope.checkpoint } : {}),
		...(planFile ? { planFile } : {}),
	};
}
