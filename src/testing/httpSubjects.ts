// The two HTTP providers as subjects of the provider contract, each on the scripted model server
// (test/harness/modelServer.mjs) speaking its wire protocol on loopback.
import type { Clock } from '../base/clock';
import { startModelServer, type ModelServer, type ReceivedRequest, type ScriptedStep } from '../../test/harness/modelServer.mjs';
import { AnthropicProvider } from '../providers/anthropic';
import { OpenAICompatibleProvider } from '../providers/openaiCompatible';
import type { ChatProvider, ChatRequest, ProviderErrorKind } from '../providers/provider';
import { userText } from './history';
import type { ContractReply, ProviderSubject, Refusal } from './providerSubject';

export interface HttpOptions {
	readonly apiKey?: string;
	readonly clock?: Clock;
}

export interface HttpSubject extends ProviderSubject<ScriptedStep> {
	/** How its errors name the server, as a regular expression source. */
	readonly label: string;
	/** A provider for the server at `origin`, with the protocol's path prefix. */
	make(origin: string, options?: HttpOptions): ChatProvider;
	/** Runs `test` with a fresh server and a provider for it. */
	withServer(test: (server: ModelServer, provider: ChatProvider) => Promise<void>, options?: HttpOptions): Promise<void>;
	/** Where the chat request goes. */
	readonly chatPath: string;
	/** A redirect target on the same origin for the chat request, and the path the server sees there. */
	readonly moved: { readonly location: string; readonly path: string };
	/** The header that carries the key, as a request had it. */
	keyHeader(received: ReceivedRequest | undefined): string | undefined;
	/** That header's value for `key`. */
	keyHeaderFor(key: string): string;
}

function refusals(label: string, message: (status: number) => string, statuses: readonly (readonly [number, ProviderErrorKind])[]): Refusal<ScriptedStep>[] {
	return statuses.map(([status, kind]) => ({ name: `HTTP ${status}`, step: { status, message: message(status) }, kind, status, message: new RegExp(`HTTP ${status} from ${label}: ${message(status)}`) }));
}

function subject(base: Omit<HttpSubject, 'with' | 'withServer' | 'reply' | 'usage'>): HttpSubject {
	const withServer = async (test: (server: ModelServer, provider: ChatProvider) => Promise<void>, options?: HttpOptions): Promise<void> => {
		const server = await startModelServer();
		try {
			await test(server, base.make(server.url, options));
		} finally {
			await server.close();
		}
	};
	return {
		...base,
		withServer,
		with: (test) =>
			withServer((server, provider) =>
				test({
					provider,
					script: (...steps) => {
						server.script(...steps);
					},
					sent: () => server.requests.length,
					released: () => server.waitForDisconnects(1),
				}),
			),
		reply: (reply: ContractReply): ScriptedStep => reply,
		usage: (reply) => ({ type: 'usage', inputTokens: reply.usage?.input ?? 10, outputTokens: reply.usage?.output ?? 5 }),
	};
}

// Anthropic's 413 is request_too_large (the request's bytes): compaction shrinks it, so it is too-long.
const ANTHROPIC_STATUSES = [[401, 'auth'], [403, 'auth'], [400, 'bad-request'], [404, 'bad-request'], [413, 'too-long'], [422, 'bad-request'], [429, 'rate-limit'], [500, 'server'], [503, 'server'], [529, 'overloaded']] as const;
const OPENAI_STATUSES = [[401, 'auth'], [403, 'auth'], [400, 'bad-request'], [404, 'bad-request'], [413, 'bad-request'], [422, 'bad-request'], [429, 'rate-limit'], [500, 'server'], [503, 'server'], [529, 'server']] as const;

export const ANTHROPIC: HttpSubject = subject({
	name: 'AnthropicProvider',
	label: 'Anthropic',
	make: (origin, options = {}) => new AnthropicProvider({ baseUrl: origin, apiKey: options.apiKey ?? 'sk-test', ...(options.clock ? { clock: options.clock } : {}) }),
	request: (overrides = {}): ChatRequest => ({ model: 'claude-test', system: 'You are Aside.', messages: [userText('hi')], tools: [], maxOutputTokens: 1024, ...overrides }),
	toolCallId: (suffix) => `toolu_${suffix}`,
	stopReasons: [
		['end_turn', 'end'],
		['tool_use', 'tool-use'],
		['max_tokens', 'max-tokens'],
		['refusal', 'refusal'],
		['stop_sequence', 'other'],
		['pause_turn', 'other'],
	].map(([wire, neutral]) => [{ text: 'x', stop: wire }, neutral] as const) as HttpSubject['stopReasons'],
	refusals: refusals('Anthropic', (status) => `scripted ${status} explanation`, ANTHROPIC_STATUSES),
	// message_start, ping, content_block_start, then two deltas of four characters.
	broken: { step: { text: 'abcdefghijklmnop', cutAfterChunks: 5 }, streamed: [{ type: 'text', text: 'abcd' }, { type: 'text', text: 'efgh' }], kind: 'stream', retryable: false },
	streamError: { step: { streamError: { type: 'overloaded_error', message: 'Overloaded' } }, kind: 'overloaded', message: /Overloaded/ },
	hang: { hangAfterAccept: true },
	chatPath: '/v1/messages',
	moved: { location: '/v1/messages?region=2', path: '/v1/messages' },
	keyHeader: (received) => received?.headers['x-api-key'] as string | undefined,
	keyHeaderFor: (key) => key,
});

export const OPENAI_COMPATIBLE: HttpSubject = subject({
	name: 'OpenAICompatibleProvider',
	label: 'the model server at 127\\.0\\.0\\.1:\\d+',
	make: (origin, options = {}) => new OpenAICompatibleProvider({ baseUrl: `${origin}/v1`, ...options }),
	request: (overrides = {}): ChatRequest => ({ model: 'qwen-test', system: 'You are Aside.', messages: [userText('hi')], tools: [], maxOutputTokens: 512, ...overrides }),
	toolCallId: (suffix) => `call_${suffix}`,
	stopReasons: [
		['stop', 'end'],
		['tool_calls', 'tool-use'],
		['length', 'max-tokens'],
		['content_filter', 'refusal'],
		['function_call', 'other'],
	].map(([wire, neutral]) => [{ text: 'x', stop: wire }, neutral] as const) as HttpSubject['stopReasons'],
	refusals: refusals('the model server at 127\\.0\\.0\\.1:\\d+', (status) => `model "qwen-test" says ${status}`, OPENAI_STATUSES),
	// The role chunk, then three chunks of four characters.
	broken: { step: { text: 'abcdefghijklmnop', cutAfterChunks: 4 }, streamed: [{ type: 'text', text: 'abcd' }, { type: 'text', text: 'efgh' }, { type: 'text', text: 'ijkl' }], kind: 'stream', retryable: false },
	streamError: { step: { streamError: { type: 'server_error', message: 'the model crashed' } }, kind: 'server', message: /the model crashed/ },
	hang: { hangAfterAccept: true, text: 'never finished' },
	chatPath: '/v1/chat/completions',
	moved: { location: '/v2/chat/completions', path: '/v2/chat/completions' },
	keyHeader: (received) => received?.headers.authorization,
	keyHeaderFor: (key) => `Bearer ${key}`,
});

export const HTTP_SUBJECTS: readonly HttpSubject[] = [ANTHROPIC, OPENAI_COMPATIBLE];
