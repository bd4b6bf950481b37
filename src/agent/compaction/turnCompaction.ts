// The compactions a turn loop makes on its own, before one of its requests: when the request
// would pass the automatic threshold, or once the provider refused it as too long.
import { errorMessage } from '../../base/errors';
import type { ToolSpec } from '../../providers/provider';
import type { RequestStaging } from '../../reminders/staging';
import type { CompactionCause } from '../../vocabulary/outcomes';
import type { LoopOwner } from '../loopOwner';
import type { AgentPorts, ResolvedModel } from '../ports';
import type { TurnScope, TurnSettings } from '../turnScope';
import { compactConversation } from './compactor';
import { conversationTokens } from './estimate';

/** The tokens past which a request is compacted first; none without the window (a too-long refusal is compacted without it). */
export function compactionThreshold(settings: TurnSettings): number | undefined {
	const auto = settings.autoCompact;
	return auto && settings.contextWindow !== undefined ? auto.at * settings.contextWindow : undefined;
}

/** Why the next request is compacted first, if it is: it was refused as too long, or it would pass the threshold. */
export function compactionCause(overflowed: boolean, threshold: number | undefined, scope: Pick<TurnScope, 'transcript' | 'system'>, specs: readonly ToolSpec[]): CompactionCause | undefined {
	return overflowed ? 'overflow' : threshold !== undefined && conversationTokens(scope.transcript.records, scope.system(), specs) > threshold ? 'auto' : undefined;
}

/** The request a compaction comes before, and the refusal that asked for it (an overflow). */
export interface InTurnCompaction {
	readonly cause: CompactionCause;
	readonly step: number;
	readonly model: ResolvedModel;
	readonly settings: TurnSettings;
	readonly specs: readonly ToolSpec[];
	readonly staging: RequestStaging;
	readonly refusal: unknown;
}

/**
 * Compacts a loop's conversation before a request: the estimated tokens after it, `nothing` when
 * there was nothing to compact before a threshold, `stopped` when the person stopped it. Throws
 * when it fails (the chat is unchanged then).
 */
export async function compactInTurn(ports: AgentPorts, scope: TurnScope, lifecycle: LoopOwner, turnId: string, order: InTurnCompaction, signal: AbortSignal): Promise<{ readonly tokensAfter: number } | 'nothing' | 'stopped'> {
	const { cause, step, model, settings, specs, staging, refusal } = order;
	scope.onUpdate?.({ type: 'compacting', cause });
	const result = await compactConversation(
		ports,
		{
			transcript: scope.transcript,
			engine: scope.engine,
			roster: lifecycle.roster,
			owner: lifecycle.owner,
			...(scope.observers ? { observers: scope.observers } : {}),
			...(scope.onCompacted ? { rearmPlan: scope.onCompacted } : {}),
		},
		{
			cause,
			point: step === 1 ? 'turn-start' : 'mid-turn',
			model,
			system: scope.system(),
			tools: specs,
			maxOutputTokens: settings.maxOutputTokens,
			...(settings.contextWindow === undefined ? {} : { contextWindow: settings.contextWindow }),
			turnId,
			staging,
			onRetry: (attempt, error, delayMs) => {
				scope.onUpdate?.({ type: 'retrying', attempt, delayMs, reason: error.message });
			},
		},
		signal,
	);
	if (result.ok) {
		return { tokensAfter: result.record.tokensAfter };
	}
	if (result.reason === 'cancelled') {
		return 'stopped';
	}
	if (result.reason === 'nothing') {
		if (cause === 'auto') {
			return 'nothing';
		}
		throw new Error(`The request is too long for the model's context window, and there is nothing before it to compact (${errorMessage(refusal)}).`);
	}
	throw new Error(`${result.message} The chat could not be compacted and is unchanged.`);
}
