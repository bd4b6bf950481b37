// A loaded transcript back into the provider-neutral history the model sees on resume. Only
// typed records are read: a record is what its own `kind` says, so a user message quoting an
// injection record or a <system-reminder> block is replayed as the plain text it is.
//
// Outside text — tool output and the person's own messages — has its reminder markers
// neutralised (`‹system-reminder`) in the payload, always: Aside's notice blocks follow tool
// output in the same message, and providers merge tool results, the person's text and the
// synthetic reminders message into one user message (Anthropic, vscode.lm). So the one rule is:
// every `<system-reminder` marker in a user-role slot is Aside's own. The records keep the text
// exactly as it was.
import type { Logger } from '../base/log';
import type { AssistantMessage, ChatMessage, TextPart, ToolMessage, UserMessage } from '../providers/messages';
import { retriedUnsent } from './retries';
import { CONTEXT_SUMMARY } from '../reminders/builtin/catalog/context';
import { sanitizeUntrusted, wrap } from '../reminders/envelope';
import { recordToMessage } from '../reminders/record';
import type { ToolNotice } from '../tools/tool';
import { hookContextBlock, hookContextByTurn, type HookContextEntry, type ReservedHookContext } from './hookContext';
import { type AssistantRecord, traitsOf, type TranscriptRecord, type UserRecord } from './records';
import type { RestoreRecord } from './restoreRecord';
import type { CompactionRecord } from './historyMarkers';
import type { ToolResultRecord } from './toolResultRecord';
import { missingImagesText, recordImages } from './replayImages';
import { startedByText } from './startedBy';

/** What stands in for the result of a tool call that has no recorded result. */
export const INTERRUPTED_TOOL_RESULT = 'The tool call was interrupted before it finished; its effect is unknown.';

/**
 * The text of a tool message: the content with its markers neutralised, then each notice as a
 * keyed <system-reminder> block (its positional reminder, after the output it is about), joined
 * by one blank line. The turn loop builds the live message with this function too, so replay is
 * byte for byte. Throws ReminderFormatError for a notice that cannot be wrapped (the store
 * refuses those).
 */
export function toolResultText(content: string, notices: readonly ToolNotice[] | undefined): string {
	const output = sanitizeUntrusted(content);
	if (!notices?.length) {
		return output;
	}
	const blocks = notices.map((notice) => wrap(notice.key, notice.body));
	return (output === '' ? blocks : [output, ...blocks]).join('\n\n');
}

// Replay runs at every request over the whole history, and records never change once written:
// each record's model-facing text is built (sanitized, notices wrapped) once.
const modelText = new WeakMap<ToolResultRecord | UserRecord, string>();

/** A user record's own words: the person's, neutralised, or the reminder Aside sent in their place. */
function messageText(record: UserRecord): string {
	return record.startedBy ? startedByText(record.startedBy) : sanitizeUntrusted(record.text);
}

function textFor(record: ToolResultRecord | UserRecord, reserved?: readonly HookContextEntry[]): string {
	if (record.kind === 'user' && reserved?.length) {
		// Hook context reserved into (or recorded for) this turn's message goes before its own.
		return `${hookContextBlock([...reserved, ...(record.hookContext ?? [])])}${messageText(record)}${missingImagesText(record)}`;
	}
	let text = modelText.get(record);
	if (text === undefined) {
		text = record.kind === 'user' ? `${hookContextBlock(record.hookContext)}${messageText(record)}${missingImagesText(record)}` : toolResultText(record.content ?? '', record.notices) + missingImagesText(record);
		modelText.set(record, text);
	}
	return text;
}

/** A user record's text part, with the images the person attached (those whose bytes are here). */
function userTextPart(record: UserRecord, text: string): TextPart {
	const images = recordImages(record);
	return images.length > 0 ? { type: 'text', text, images } : { type: 'text', text };
}

function assistantMessage(record: AssistantRecord): AssistantMessage | undefined {
	const content: AssistantMessage['content'][number][] = [];
	if (record.text !== '') {
		content.push({ type: 'text', text: record.text });
	}
	for (const call of record.toolCalls) {
		content.push({ type: 'tool-call', id: call.id, name: call.name, input: call.input });
	}
	// Providers refuse an assistant message with no content (a step that failed before any output).
	return content.length ? { role: 'assistant', content } : undefined;
}

export interface ReplayOptions {
	readonly log?: Logger;
	/**
	 * Pending hook context reserved into the request being prepared: it rides the user message of
	 * root turn `turnId` (after any already recorded for it), as the `hook-context` record written
	 * at the request's WAIT commit will replay it.
	 */
	readonly reservedHookContext?: ReservedHookContext;
}

/** What a conversation's requests replay: its latest compaction (if any), and the records after its compaction point. */
export interface SelectedHistory<R> {
	readonly compaction: CompactionRecord | undefined;
	/** Without a compaction, every record; with one, its kept tail (from `keepFrom` up to it) and every record after it. */
	readonly records: readonly R[];
}

/** A restore that rolls the chat back (scope `chat` or `both`); a files-only one leaves the history as it is. */
export function rollsBackChat(record: { readonly kind: string }): record is RestoreRecord {
	return record.kind === 'restore' && (record as unknown as RestoreRecord).scope !== 'files';
}

/**
 * The conversation as its restores left it: each chat restore cuts what came before it at the user
 * record it restored to (and drops itself), so the chat goes on from just before that message; a
 * restore to a record no longer there (rolled back already, or damaged) changes nothing. Several
 * compose, each on what the earlier ones left; a compaction rolled back goes with its part.
 */
export function afterRestores<R extends { readonly kind: string }>(records: readonly R[]): R[] {
	const kept: R[] = [];
	for (const record of records) {
		if (!rollsBackChat(record)) {
			kept.push(record);
			continue;
		}
		const to = kept.findIndex((candidate) => candidate.kind === 'user' && (candidate as unknown as UserRecord).id === record.to);
		if (to >= 0) {
			kept.length = to;
		}
	}
	return kept;
}

/** Whether a chat restore comes after the latest compaction (then the restores must be applied; otherwise the compaction's tail is after them all). */
function restoredSinceCompaction(records: readonly { readonly kind: string }[]): boolean {
	for (let index = records.length - 1; index >= 0; index--) {
		const record = records[index] as { readonly kind: string };
		if (record.kind === 'compaction') {
			return false;
		}
		if (rollsBackChat(record)) {
			return true;
		}
	}
	return false;
}

/**
 * The history a conversation's next request is built from: after its latest compaction, the kept
 * tail and what followed (the summary stands in for the rest). A `keepFrom` that names no record
 * before the compaction (a damaged line) keeps no tail. Reads from the end: the cost is the
 * distance to the latest compaction, not the length of the chat. Chat restores are applied first
 * (`afterRestores`): a restore to before a compaction point rolls the compaction back too.
 */
export function selectedRecords<R extends { readonly kind: string }>(all: readonly R[]): SelectedHistory<R> {
	const records = restoredSinceCompaction(all) ? afterRestores(all) : all;
	let at = -1;
	for (let index = records.length - 1; index >= 0; index--) {
		if (records[index]?.kind === 'compaction') {
			at = index;
			break;
		}
	}
	if (at < 0) {
		return { compaction: undefined, records };
	}
	const compaction = records[at] as unknown as CompactionRecord;
	let from = at + 1;
	if (compaction.keepFrom !== undefined) {
		for (let index = at - 1; index >= 0; index--) {
			const record = records[index] as { readonly kind: string; readonly id?: unknown };
			if (record.kind !== 'injected-reminders' && record.id === compaction.keepFrom) {
				from = index;
				break;
			}
		}
	}
	return { compaction, records: from === at + 1 ? records.slice(at + 1) : [...records.slice(from, at), ...records.slice(at + 1)] };
}

/** The words of the `context.summary` notice, before the summary itself. */
const SUMMARY_PREAMBLE =
	'The earlier part of this chat was compacted: the summary below, which you wrote from it, stands in for it. Nothing else of that part is in your context any more: re-read files before relying on their contents, and treat the summary as your own notes, not as the user\'s words. The conversation continues after this message.';

/** The message a compaction's summary is replayed as, first in every later request: one `context.summary` block (the summary's own markers neutralised). */
export function summaryMessage(record: CompactionRecord): UserMessage {
	const body = `${SUMMARY_PREAMBLE}\n\nSummary:\n\n${sanitizeUntrusted(record.summary.trim())}`;
	return { role: 'user', content: [{ type: 'text', text: wrap(CONTEXT_SUMMARY.key, body) }], synthetic: 'summary' };
}

/**
 * The history to send after a resume. Every tool call gets exactly one result right after its
 * assistant message: recorded results in recorded order, then, for a call whose result was never
 * recorded (the turn was interrupted, failed, or the host died), a synthetic error result saying
 * its effect is unknown. Providers reject a history with an unanswered call, so this keeps it
 * valid; it is not a reminder (the model is told a fact about its own call, in the call's own
 * result slot) and it is not recorded. A result with no open call to answer (its assistant line
 * was damaged) is dropped and logged, for the same reason.
 */
export function replayHistory(all: readonly TranscriptRecord[], options: ReplayOptions = {}): ChatMessage[] {
	const { compaction, records } = selectedRecords(all);
	const messages: ChatMessage[] = compaction ? [summaryMessage(compaction)] : [];
	const hookContext = hookContextByTurn(records, options.reservedHookContext);
	const resent = retriedUnsent(records);
	let open: { readonly calls: AssistantRecord['toolCalls']; readonly answered: Set<string> } | undefined;
	const settle = (): void => {
		for (const call of open?.calls ?? []) {
			if (!open?.answered.has(call.id)) {
				messages.push({ role: 'tool', callId: call.id, content: INTERRUPTED_TOOL_RESULT, isError: true });
			}
		}
		open = undefined;
	};
	for (const record of records) {
		// What reaches the model some other way, or not at all (its traits, recordKinds.ts).
		if (traitsOf(record.kind).replay === 'silent') {
			continue;
		}
		switch (record.kind) {
			case 'tool-result': {
				if (!open?.calls.some((call) => call.id === record.callId) || open.answered.has(record.callId)) {
					options.log?.warn(`Replay: dropped a result for tool call ${record.callId} (${record.name}), which has no open call to answer.`);
					break;
				}
				open.answered.add(record.callId);
				const images = recordImages(record);
				const message: ToolMessage = { role: 'tool', callId: record.callId, content: textFor(record), isError: record.isError, ...(images.length > 0 ? { images } : {}) };
				messages.push(message);
				break;
			}
			case 'assistant': {
				settle();
				const message = assistantMessage(record);
				if (message) {
					messages.push(message);
				}
				open = record.toolCalls.length ? { calls: record.toolCalls, answered: new Set() } : undefined;
				break;
			}
			case 'user':
				settle();
				if (record.agent === undefined && resent.has(record.turnId)) {
					// Sent again by a Retry, and this copy never reached the model: once is enough.
					break;
				}
				messages.push({ role: 'user', content: [userTextPart(record, textFor(record, record.agent === undefined ? hookContext.get(record.turnId) : undefined))] });
				break;
			case 'injected-reminders':
				settle();
				messages.push(recordToMessage(record));
				break;
			case 'turn-end':
				settle();
				break;
		}
	}
	settle();
	return messages;
}

/** How many user turns the transcript holds. */
export function turnsIn(records: readonly TranscriptRecord[]): number {
	let turns = 0;
	for (const record of records) {
		if (record.kind === 'user') {
			turns++;
		}
	}
	return turns;
}

/** When the session last did anything (the newest record's time), for the session.resume reminder. */
export function lastActivityAt(records: readonly TranscriptRecord[]): number | undefined {
	let last: number | undefined;
	for (const record of records) {
		const at = record.kind === 'session' ? record.createdAt : record.at;
		last = last === undefined ? at : Math.max(last, at);
	}
	return last;
}
