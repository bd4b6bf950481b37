// What the provider contract (src/providers/contract.spec.ts) needs of a provider under test: a
// fresh provider whose answers a test scripts in the provider's own terms (a step of the
// scripted model server, a reply of the fake vscode.lm model), the neutral replies in those
// terms, and what this provider must make of the situations every provider meets.
import type { ChatProvider, ChatRequest, ProviderErrorKind, StopReason, StreamEvent } from '../providers/provider';

/** An answer any provider can be scripted to give. */
export interface ContractReply {
	readonly text?: string;
	readonly toolCalls?: readonly { readonly id: string; readonly name: string; readonly input: object }[];
	readonly usage?: { readonly input: number; readonly output: number };
}

/** A refusal before anything was accepted, and the error it must become. */
export interface Refusal<Step> {
	readonly name: string;
	readonly step: Step;
	readonly kind: ProviderErrorKind;
	/** The HTTP status the error carries, for an HTTP provider. */
	readonly status?: number;
	readonly message: RegExp;
}

/** A stream that breaks after it was accepted: what it streamed first, and the error. */
export interface BrokenStream<Step> {
	readonly step: Step;
	/** The events after `accepted`, exactly. */
	readonly streamed: readonly StreamEvent[];
	readonly kind: ProviderErrorKind;
	readonly retryable: boolean;
}

export interface Fixture<Step> {
	readonly provider: ChatProvider;
	script(...steps: Step[]): void;
	/** How many requests reached the server or the model. */
	sent(): number;
	/** Resolves once the provider let go of a stopped request (the connection closed, the token cancelled). */
	released(): Promise<void>;
}

export interface ProviderSubject<Step> {
	readonly name: string;
	/** Runs `test` against a fresh provider, then cleans up. */
	with(test: (fixture: Fixture<Step>) => Promise<void>): Promise<void>;
	request(overrides?: Partial<ChatRequest>): ChatRequest;
	/** `reply` in this provider's own terms. */
	reply(reply: ContractReply): Step;
	/** The usage event this provider yields for a text reply to `request`. */
	usage(reply: ContractReply, request: ChatRequest): Extract<StreamEvent, { type: 'usage' }>;
	/** A tool call id as this protocol's servers make them (`toolu_…`, `call_…`). */
	toolCallId(suffix: string): string;
	/** Answers that end in each stop reason. */
	readonly stopReasons: readonly (readonly [Step, StopReason])[];
	readonly refusals: readonly Refusal<Step>[];
	readonly broken: BrokenStream<Step>;
	/** An error the stream itself reports after it was accepted, if the protocol has such a thing. */
	readonly streamError?: { readonly step: Step; readonly kind: ProviderErrorKind; readonly message: RegExp };
	/** Accepted, then nothing until the request is stopped. */
	readonly hang: Step;
}
