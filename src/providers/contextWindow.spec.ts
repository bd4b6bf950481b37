import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecordingLogger } from '../testing/recordingLogger';
import { ContextWindows, effectiveContextWindow, windowKey, type DiscoveredWindow, type WindowProbe } from './contextWindow';
import { knownContextWindow } from './knownWindows';

/** A probe whose answers the test hands out one at a time. */
function scriptedProbe(...answers: (DiscoveredWindow | Error)[]): WindowProbe & { calls: number } {
	const probe = Object.assign(
		(_signal: AbortSignal): Promise<DiscoveredWindow | undefined> => {
			probe.calls++;
			const answer = answers.shift();
			return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
		},
		{ calls: 0 },
	);
	return probe;
}

const KEY = windowKey('openai-compatible', 'http://127.0.0.1:11434/v1', 'llama3.2:3b');

describe('the known-models table', () => {
	it('knows hosted models by id, snapshot and gateway prefix, never by a longer id', () => {
		assert.equal(knownContextWindow('claude-sonnet-4-5'), 200_000);
		assert.equal(knownContextWindow('claude-sonnet-4-5-20250929'), 200_000);
		assert.equal(knownContextWindow('claude-sonnet-4-6'), 1_000_000);
		assert.equal(knownContextWindow('anthropic/claude-opus-4-7'), 1_000_000);
		assert.equal(knownContextWindow('gpt-4o-2024-08-06'), 128_000);
		assert.equal(knownContextWindow('openai/gpt-4.1'), 1_047_576);
		assert.equal(knownContextWindow('gpt-5-chat-latest'), 128_000, 'not gpt-5\'s 400k');
		assert.equal(knownContextWindow('gpt-5-codex-mini'), undefined);
		assert.equal(knownContextWindow('llama3.2:3b'), undefined, 'a local model: only its server knows');
		assert.equal(knownContextWindow('constructor'), undefined);
	});
});

describe('which window wins', () => {
	it('aside.contextWindow, then the server, then the table, else unknown', () => {
		assert.deepEqual(effectiveContextWindow(50_000, 8192, 'claude-sonnet-4-5'), { tokens: 50_000, source: 'setting' });
		assert.deepEqual(effectiveContextWindow(0, 8192, 'claude-sonnet-4-5'), { tokens: 8192, source: 'server' });
		assert.deepEqual(effectiveContextWindow(0, undefined, 'claude-sonnet-4-5'), { tokens: 200_000, source: 'table' });
		assert.equal(effectiveContextWindow(0, undefined, 'llama3.2:3b'), undefined);
	});

	it('keys by provider, origin and model', () => {
		assert.equal(windowKey('openai-compatible', 'http://127.0.0.1:11434/v1', 'm'), windowKey('openai-compatible', 'http://127.0.0.1:11434/other/v1', 'm'));
		assert.notEqual(windowKey('openai-compatible', 'http://127.0.0.1:11434/v1', 'm'), windowKey('openai-compatible', 'http://127.0.0.1:1234/v1', 'm'));
		assert.notEqual(windowKey('anthropic', 'http://127.0.0.1:1234', 'm'), windowKey('openai-compatible', 'http://127.0.0.1:1234', 'm'));
	});
});

describe('ContextWindows', () => {
	it('asks once per key in the background and tells when it learned a window', async () => {
		const windows = new ContextWindows({ log: new RecordingLogger() });
		let changes = 0;
		windows.onDidChange(() => changes++);
		const probe = scriptedProbe({ tokens: 8192, settled: true, source: 'Ollama /api/show (num_ctx)' });
		windows.discover(KEY, probe);
		assert.equal(windows.known(KEY), undefined, 'nothing waits for the server');
		windows.discover(KEY, probe);
		await windows.idle();
		assert.equal(windows.known(KEY), 8192);
		assert.equal(changes, 1);
		windows.discover(KEY, probe);
		windows.requestFinished(KEY, probe);
		await windows.idle();
		assert.equal(probe.calls, 1, 'a settled answer is never asked again');
		windows.dispose();
	});

	it('asks again after a request while the answer was a guess, until it is settled', async () => {
		const windows = new ContextWindows({ log: new RecordingLogger() });
		const probe = scriptedProbe(
			{ tokens: 4096, settled: false, source: "Ollama's default context length (model not loaded yet)" },
			{ tokens: 32768, settled: true, source: 'Ollama /api/ps (the loaded model)' },
		);
		windows.discover(KEY, probe);
		await windows.idle();
		assert.equal(windows.known(KEY), 4096);
		windows.requestFinished(KEY, probe);
		await windows.idle();
		assert.equal(windows.known(KEY), 32768);
		windows.requestFinished(KEY, probe);
		await windows.idle();
		assert.equal(probe.calls, 2);
		windows.dispose();
	});

	it('a probe that fails or hangs is an unknown, logged at debug level only, and asked again after a request', async () => {
		const log = new RecordingLogger();
		const windows = new ContextWindows({ log, timeoutMs: 20 });
		const failing = scriptedProbe(new Error('connect ECONNREFUSED 127.0.0.1:11434'), { tokens: 8192, settled: true, source: 'llama.cpp /props' });
		windows.discover(KEY, failing);
		await windows.idle();
		assert.equal(windows.known(KEY), undefined);
		assert.deepEqual(log.at('warn').concat(log.at('error')), []);
		assert.match(log.at('debug').join('\n'), /ECONNREFUSED.*asking again after the next request/);
		windows.requestFinished(KEY, failing);
		await windows.idle();
		assert.equal(windows.known(KEY), 8192);

		const hangingKey = windowKey('openai-compatible', 'http://127.0.0.1:8080/v1', 'm');
		const hanging: WindowProbe = (signal) =>
			new Promise((_resolve, reject) => {
				signal.addEventListener('abort', () => {
					reject(new Error('aborted'));
				});
			});
		windows.discover(hangingKey, hanging);
		await windows.idle();
		assert.equal(windows.known(hangingKey), undefined);
		assert.match(log.at('debug').join('\n'), /no answer within 0\.02 s/);
		windows.dispose();
	});

	it('a window from the model list is settled: nothing is asked', async () => {
		const windows = new ContextWindows({ log: new RecordingLogger() });
		const probe = scriptedProbe({ tokens: 1, settled: true, source: 'x' });
		windows.remember(KEY, 24576, 'the model list');
		windows.discover(KEY, probe);
		windows.requestFinished(KEY, probe);
		await windows.idle();
		assert.equal(windows.known(KEY), 24576);
		assert.equal(probe.calls, 0);
		windows.dispose();
	});

	it('logs a learned window once, at info level', async () => {
		const log = new RecordingLogger();
		const windows = new ContextWindows({ log });
		windows.discover(KEY, scriptedProbe({ tokens: 8192, settled: true, source: 'Ollama /api/show (num_ctx)' }));
		await windows.idle();
		assert.deepEqual(log.at('info'), ['Context window of llama3.2:3b (openai-compatible, http://127.0.0.1:11434): 8192 tokens (Ollama /api/show (num_ctx)).']);
		windows.dispose();
	});
});
