// The person's compaction: `/compact` (optionally followed by what to keep) typed as a whole
// message, the command, the button. Between turns only; its file references and instruction files
// go on the pending FIFO, for the next request.
import type { BetweenTurns } from '../../agent/betweenTurns';
import type { FeatureChat } from '../../agent/chatFeature';
import type { ChatSession } from '../../agent/session';
import { errorMessage } from '../../base/errors';
import { compactConversation } from '../../agent/compaction/compactor';
import { compactionCut } from '../../agent/compaction/point';

/** `/compact` as the message's first word (then what follows is what to keep); undefined for any other message (`/compactx` is one). */
export function compactCommand(text: string): { readonly instructions?: string } | undefined {
	const match = /^\/compact(?:\s+([\s\S]*))?$/.exec(text.trim());
	if (!match) {
		return undefined;
	}
	const instructions = match[1]?.trim();
	return instructions ? { instructions } : {};
}

/** Compacts `session` between turns; resolves with why it did not (the chat is unchanged then), or undefined. */
async function compactBetweenTurns(
	session: ChatSession,
	between: BetweenTurns,
	instructions: string | undefined,
	signal: AbortSignal,
): Promise<string | undefined> {
	const { model, system, tools, settings } = await between.rootRequest(signal);
	const observers = between.observers();
	const result = await compactConversation(
		between.ports,
		{
			transcript: session,
			engine: session.reminders,
			roster: session.reminders.roster,
			...(observers ? { observers } : {}),
			rearmPlan: () => { between.compacted(); },
		},
		{
			cause: 'manual',
			point: 'between-turns',
			model,
			system,
			tools,
			maxOutputTokens: settings.maxOutputTokens,
			...(settings.contextWindow === undefined ? {} : { contextWindow: settings.contextWindow }),
			...(instructions === undefined ? {} : { instructions }),
		},
		signal,
	);
	if (result.ok) {
		return undefined;
	}
	return result.reason === 'cancelled' ? 'The compaction was stopped; the chat is unchanged.' : `${result.message} The chat is unchanged.`;
}

/** Why the chat cannot be compacted by hand now (another window writes it, nothing to compact), or undefined. */
function compactionRefusal(session: ChatSession): string | undefined {
	if (session.isReadOnly) {
		return 'This chat is being written in another window, so it cannot be compacted here.';
	}
	return compactionCut(session.records, 'between-turns') ? undefined : 'There is nothing to compact yet.';
}

/** A chat's compaction by hand: between turns only, one at a time, stopped by Stop. */
export class ChatCompaction {
	constructor(private readonly chat: Pick<FeatureChat, 'session' | 'between'>) {}

	/**
	 * Compacts the chat now (the command, the button, `/compact`): the model summarizes it, the
	 * summary is recorded, the files it had read go on the pending FIFO. Resolves with why it could
	 * not, or was stopped (then the chat is unchanged); undefined once compacted.
	 */
	compact(instructions?: string): Promise<string | undefined> {
		const { session, between } = this.chat;
		const refused = between.refusal('compacting the chat') ?? compactionRefusal(session);
		if (refused !== undefined) {
			return Promise.resolve(refused);
		}
		return between.run((signal) => compactBetweenTurns(session, between, instructions, signal), {
			activity: { kind: 'compacting', cause: 'manual' },
			stoppable: true,
			failed: (error) => `Could not compact the chat: ${errorMessage(error)} The chat is unchanged.`,
		});
	}
}
