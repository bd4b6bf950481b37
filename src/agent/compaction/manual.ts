// The person's compaction: `/compact` (optionally followed by what to keep) typed as a whole
// message, the command, the button. Between turns only; its file references and instruction files
// go on the pending FIFO, for the next request.
import type { ToolSpec } from '../../providers/provider';
import type { TurnObservers } from '../observers';
import type { AgentPorts, ResolvedModel } from '../ports';
import type { ChatSession } from '../session';
import type { TurnSettings } from '../turn';
import { compactConversation } from './compactor';

/** `/compact` as the message's first word (then what follows is what to keep); undefined for any other message (`/compactx` is one). */
export function compactCommand(text: string): { readonly instructions?: string } | undefined {
	const match = /^\/compact(?:\s+([\s\S]*))?$/.exec(text.trim());
	if (!match) {
		return undefined;
	}
	const instructions = match[1]?.trim();
	return instructions ? { instructions } : {};
}

/** What a compaction between turns works on: the chat and what its root requests send. */
export interface BetweenTurns {
	readonly session: ChatSession;
	readonly system: string;
	readonly tools: readonly ToolSpec[];
	readonly settings: TurnSettings;
	readonly observers?: TurnObservers;
	readonly rearmPlan: () => void;
}

/** Compacts the chat between turns; resolves with why it did not (the chat is unchanged then), or undefined. */
export async function compactBetweenTurns(ports: AgentPorts, chat: BetweenTurns, model: ResolvedModel, instructions: string | undefined, signal: AbortSignal): Promise<string | undefined> {
	const { session, settings } = chat;
	const result = await compactConversation(
		ports,
		{ transcript: session, engine: session.reminders, roster: session.reminders.roster, ...(chat.observers ? { observers: chat.observers } : {}), rearmPlan: chat.rearmPlan },
		{
			cause: 'manual',
			point: 'between-turns',
			model,
			system: chat.system,
			tools: chat.tools,
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
