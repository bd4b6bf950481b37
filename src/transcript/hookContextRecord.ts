// The record of the context the person's hooks added to a root turn's message (docs/hooks.md).
// Declared apart from what reads it (hookContext.ts), so the transcript's records stand on it alone.
import * as z from 'zod';
import { declareRecord } from '../base/recordDeclaration';

/**
 * Hook context that was pending when a root turn's first request was prepared (a SessionStart
 * hook's answer: docs/hooks.md), reserved into that request and written when the request went
 * out (its WAIT commit). Replay puts its entries, before the user record's own `hookContext`,
 * into the `<hook-context>` block of that turn's user message — the text the request carried.
 * A reservation whose request failed before dispatch is never written: it goes back to pending.
 */
export const HookContextRecord = z.object({
	kind: z.literal('hook-context'),
	id: z.string().min(1),
	/** The root turn whose user message carried it. */
	turnId: z.string().min(1),
	/** The request that carried it first. */
	requestId: z.string().min(1),
	at: z.number(),
	entries: z.array(z.object({ event: z.string().min(1), text: z.string() })).min(1),
});
export const HOOK_CONTEXT_RECORD = declareRecord(HookContextRecord);

export type HookContextRecord = z.infer<typeof HookContextRecord>;

export type HookContextEntry = HookContextRecord['entries'][number];
