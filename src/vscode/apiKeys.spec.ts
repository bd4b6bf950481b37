import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemorySecrets } from '../testing/memorySecrets';
import { RecordingLogger } from '../testing/recordingLogger';
import { ApiKeys, effectiveBaseUrl, isLoopback, originOf, secretKeyFor } from './apiKeys';

describe('API keys per provider and origin', () => {
	it('names a key by provider and origin: scheme, host and port, default ports dropped', () => {
		assert.equal(secretKeyFor('anthropic', 'https://api.anthropic.com'), 'aside.apiKey.anthropic@https://api.anthropic.com');
		assert.equal(secretKeyFor('anthropic', 'https://api.anthropic.com:443/v1/'), 'aside.apiKey.anthropic@https://api.anthropic.com');
		assert.equal(secretKeyFor('openai-compatible', 'http://LocalHost:11434/v1'), 'aside.apiKey.openai-compatible@http://localhost:11434');
		assert.notEqual(secretKeyFor('openai-compatible', 'http://127.0.0.1:8000/v1'), secretKeyFor('openai-compatible', 'http://127.0.0.1:8001/v1'));
		assert.notEqual(secretKeyFor('anthropic', 'http://example.com'), secretKeyFor('anthropic', 'https://example.com'));
		assert.throws(() => originOf('file:///etc/passwd'), /not an http/);
		assert.throws(() => originOf('not a url'));
	});

	it('takes the provider default when aside.baseUrl is empty', () => {
		assert.equal(effectiveBaseUrl('anthropic', ''), 'https://api.anthropic.com');
		assert.equal(effectiveBaseUrl('openai-compatible', '  '), 'http://localhost:11434/v1');
		assert.equal(effectiveBaseUrl('openai-compatible', 'http://127.0.0.1:1234/v1'), 'http://127.0.0.1:1234/v1');
	});

	it('tells loopback origins from the rest', () => {
		assert.equal(isLoopback('http://localhost:11434'), true);
		assert.equal(isLoopback('http://127.0.0.1:1234'), true);
		assert.equal(isLoopback('http://[::1]:8080'), true);
		assert.equal(isLoopback('https://api.anthropic.com'), false);
		assert.equal(isLoopback('http://127.0.0.1.example.com'), false);
	});

	it('gives a key only for the origin it was stored for', async () => {
		const secrets = new MemorySecrets();
		const keys = new ApiKeys(secrets, new RecordingLogger());
		await keys.store('anthropic', 'http://127.0.0.1:4000', 'sk-a');
		assert.equal(await keys.get('anthropic', 'http://127.0.0.1:4000/v1'), 'sk-a');
		assert.equal(await keys.get('anthropic', 'http://127.0.0.1:4001'), undefined, 'another port');
		assert.equal(await keys.get('anthropic', 'https://127.0.0.1:4000'), undefined, 'another scheme');
		assert.equal(await keys.get('openai-compatible', 'http://127.0.0.1:4000'), undefined, 'another provider');
		await keys.delete('anthropic', 'http://127.0.0.1:4000');
		assert.equal(await keys.get('anthropic', 'http://127.0.0.1:4000'), undefined);
	});

	it('moves a key stored under the old name to the default origin only, once, and says so', async () => {
		const secrets = new MemorySecrets({ 'aside.apiKey.anthropic': 'sk-old', 'aside.apiKey.openai-compatible': 'sk-local' });
		const log = new RecordingLogger();
		const keys = new ApiKeys(secrets, log);
		// A workspace may have pointed aside.baseUrl anywhere: the old key must not follow it there.
		assert.equal(await keys.get('anthropic', 'http://127.0.0.1:9999'), undefined);
		assert.equal(await keys.get('anthropic', 'https://api.anthropic.com'), 'sk-old');
		assert.equal(await keys.get('openai-compatible', 'http://localhost:11434'), 'sk-local');
		assert.deepEqual([...secrets.values.keys()].sort(), ['aside.apiKey.anthropic@https://api.anthropic.com', 'aside.apiKey.openai-compatible@http://localhost:11434']);
		const said = log.at('info');
		assert.equal(said.length, 2);
		assert.match(said[0] ?? '', /Anthropic API key stored earlier is kept for https:\/\/api\.anthropic\.com only/);
		assert.ok(!said.join('\n').includes('sk-'), 'the log never shows a key');

		// Once: a later window finds nothing to move, and a key stored since then is not replaced.
		await secrets.store('aside.apiKey.anthropic', 'sk-stale');
		await secrets.store('aside.apiKey.anthropic@https://api.anthropic.com', 'sk-new');
		const again = new ApiKeys(secrets, log);
		assert.equal(await again.get('anthropic', 'https://api.anthropic.com'), 'sk-new');
		assert.equal(secrets.values.has('aside.apiKey.anthropic'), false);
	});

	it('keeps the old key where it was when storage fails, and still answers', async () => {
		const secrets = new MemorySecrets({ 'aside.apiKey.anthropic': 'sk-old' });
		secrets.store = () => Promise.reject(new Error('keychain locked'));
		const log = new RecordingLogger();
		const keys = new ApiKeys(secrets, log);
		assert.equal(await keys.get('anthropic', 'https://api.anthropic.com'), undefined);
		assert.equal(secrets.values.get('aside.apiKey.anthropic'), 'sk-old');
		assert.match(log.at('warn')[0] ?? '', /could not move the Anthropic API key stored earlier: keychain locked/);
	});
});
