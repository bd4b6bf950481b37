// A compaction of one conversation: the model writes the summary of the part before the cut (one
// request through the loop's own dispatch: retries and the idle timeout as for any request, the
// person's Stop aborts it), and only a complete, non-empty summary is recorded. No reminders ride
// the summary request: it never goes through WAIT. A compaction that fails or is cancelled
// appends nothing and changes nothing. After the record, `afterCompaction` resets what the
// summarized prefix had acknowledged.
import { errorMessage } from '../../base/errors';
import type { ToolSpec } from '../../providers/provider';
import { ProviderError } from '../../providers/provider';
import type { RequestStaging } from '../../reminders/staging';
import type { CompactionCause } from '../../vocabulary/outcomes';
import type { CompactionRecord } from '../../transcript/historyMarkers';
import { summaryMessage } from '../../transcript/replay';
import type { AgentPorts, ResolvedModel, RetryListener } from '../ports';
import { foldEvent, NO_RESPONSE } from '../response';
import { afterCompaction, type CompactedConversation } from './afterCompaction';
import { conversationTokens, requestTokens } from './estimate';
import { compactedMessages, compactionCut, type CompactionPoint, summaryRequest } from './point';

/** What one compaction is asked to do. */
export interface CompactionOrder {
	readonly cause: CompactionCause;
	readonly point: CompactionPoint;
	readonly model: ResolvedModel;
	/** The conversation's own system prompt and tools, as its requests send them. */
	readonly system: string;
	readonly tools: readonly ToolSpec[];
	readonly maxOutputTokens: number;
	readonly contextWindow?: number;
	/** What the person asked the summary to keep. */
	readonly instructions?: string;
	/** The root turn it runs in (absent between turns). */
	readonly turnId?: string;
	/**
	 * The in-flight request's staging (a compaction inside a turn): the file references go there
	 * and the instruction files to the owner's turn events, all delivered at this request's WAIT.
	 * Absent (between turns): both go on the pending FIFO, for the next request.
	 */
	readonly staging?: RequestStaging;
	readonly onRetry?: RetryListener;
}

export type CompactionResult =
	| { readonly ok: true; readonly record: CompactionRecord }
	/** `nothing`: no message, answer or result before the cut; then nothing was sent. */
	| { readonly ok: false; readonly reason: 'nothing' | 'failed' | 'cancelled'; readonly message: string };

const failed = (message: string): CompactionResult => ({ ok: false, reason: 'failed', message });

/** Compacts `conversation` as `order` says; never throws. */
export async function compactConversation(
	ports: AgentPorts,
	conversation: CompactedConversation,
	order: CompactionOrder,
	signal: AbortSignal,
): Promise<CompactionResult> {
	const { clock, ids, log } = ports.runtime;
	const records = conversation.transcript.records;
	const cut = compactionCut(records, order.point);
	if (!cut) {
		return { ok: false, reason: 'nothing', message: 'There is nothing to compact yet.' };
	}
	const tokensBefore = conversationTokens(records, order.system, order.tools);
	const { request, leftOut } = summaryRequest(cut, {
		model: order.model.model,
		system: order.system,
		tools: order.tools,
		maxOutputTokens: order.maxOutputTokens,
		...(order.contextWindow === undefined ? {} : { contextWindow: order.contextWindow }),
		...(order.instructions === undefined ? {} : { instructions: order.instructions }),
	});
	if (leftOut > 0) {
		log.info(`Aside: the summary request leaves out the ${leftOut} oldest messages to fit the context window.`);
	}
	let response = NO_RESPONSE;
	try {
		for await (const event of ports.dispatch.stream(order.model, request, signal, order.onRetry ?? (() => undefined))) {
			response = foldEvent(response, event);
		}
	} catch (error) {
		if (signal.aborted || (error instanceof ProviderError && error.kind === 'cancelled')) {
			return { ok: false, reason: 'cancelled', message: 'The compaction was stopped.' };
		}
		return failed(`The summary request failed: ${errorMessage(error)}`);
	}
	if (signal.aborted) {
		return { ok: false, reason: 'cancelled', message: 'The compaction was stopped.' };
	}
	// Tool calls in the answer are ignored: the request allowed none, and the summary is its text.
	const summary = response.text.trim();
	if (response.stop === 'max-tokens' || response.stop === 'refusal') {
		return failed(response.stop === 'max-tokens' ? 'The summary was cut off at the output limit.' : 'The model refused to write the summary.');
	}
	if (summary === '') {
		return failed('The model wrote an empty summary.');
	}
	const base: CompactionRecord = {
		kind: 'compaction',
		id: ids.next(),
		at: clock.now(),
		cause: order.cause,
		...(order.turnId === undefined ? {} : { turnId: order.turnId }),
		...(cut.keepFrom === undefined ? {} : { keepFrom: cut.keepFrom }),
		summary,
		tokensBefore,
		tokensAfter: 0,
		...(order.instructions?.trim() ? { instructions: order.instructions.trim() } : {}),
		model: order.model.model,
	};
	const record: CompactionRecord = { ...base, tokensAfter: requestTokens(order.system, order.tools, compactedMessages(summaryMessage(base), cut.tail)) };
	try {
		conversation.transcript.append(record);
	} catch (error) {
		return failed(`The compaction could not be recorded: ${errorMessage(error)}`);
	}
	await afterCompaction(ports, conversation, { summarized: cut.summarized, tail: cut.tail, ...(order.staging ? { staging: order.staging } : {}) }, signal);
	return { ok: true, record };
}
