import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startModelServer } from '../../test/harness/modelServer.mjs';
import { unusedPort } from '../testing/loopbackPort';
import { detectLocalServers, LOCAL_SERVERS, localServerUrl, offerLabel, testLocalPorts } from './localServers';

describe('local server detection', () => {
	it('finds Ollama by /api/tags and LM Studio by /v1/models, each on its port, and sends no key', async () => {
		const ollama = await startModelServer({ models: ['llama3.2:1b', 'qwen2.5-coder:7b', 'phi4'] });
		const lmstudio = await startModelServer({ models: ['qwen2.5-7b-instruct'] });
		try {
			const found = await detectLocalServers({ ports: { ollama: ollama.port, lmstudio: lmstudio.port } });
			assert.deepEqual(found, [
				{ id: 'ollama', name: 'Ollama', baseUrl: `http://localhost:${ollama.port}/v1`, models: 3 },
				{ id: 'lmstudio', name: 'LM Studio', baseUrl: `http://localhost:${lmstudio.port}/v1`, models: 1 },
			]);
			assert.deepEqual(ollama.requests.map((request) => `${request.method} ${request.path}`), ['GET /api/tags']);
			assert.deepEqual(lmstudio.requests.map((request) => `${request.method} ${request.path}`), ['GET /v1/models']);
			for (const request of [...ollama.requests, ...lmstudio.requests]) {
				assert.equal(request.headers.authorization, undefined);
				assert.equal(request.headers['x-api-key'], undefined);
			}
			assert.equal(offerLabel(found[0] ?? assert.fail()), `Use Ollama on localhost:${ollama.port} (3 models)`);
			assert.equal(offerLabel(found[1] ?? assert.fail()), `Use LM Studio on localhost:${lmstudio.port} (1 model)`);
		} finally {
			await ollama.close();
			await lmstudio.close();
		}
	});

	it('finds nothing where nothing listens, where the answer is an error, or where it is too slow', async () => {
		const failing = await startModelServer();
		failing.scriptModels({ status: 500 });
		const slow = await startModelServer();
		slow.scriptModels({ delayMs: 30_000 });
		try {
			assert.deepEqual(await detectLocalServers({ ports: { ollama: await unusedPort(), lmstudio: await unusedPort() } }), []);
			assert.deepEqual(await detectLocalServers({ ports: { ollama: failing.port, lmstudio: slow.port }, timeoutMs: 300 }), []);
			assert.equal(slow.requests.length, 1);
		} finally {
			await failing.close();
			await slow.close();
		}
	});

	it('an LM Studio port answering Ollama-shaped JSON (or the reverse) is not taken for it', async () => {
		const server = await startModelServer();
		try {
			// The scripted server answers /v1/models in OpenAI's shape; as "Ollama" it must use /api/tags.
			const found = await detectLocalServers({ ports: { ollama: server.port, lmstudio: await unusedPort() } });
			assert.deepEqual(found.map((s) => s.id), ['ollama']);
			const fetchJson = (body: unknown): typeof fetch => () => Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
			assert.deepEqual(await detectLocalServers({ fetch: fetchJson({ models: [{ name: 'x' }] }) }).then((all) => all.map((s) => s.id)), ['ollama']);
			assert.deepEqual(await detectLocalServers({ fetch: fetchJson({ data: [{ id: 'x' }] }) }).then((all) => all.map((s) => s.id)), ['lmstudio']);
		} finally {
			await server.close();
		}
	});

	it('knows the common local servers with their default URLs', () => {
		assert.deepEqual(
			LOCAL_SERVERS.map((server) => [server.name, localServerUrl(server)]),
			[
				['Ollama', 'http://localhost:11434/v1'],
				['LM Studio', 'http://localhost:1234/v1'],
				['llama.cpp server', 'http://localhost:8080/v1'],
				['vLLM', 'http://localhost:8000/v1'],
			],
		);
	});

	it('moves the probed ports only for the integration tests (ASIDE_TEST_HOOKS=1)', () => {
		assert.deepEqual(testLocalPorts({ ASIDE_TEST_LOCAL_PORTS: 'ollama=4000' }), {});
		assert.deepEqual(testLocalPorts({ ASIDE_TEST_HOOKS: '1', ASIDE_TEST_LOCAL_PORTS: 'ollama=4000, lmstudio=4001,vllm=0,bogus=5' }), { ollama: 4000, lmstudio: 4001 });
	});
});
