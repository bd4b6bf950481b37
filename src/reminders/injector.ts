// WAIT: the single injection point, just before provider dispatch. It appends ONE synthetic
// user-role message holding every collected entry, wrapped once, after the real user message or
// the complete tool results, and returns it with the injection record and a commit(). Nothing
// is changed until the caller commits, which it does only after the provider accepted the
// payload: a failed or cancelled request simply drops the injection and the same entries are
// eligible next time.
import type { Clock } from '../base/clock';
import type { ChatMessage, UserMessage } from '../providers/messages';
import type { Commit, CollectedEntry, Owner, Phase } from './definition';
import { RECORD_KIND, RECORD_VERSION, type InjectionRecord, recordToMessage } from './record';
import { wrap } from './envelope';
import { plural, withArticle } from '../base/words';

/** What the turn loop hands to WAIT; any other fields (system prompt, tools) pass through. */
export interface PreparedRequest {
	readonly requestId: string;
	readonly owner: Owner;
	readonly phase: Phase;
	readonly messages: readonly ChatMessage[];
}

/** Where records go (the transcript). A write that throws or rejects prevents every commit. */
export interface InjectionRecorder {
	write(record: InjectionRecord): void | Promise<void>;
}

export interface RejectedEntry {
	readonly entry: CollectedEntry;
	readonly error: Error;
}

export interface Injection<R extends PreparedRequest> {
	/** The request to dispatch: unchanged when there was nothing to deliver. */
	readonly request: R;
	/** The one synthetic message, last in `request.messages`; null when nothing was delivered. */
	readonly message: UserMessage | null;
	/** The record commit() writes; null when no body was delivered. */
	readonly record: InjectionRecord | null;
	/** Entries left out because their body could not be wrapped: not delivered, not committed. */
	readonly rejected: readonly RejectedEntry[];
	/**
	 * Call once the provider accepted the dispatched payload: writes the record first, and only
	 * if that succeeded runs every staged commit, in entry order then commit-alone order. A record
	 * failure rejects with its error and commits nothing (commit may then be tried again).
	 */
	commit(): Promise<void>;
}

export class InjectionPointError extends Error {
	override readonly name = 'InjectionPointError';
}

/**
 * Checks that the synthetic message can go at the end of `messages`: after the real user message
 * (turn-start) or after every result of the last assistant message's tool calls (mid-turn), in
 * either history style — `tool` role messages, or tool-result parts in a user message. Only the
 * messages after the last assistant message are read, so the cost does not grow with history.
 */
export function checkInjectionPoint(messages: readonly ChatMessage[], phase: Phase): void {
	const last = messages.at(-1);
	if (!last) {
		throw new InjectionPointError('WAIT needs a request with at least the user message.');
	}
	if (phase === 'turn-start' && (last.role !== 'user' || last.synthetic !== undefined)) {
		const what = last.role === 'user' ? 'synthetic user' : last.role;
		throw new InjectionPointError(`A turn-start WAIT must follow the real user message, not ${withArticle(what)} message.`);
	}
	const answered = new Set<string>();
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index];
		if (message === undefined) {
			break;
		}
		if (message.role === 'tool') {
			answered.add(message.callId);
		} else if (message.role === 'user') {
			for (const part of message.content) {
				if (part.type === 'tool-result') {
					answered.add(part.callId);
				}
			}
		} else {
			for (const part of message.content) {
				if (part.type === 'tool-call' && !answered.has(part.id)) {
					throw new InjectionPointError(
						`The tool call ${part.id} (${part.name}) has no result yet; WAIT runs after the complete tool results, never between a call and its result.`,
					);
				}
			}
			return;
		}
	}
}

function blankRecord(request: PreparedRequest, at: number, turn: number): Omit<InjectionRecord, 'entries'> {
	return {
		kind: RECORD_KIND,
		v: RECORD_VERSION,
		phase: request.phase,
		owner: { kind: request.owner.kind, id: request.owner.id },
		requestId: request.requestId,
		at,
		turn,
	};
}

/** Drops entries whose body cannot be wrapped (a forged marker). The fast path wraps nothing twice. */
function partition(delivered: readonly CollectedEntry[]): { accepted: CollectedEntry[]; rejected: RejectedEntry[] } {
	const accepted: CollectedEntry[] = [];
	const rejected: RejectedEntry[] = [];
	for (const entry of delivered) {
		try {
			wrap(entry.key, entry.body ?? '');
			accepted.push(entry);
		} catch (error) {
			rejected.push({ entry, error: error as Error });
		}
	}
	return { accepted, rejected };
}

/**
 * The request with `message` after its history. The history is not copied here: `messages` is
 * built on first read, by whoever serializes the request (which walks every message anyway), so
 * WAIT costs the same with 200 messages or 20,000.
 */
function withAppended<R extends PreparedRequest>(request: R, message: UserMessage): R {
	const history = request.messages;
	let messages: readonly ChatMessage[] | undefined;
	return Object.defineProperty({ ...request }, 'messages', {
		enumerable: true,
		get: () => (messages ??= history.concat(message)),
	});
}

export interface InjectOptions {
	readonly recorder: InjectionRecorder;
	readonly clock: Clock;
	/** The owner roster's turn, recorded with the delivery. */
	readonly turn: number;
	/** Told about the record once it was written, before the commits run. */
	readonly onRecorded?: (record: InjectionRecord) => void;
}

/**
 * Builds the payload for one dispatch. `entries` are in stage order; entries with a null body
 * are silent (their commits run, nothing is delivered); `commits` are staged commits alone.
 * Throws InjectionPointError when the history does not end at a place a message may go.
 */
export function injectAtWait<R extends PreparedRequest>(
	request: R,
	entries: readonly CollectedEntry[],
	commits: readonly Commit[],
	options: InjectOptions,
): Injection<R> {
	checkInjectionPoint(request.messages, request.phase);
	let toDeliver = entries.filter((entry) => entry.body !== null);
	let rejected: RejectedEntry[] = [];
	let record: InjectionRecord | null = null;
	let dispatched = request;
	let synthetic: UserMessage | null = null;
	if (toDeliver.length > 0) {
		const at = options.clock.now();
		const recordOf = (list: readonly CollectedEntry[]): InjectionRecord => ({
			...blankRecord(request, at, options.turn),
			entries: list.map(({ type, key, label, body, reason, subjects }) => ({
				type,
				key,
				label,
				body: body ?? '',
				reason,
				...(subjects ? { subjects: subjects.map((subject) => ({ ref: subject.ref, hashes: [...subject.hashes] })) } : {}),
			})),
		});
		let message;
		try {
			record = recordOf(toDeliver);
			message = recordToMessage(record);
		} catch {
			({ accepted: toDeliver, rejected } = partition(toDeliver));
			record = toDeliver.length > 0 ? recordOf(toDeliver) : null;
			message = record ? recordToMessage(record) : undefined;
		}
		if (message) {
			dispatched = withAppended(request, message);
			synthetic = message;
		}
	}
	const rejectedSet = new Set(rejected.map((r) => r.entry));
	const toCommit: Commit[] = [];
	for (const entry of entries) {
		if (entry.commit && !rejectedSet.has(entry)) {
			toCommit.push(entry.commit);
		}
	}
	toCommit.push(...commits);

	let state: 'ready' | 'running' | 'done' = 'ready';
	let running: Promise<void> | undefined;
	const finalRecord = record;
	return {
		request: dispatched,
		message: synthetic,
		record: finalRecord,
		rejected,
		commit() {
			if (state !== 'ready') {
				return running ?? Promise.resolve();
			}
			state = 'running';
			running = (async () => {
				try {
					if (finalRecord) {
						await options.recorder.write(finalRecord);
					}
				} catch (error) {
					state = 'ready';
					running = undefined;
					throw error;
				}
				state = 'done';
				if (finalRecord) {
					options.onRecorded?.(finalRecord);
				}
				const errors: unknown[] = [];
				for (const commit of toCommit) {
					try {
						commit();
					} catch (error) {
						errors.push(error);
					}
				}
				if (errors.length > 0) {
					throw new AggregateError(errors, `${plural(errors.length, 'reminder commit')} failed after the record was written.`);
				}
			})();
			return running;
		},
	};
}
