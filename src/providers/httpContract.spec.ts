// What every HTTP provider does besides the ChatProvider contract (contract.spec.ts), run against
// the Anthropic and the OpenAI-compatible provider on the scripted model server: retry-after,
// network failures, unreadable tool input, the cap on one event, and the key: never in an
// error, never sent to another origin, never in a URL.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startModelServer, type ModelServer, type ScriptedStep } from '../../test/harness/modelServer.mjs';
import { FakeClock } from '../testing/fakeClock';
import { HTTP_SUBJECTS, type HttpOptions } from '../testing/httpSubjects';
import { run, textOf, type Outcome } from '../testing/streams';
import type { ChatProvider } from './provider';
import { ProviderError } from './provider';

const API_KEY = 'sk-ant-api03-Q9vLx2-secret-key-material-AA';

for (const subject of HTTP_SUBJECTS) {
	async function streamOnce(step: ScriptedStep, options: HttpOptions = {}): Promise<Outcome & { server: ModelServer }> {
		let outcome: (Outcome & { server: ModelServer }) | undefined;
		await subject.withServer(async (server, provider) => {
			server.script(step);
			outcome = { ...(await run(provider.stream(subject.request(), new AbortController().signal))), server };
		}, options);
		assert.ok(outcome);
		return outcome;
	}

	const keyed = (test: (server: ModelServer, provider: ChatProvider) => Promise<void>): Promise<void> => subject.withServer(test, { apiKey: API_KEY });

	describe(`${subject.name}: the HTTP provider contract`, () => {
		it('reads retry-after in seconds, as an HTTP date, and retry-after-ms', async () => {
			for (const status of [429, 529]) {
				const seconds = await streamOnce({ status, retryAfter: 2 });
				assert.equal(seconds.error?.details.retryAfterMs, 2000);
				assert.equal(seconds.error.retryable, true);
				const ms = await streamOnce({ status, retryAfterMs: 1500 });
				assert.equal(ms.error?.details.retryAfterMs, 1500);
			}
			const clock = new FakeClock();
			const { error } = await streamOnce({ status: 429, retryAfter: new Date(clock.now() + 3000).toUTCString() }, { apiKey: 'k', clock });
			assert.equal(error?.details.retryAfterMs, 3000);
		});

		it('is cancelled when stopped before the server answers', async () => {
			await subject.withServer(async (server, provider) => {
				server.script({ delayMs: 10_000 });
				const controller = new AbortController();
				setTimeout(() => {
					controller.abort();
				}, 20);
				const { events, error } = await run(provider.stream(subject.request(), controller.signal));
				assert.deepEqual(events, []);
				assert.equal(error?.kind, 'cancelled');
			});
		});

		it("fails with \"stream\" when a tool call's input is not valid JSON", async () => {
			for (const args of ['{"path": "a.ts"', '{"path": ']) {
				const { error } = await streamOnce({ toolCalls: [{ name: 'Read', arguments: args }] });
				assert.equal(error?.kind, 'stream');
				assert.match(error.message, /Read/);
			}
		});

		it('fails with a retryable "network" error when nothing listens', async () => {
			const server = await startModelServer();
			await server.close();
			const { error } = await run(subject.make(server.url, { apiKey: 'k' }).stream(subject.request(), new AbortController().signal));
			assert.equal(error?.kind, 'network');
			assert.equal(error.retryable, true);
			assert.match(error.message, /ECONNREFUSED/);
		});

		it('throws a typed error instead of an empty model list', async () => {
			for (const [step, kind] of [[{ status: 401, message: 'invalid key' }, 'auth'], [{ status: 500 }, 'server']] as const) {
				await subject.withServer(async (server, provider) => {
					server.scriptModels(step);
					await assert.rejects(
						provider.listModels(new AbortController().signal),
						(error: unknown) => error instanceof ProviderError && error.kind === kind,
					);
				});
			}
		});

		it('stops reading an endless event or line with a clear error instead of running out of memory', { timeout: 60_000 }, async () => {
			for (const step of [{ raw: [], repeat: `data: ${'x'.repeat(64 * 1024)}\n` }, { raw: ['data: {"x":"'], repeat: 'x'.repeat(64 * 1024) }]) {
				await subject.withServer(async (server, provider) => {
					server.script(step);
					const { error } = await run(provider.stream(subject.request(), new AbortController().signal));
					assert.equal(error?.kind, 'stream');
					assert.match(error.message, new RegExp(`${subject.label} sent more than .* in one event`));
					await server.waitForDisconnects(1);
				});
			}
		});
	});

	describe(`${subject.name}: the API key stays secret`, () => {
		it('never quotes the key from an error body or a stream error', async () => {
			await keyed(async (server, provider) => {
				server.script({ status: 401, message: `invalid key: ${API_KEY}` }, { text: 'partial', streamError: { type: 'authentication_error', message: `key ${API_KEY} was revoked` } });
				const before = await run(provider.stream(subject.request(), new AbortController().signal));
				assert.equal(before.error?.kind, 'auth');
				assert.match(before.error.message, new RegExp(`HTTP 401 from ${subject.label}: invalid key: \\[redacted\\]`));
				const after = await run(provider.stream(subject.request(), new AbortController().signal));
				assert.match(after.error?.message ?? '', /key \[redacted\] was revoked/);
				for (const error of [before.error, after.error]) {
					assert.ok(!JSON.stringify({ message: error?.message, cause: String(error?.details.cause) }).includes(API_KEY));
				}
			});
		});

		it('does not follow a redirect to another origin with the key', async () => {
			const elsewhere = await startModelServer();
			try {
				for (const status of [302, 307]) {
					await keyed(async (server, provider) => {
						server.script({ redirect: { status, location: `${elsewhere.url}${subject.chatPath}` } });
						const { events, error } = await run(provider.stream(subject.request(), new AbortController().signal));
						assert.deepEqual(events, []);
						assert.equal(error?.kind, 'bad-request');
						assert.match(error.message, new RegExp(`redirected .*to http://127\\.0\\.0\\.1:${elsewhere.port}`));
						assert.equal(error.retryable, false);
						assert.equal(elsewhere.requests.length, 0, 'nothing reached the other origin');
					});
				}
			} finally {
				await elsewhere.close();
			}
		});

		it('follows a redirect on the same origin, with the key and the request', async () => {
			for (const status of [307, 308]) {
				await keyed(async (server, provider) => {
					server.script({ redirect: { status, location: subject.moved.location } }, { text: 'moved fine' });
					const { events, error } = await run(provider.stream(subject.request(), new AbortController().signal));
					assert.equal(error, undefined);
					assert.equal(textOf(events), 'moved fine');
					const { model } = subject.request();
					assert.deepEqual(
						server.requests.map(
							(received) => [
								received.method,
								received.path,
								subject.keyHeader(received),
								(received.body as { model?: string } | undefined)?.model,
							],
						),
						[
							['POST', subject.chatPath, subject.keyHeaderFor(API_KEY), model],
							['POST', subject.moved.path, subject.keyHeaderFor(API_KEY), model],
						],
					);
				});
			}
		});

		it('repeats a POST redirected with 303 on the same origin as a GET without its body, as fetch does', async () => {
			await keyed(async (server, provider) => {
				server.script({ redirect: { status: 303, location: '/v1/see-other' } });
				const { error } = await run(provider.stream(subject.request(), new AbortController().signal));
				assert.equal(error?.details.status, 404, 'the server has nothing to GET there');
				const [, second] = server.requests;
				assert.deepEqual(
					[second?.method, second?.path, second?.body, subject.keyHeader(second), second?.headers['content-type']],
					['GET', '/v1/see-other', undefined, subject.keyHeaderFor(API_KEY), undefined],
				);
			});
		});

		it('refuses a base URL with a user name or password, without printing them or sending anything', async () => {
			await keyed(async (server) => {
				const provider = subject.make(`http://gateway-user:hunter2-pass@127.0.0.1:${server.port}`, { apiKey: API_KEY });
				const { error } = await run(provider.stream(subject.request(), new AbortController().signal));
				assert.equal(error?.kind, 'bad-request');
				assert.match(error.message, /user name or password/);
				assert.ok(!error.message.includes('hunter2-pass') && !error.message.includes('gateway-user'), error.message);
				assert.equal(server.requests.length, 0);
			});
		});
	});
}
