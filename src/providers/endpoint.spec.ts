import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { startModelServer, type ModelServer } from '../../test/harness/modelServer.mjs';
import { run, textOf } from '../testing/streams';
import { parseEvent, type AnswerReader } from './answer';
import { HttpEndpoint, type HttpEndpointOptions } from './endpoint';
import { ProviderError, type StreamEvent } from './provider';
import type { SseEvent } from './sse';

const KEY = 'sk-endpoint-test-secret-CC';

async function withServer(test: (server: ModelServer) => Promise<void>): Promise<void> {
	const server = await startModelServer();
	try {
		await test(server);
	} finally {
		await server.close();
	}
}

function endpointOf(server: ModelServer, options: Partial<HttpEndpointOptions> = {}): HttpEndpoint {
	return new HttpEndpoint({ label: 'the test server', baseUrl: `${server.url}/v1//`, headers: { 'x-test': 'yes', authorization: `Bearer ${KEY}` }, apiKey: KEY, ...options });
}

/** A protocol whose events are plain words: STOP completes the answer, FAIL… fails it, JSON is read as `{n}`. */
class WordReader implements AnswerReader {
	readonly taken: string[] = [];
	complete = false;

	take(sse: SseEvent): StreamEvent[] {
		this.taken.push(sse.data);
		if (sse.data.startsWith('FAIL')) {
			throw new ProviderError('server', sse.data);
		}
		if (sse.data.startsWith('{')) {
			const { n } = parseEvent(sse, z.object({ n: z.number() }), this, ({ kind }) => new ProviderError('stream', `not a number event (${kind})`));
			return [{ type: 'text', text: String(n) }];
		}
		this.complete = sse.data === 'STOP';
		return [{ type: 'text', text: sse.data }];
	}

	end(): StreamEvent[] {
		return [{ type: 'stop', reason: 'end' }];
	}

	cutOff(cause?: unknown): ProviderError {
		return new ProviderError('stream', 'cut off', { cause });
	}
}

function streamed(endpoint: HttpEndpoint, reader: AnswerReader = new WordReader()): ReturnType<typeof run> {
	return run(endpoint.stream('/chat/completions', () => ({ model: 'm' }), new AbortController().signal, {}, reader));
}

describe('HttpEndpoint: one exchange', () => {
	it('sends its headers to the base URL without its trailing slashes, and answers with the 2xx response', async () => {
		await withServer(async (server) => {
			const response = await endpointOf(server).send('/models', { method: 'GET' }, new AbortController().signal);
			assert.equal(response.status, 200);
			assert.equal(server.requests[0]?.path, '/v1/models');
			assert.equal(server.requests[0].headers['x-test'], 'yes');
		});
	});

	it('throws a non-2xx answer as a ProviderError of its kind, with its retry-after and without the key', async () => {
		await withServer(async (server) => {
			server.scriptModels({ status: 429, retryAfter: 2, message: `slow down, ${KEY}` }, { status: 529 }, { status: 529 });
			const signal = new AbortController().signal;
			const limited = await endpointOf(server).send('/models', { method: 'GET' }, signal).catch((error: unknown) => error);
			assert.ok(limited instanceof ProviderError);
			assert.equal(limited.kind, 'rate-limit');
			assert.equal(limited.details.retryAfterMs, 2000);
			assert.equal(limited.message, 'HTTP 429 from the test server: slow down, [redacted]');
			await assert.rejects(endpointOf(server).send('/models', { method: 'GET' }, signal), (error: unknown) => error instanceof ProviderError && error.kind === 'server');
			const overloaded = endpointOf(server, { overloadedStatus: 529 }).send('/models', { method: 'GET' }, signal);
			await assert.rejects(overloaded, (error: unknown) => error instanceof ProviderError && error.kind === 'overloaded');
		});
	});

	it('reads JSON of a schema\'s shape, and words anything else as the caller says', async () => {
		await withServer(async (server) => {
			const signal = new AbortController().signal;
			const list = await endpointOf(server).getJson('/models', z.object({ data: z.array(z.object({ id: z.string() })) }), signal, () => assert.fail('a list'));
			assert.deepEqual(list.data.map((model) => model.id), ['test-model', 'test-model-large']);
			const problem = (cause: unknown) => new ProviderError('stream', 'not the list I wanted', { cause });
			await assert.rejects(endpointOf(server).getJson('/models', z.object({ models: z.array(z.string()) }), signal, problem), /not the list I wanted/);
		});
	});
});

describe('HttpEndpoint: an answer read as an event stream', () => {
	it('posts the body as JSON, is accepted, then yields what the reader makes of each event until it is complete', async () => {
		await withServer(async (server) => {
			server.script({ raw: ['data: one\n\n', ': keep-alive\n\ndata: two\n\n', 'data: STOP\n\n', 'data: never read\n\n'] });
			const reader = new WordReader();
			const { events, error } = await streamed(endpointOf(server), reader);
			assert.equal(error, undefined);
			assert.deepEqual(events, [{ type: 'accepted' }, { type: 'text', text: 'one' }, { type: 'text', text: 'two' }, { type: 'text', text: 'STOP' }, { type: 'stop', reason: 'end' }]);
			assert.deepEqual(reader.taken, ['one', 'two', 'STOP']);
			assert.equal(server.requests[0]?.method, 'POST');
			assert.deepEqual(server.requests[0].body, { model: 'm' });
		});
	});

	it("fails on llama.cpp's error field before the reader sees it, with the server's message and the kind of its code", async () => {
		await withServer(async (server) => {
			server.script({ raw: ['data: one\n\n', 'error: {"code":503,"message":"loading model"}\n\n'] });
			const reader = new WordReader();
			const { events, error } = await streamed(endpointOf(server), reader);
			assert.equal(textOf(events), 'one');
			assert.equal(error?.kind, 'server');
			assert.equal(error.details.status, 503);
			assert.match(error.message, /the test server reported an error: loading model/);
			assert.deepEqual(reader.taken, ['one']);
		});
	});

	it('says a body ended without an event, or was empty, and words a cut through the reader', async () => {
		await withServer(async (server) => {
			server.script({ raw: [': only a comment\n\n'] }, { raw: [] }, { raw: ['data: one\n\n'], end: 'cut' }, { raw: ['data: {"n":'] });
			const endpoint = endpointOf(server);
			assert.match((await streamed(endpoint)).error?.message ?? '', /the test server ended the event stream without sending any event/);
			assert.match((await streamed(endpoint)).error?.message ?? '', /the test server sent an empty answer/);
			const cut = await streamed(endpoint);
			assert.equal(textOf(cut.events), 'one');
			assert.equal(cut.error?.message, 'cut off');
			// The body ended inside an event that is not JSON yet: a cut, not an unreadable event.
			assert.equal((await streamed(endpoint)).error?.message, 'cut off');
		});
	});

	it('never lets the key out in an error the reader throws', async () => {
		await withServer(async (server) => {
			server.script({ raw: [`data: FAIL upstream refused ${KEY}\n\n`] });
			const { error } = await streamed(endpointOf(server));
			assert.equal(error?.message, 'FAIL upstream refused [redacted]');
		});
	});
});
