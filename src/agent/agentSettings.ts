// The settings the agent reads at every step (src/vscode/settings.ts maps the person's settings
// onto them), and what a root turn's step takes of them.
import type { PermissionMode } from '../vocabulary/permissionModes';
import type { TurnSettings } from './turnScope';

export interface AgentSettings {
	readonly maxOutputTokens: number;
	readonly maxSteps: number;
	readonly permissionMode: PermissionMode;
	/** `aside.plan.referenceMaxChars` (4000 when absent). */
	readonly planReferenceMaxChars?: number;
	/** `aside.agents.maxSteps`: a sub-agent's step budget unless its profile says (30 when absent). */
	readonly agentsMaxSteps?: number;
	/** `aside.agents.maxConcurrent` (3 when absent). */
	readonly agentsMaxConcurrent?: number;
	/** `aside.agents.maxTurnsWarningAt` (0.8 when absent). */
	readonly agentsMaxTurnsWarningAt?: number;
	/** `aside.context.autoCompact` (true when absent). */
	readonly autoCompact?: boolean;
	/** `aside.context.autoCompactAt` (0.8 when absent). */
	readonly autoCompactAt?: number;
	/** `aside.context.warnAt` (0.6 when absent). */
	readonly warnAt?: number;
}

/** A root step's limits, mode and window, and automatic compaction's thresholds while it is on. */
export function turnSettingsOf(settings: AgentSettings, permissionMode: PermissionMode, contextWindow: number | undefined): TurnSettings {
	return {
		maxOutputTokens: settings.maxOutputTokens,
		maxSteps: settings.maxSteps,
		permissionMode,
		...(contextWindow ? { contextWindow } : {}),
		...((settings.autoCompact ?? true) ? { autoCompact: { at: settings.autoCompactAt ?? 0.8, warnAt: settings.warnAt ?? 0.6 } } : {}),
	};
}
