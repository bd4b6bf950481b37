// How a response and a turn end, defined once: the providers' stop reasons, what a recorded
// response says, a turn's outcome and what started a compaction, shared by the providers, the
// transcript, the agent, the public API and (through src/protocol/) the webview. No imports, so
// the webview may share it without the transcript's record schemas.

/** Why a model's response ended, as its provider says it. */
export const STOP_REASONS = ['end', 'tool-use', 'max-tokens', 'refusal', 'other'] as const;

/** Why a recorded response ended: its provider's reason, or the person stopped it, or the request broke. */
export const RECORDED_STOPS = [...STOP_REASONS, 'interrupted', 'failed'] as const;
export type RecordedStop = (typeof RECORDED_STOPS)[number];

/** How a turn ended. */
export const TURN_OUTCOMES = ['done', 'interrupted', 'failed', 'step-limit'] as const;
export type TurnOutcomeKind = (typeof TURN_OUTCOMES)[number];

/** What started a compaction: the person (command, button, `/compact`), the threshold before a request, or a provider's refusal of a request as too long. */
export const COMPACTION_CAUSES = ['manual', 'auto', 'overflow'] as const;
export type CompactionCause = (typeof COMPACTION_CAUSES)[number];
