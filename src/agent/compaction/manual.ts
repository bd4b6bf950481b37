// The person's compaction: `/compact` (optionally followed by what to keep) typed as a whole
// message, the command, the button. Between turns only; its file references and instruction files
// go on the pending FIFO, for the next request.
import type { ToolSpec } from '../../providers/provider';
import type { TurnObservers } from '../observers';
import type { AgentPorts, ResolvedModel } from '../ports';
import type { ChatSession } from '../session';
import type { TurnSettings } from '../turn';
import { errorMessage } from '../../base/errors';
import { compactConversation } from './compactor';
import { compactionCut } from './point';

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

/** Why the chat cannot be compacted by hand now (another window writes it, nothing to compact), or undefined. */
export function compactionRefusal(session: ChatSession): string | undefined {
	if (session.isReadOnly) {
		return 'This chat is being written in another window, so it cannot be compacted here.';
	}
	return compactionCut(session.records, 'between-turns') ? undefined : 'There is nothing to compact yet.';
}

/** The person's compaction in flight, between turns: its Stop, and the messages sent meanwhile. */
export class ManualCompaction {
	private current: { readonly controller: AbortController; readonly waiting: string[] } | undefined;

	get active(): boolean {
		return this.current !== undefined;
	}

	/** A message sent while it runs waits for it (then starts the next turn, on the compacted chat); false when none runs. */
	hold(text: string): boolean {
		this.current?.waiting.push(text);
		return this.current !== undefined;
	}

	/** Stops it: the chat stays as it was, and what waited is dropped with it, as a Stop drops undelivered steering. */
	stop(): void {
		this.current?.controller.abort();
		this.current?.waiting.splice(0);
	}

	/** Runs `compact` as the compaction in flight (`changed` as it starts and ends); its refusal, and the messages that waited. */
	async run(compact: (signal: AbortSignal) => Promise<string | undefined>, changed: () => void): Promise<{ readonly refused: string | undefined; readonly waiting: readonly string[] }> {
		const current = { controller: new AbortController(), waiting: [] as string[] };
		this.current = current;
		changed();
		let refused: string | undefined;
		try {
			refused = await compact(current.controller.signal);
		} catch (error) {
			refused = `Could not compact the chat: ${errorMessage(error)} The chat is unchanged.`;
		} finally {
			this.current = undefined;
			changed();
		}
		return { refused, waiting: current.waiting };
	}
}
