import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter } from '../base/event';
import { type ChatProvider, type ChatRequest, ProviderError, type StreamEvent } from '../providers/provider';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { modelDispatch } from './dispatch';
import type { ModelSource, ResolvedModel } from './ports';

const request: ChatRequest = { model: 'scripted', system: '', messages: [], tools: [], maxOutputTokens: 100 };

function sourceOf(provider: ChatProvider) {
	const finished: ResolvedModel[] = [];
	const source: ModelSource = {
		providerId: 'openai-compatible',
		configuredModel: 'scripted',
		resolve: () => Promise.resolve({ provider, model: 'scripted' }),
		listModels: () => Promise.resolve({ models: [] }),
		selectModel: () => Promise.resolve(),
		onDidChange: new Emitter<void>().event,
		requestFinished: (resolved) => finished.push(resolved),
	};
	return { source, finished };
}

async function drain(events: AsyncIterable<StreamEvent>): Promise<string[]> {
	const types: string[] = [];
	for await (const event of events) {
		types.push(event.type);
	}
	return types;
}

describe('the model dispatch', () => {
	it('resolves as the source does, retries a request the provider did not accept, and tells the source when it ended', async () => {
		const provider = new ScriptedProvider({ failBefore: new ProviderError('overloaded', 'HTTP 529', { status: 529 }) }, { text: 'hi' });
		const { source, finished } = sourceOf(provider);
		const dispatch = modelDispatch(source, { retries: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1, sleep: () => Promise.resolve() } });
		const model = await dispatch.resolve(new AbortController().signal);
		const retries: string[] = [];
		const types = await drain(dispatch.stream(model, request, new AbortController().signal, (attempt, error) => retries.push(`${attempt} ${error.message}`)));
		assert.deepEqual(types, ['accepted', 'text', 'stop']);
		assert.deepEqual(retries, ['1 HTTP 529']);
		assert.equal(provider.requests.length, 2);
		assert.deepEqual(finished, [model]);
	});

	it('tells the source of a request that failed too', async () => {
		const provider = new ScriptedProvider({ failBefore: new ProviderError('auth', 'HTTP 401', { status: 401 }) });
		const { source, finished } = sourceOf(provider);
		const dispatch = modelDispatch(source, { retries: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 } });
		const model = await dispatch.resolve(new AbortController().signal);
		await assert.rejects(drain(dispatch.stream(model, request, new AbortController().signal, () => undefined)), /HTTP 401/);
		assert.equal(provider.requests.length, 1, 'not retryable');
		assert.equal(finished.length, 1);
	});

	it('puts every request under the idle timeout, read when the request starts', async () => {
		// Accepts, then never sends anything again until aborted.
		const silent = new ScriptedProvider({ hang: '' });
		const { source } = sourceOf(silent);
		let timeoutMs = 5;
		const dispatch = modelDispatch(source, { retries: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 }, idleTimeoutMs: () => timeoutMs });
		const model = await dispatch.resolve(new AbortController().signal);
		await assert.rejects(drain(dispatch.stream(model, request, new AbortController().signal, () => undefined)), (error) => error instanceof ProviderError && error.kind === 'timeout');
		timeoutMs = 60_000;
		silent.script({ text: 'answered' });
		assert.deepEqual(await drain(dispatch.stream(model, request, new AbortController().signal, () => undefined)), ['accepted', 'text', 'text', 'stop']);
	});
});
