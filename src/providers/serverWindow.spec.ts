import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startModelServer, type ModelServer } from '../../test/harness/modelServer.mjs';
import anthropicModel from '../../test/fixtures/model-servers/anthropic-model.json';
import anthropicModels from '../../test/fixtures/model-servers/anthropic-models.json';
import llamaCppApiShow from '../../test/fixtures/model-servers/llamacpp-api-show.json';
import llamaCppProps from '../../test/fixtures/model-servers/llamacpp-props.json';
import lmStudioV0 from '../../test/fixtures/model-servers/lmstudio-v0-models.json';
import lmStudioV1 from '../../test/fixtures/model-servers/lmstudio-v1-models.json';
import ollamaPs from '../../test/fixtures/model-servers/ollama-ps.json';
import ollamaPsEmpty from '../../test/fixtures/model-servers/ollama-ps-empty.json';
import ollamaShow from '../../test/fixtures/model-servers/ollama-show.json';
import ollamaShowNumCtx from '../../test/fixtures/model-servers/ollama-show-num-ctx.json';
import openRouterModels from '../../test/fixtures/model-servers/openrouter-models.json';
import vllmModels from '../../test/fixtures/model-servers/vllm-models.json';
import { AnthropicProvider } from './anthropic';
import { OpenAICompatibleProvider } from './openaiCompatible';
import { serverRoot } from './serverWindow';

const signal = () => new AbortController().signal;

async function withServer(test: (server: ModelServer) => Promise<void>): Promise<void> {
	const server = await startModelServer({ models: ['llama3.2:3b'] });
	try {
		await test(server);
	} finally {
		await server.close();
	}
}

function openAI(server: ModelServer, path = '/v1', apiKey?: string): OpenAICompatibleProvider {
	return new OpenAICompatibleProvider({ baseUrl: `${server.url}${path}`, ...(apiKey ? { apiKey } : {}) });
}

const paths = (server: ModelServer) => server.requests.map((request) => `${request.method} ${request.path}`);

describe('serverRoot', () => {
	it('drops the API version, keeping a reverse proxy\'s prefix', () => {
		assert.equal(serverRoot('http://localhost:11434/v1'), 'http://localhost:11434');
		assert.equal(serverRoot('http://localhost:11434/v1/'), 'http://localhost:11434');
		assert.equal(serverRoot('https://gpu.example/ollama/v1'), 'https://gpu.example/ollama');
		assert.equal(serverRoot('http://127.0.0.1:8080'), 'http://127.0.0.1:8080');
	});
});

describe('the context window of an OpenAI-compatible server', () => {
	it('vLLM: max_model_len in the model list, with nothing else asked', async () => {
		await withServer(async (server) => {
			server.serve('GET', '/v1/models', { body: vllmModels });
			const provider = openAI(server);
			const listed = await provider.listModels(signal());
			assert.deepEqual(listed, [{ id: 'Qwen/Qwen2.5-Coder-7B-Instruct', name: 'Qwen/Qwen2.5-Coder-7B-Instruct', contextWindow: 24576 }]);
			const window = await provider.contextWindow('Qwen/Qwen2.5-Coder-7B-Instruct', signal());
			assert.equal(window.tokens, 24576);
			assert.equal(window.settled, true);
			assert.deepEqual(paths(server), ['GET /v1/models', 'GET /v1/models']);
		});
	});

	it('OpenRouter: context_length in its model list under /api/v1', async () => {
		await withServer(async (server) => {
			server.serve('GET', '/api/v1/models', { body: openRouterModels });
			const provider = openAI(server, '/api/v1');
			const window = await provider.contextWindow('qwen/qwen-2.5-coder-32b-instruct', signal());
			assert.equal(window.tokens, 32768);
			assert.equal((await provider.contextWindow('anthropic/claude-sonnet-4.5', signal())).tokens, 1_000_000);
			assert.deepEqual(new Set(paths(server)), new Set(['GET /api/v1/models']));
		});
	});

	it("llama.cpp: the slot's n_ctx from /props wins over its Ollama-style /api/show", async () => {
		await withServer(async (server) => {
			server.serve('GET', '/props', { body: llamaCppProps });
			server.serve('POST', '/api/show', { body: llamaCppApiShow });
			const window = await openAI(server).contextWindow('qwen2.5-coder-7b-instruct-q4_k_m.gguf', signal());
			assert.equal(window.tokens, 16384);
			assert.equal(window.settled, true);
			assert.match(window.source, /llama\.cpp \/props/);
		});
	});

	it('Ollama: the loaded model\'s context_length from /api/ps', async () => {
		await withServer(async (server) => {
			server.serve('POST', '/api/show', { body: ollamaShow });
			server.serve('GET', '/api/ps', { body: ollamaPs });
			const window = await openAI(server).contextWindow('llama3.2:3b', signal());
			assert.deepEqual([window.tokens, window.settled], [32768, true]);
			assert.match(window.source, /\/api\/ps/);
			const show = server.requests.find((request) => request.path === '/api/show');
			assert.deepEqual(show?.body, { model: 'llama3.2:3b' }, '/api/show is asked about the model by name');
		});
	});

	it('Ollama: a model named without its tag is the :latest one /api/ps lists', async () => {
		await withServer(async (server) => {
			const [loaded] = ollamaPs.models;
			server.serve('POST', '/api/show', { body: ollamaShow });
			server.serve('GET', '/api/ps', { body: { models: [{ ...loaded, name: 'llama3.2:latest', model: 'llama3.2:latest', context_length: 65536 }] } });
			assert.equal((await openAI(server).contextWindow('llama3.2', signal())).tokens, 65536);
		});
	});

	it('Ollama: num_ctx in the model\'s parameters when it is not loaded', async () => {
		await withServer(async (server) => {
			server.serve('POST', '/api/show', { body: ollamaShowNumCtx });
			server.serve('GET', '/api/ps', { body: ollamaPsEmpty });
			const window = await openAI(server).contextWindow('qwen2.5-coder-8k', signal());
			assert.deepEqual([window.tokens, window.settled], [8192, true]);
		});
	});

	it("Ollama: without num_ctx, its default of 4096 until the model is loaded, then what /api/ps says", async () => {
		await withServer(async (server) => {
			server.serve('POST', '/api/show', { body: ollamaShow });
			server.serve('GET', '/api/ps', { body: ollamaPsEmpty }, { body: ollamaPs });
			const provider = openAI(server);
			const before = await provider.contextWindow('llama3.2:3b', signal());
			assert.deepEqual([before.tokens, before.settled], [4096, false], 'a guess: asked again after the next request');
			const after = await provider.contextWindow('llama3.2:3b', signal());
			assert.deepEqual([after.tokens, after.settled], [32768, true], 'once loaded, /api/ps says');
		});
	});

	it("Ollama: never more than the model's trained context length", async () => {
		await withServer(async (server) => {
			const small = { ...ollamaShowNumCtx, parameters: 'num_ctx                        65536', model_info: { ...ollamaShowNumCtx.model_info, 'qwen2.context_length': 32768 } };
			server.serve('POST', '/api/show', { body: small });
			server.serve('GET', '/api/ps', { body: ollamaPsEmpty });
			assert.equal((await openAI(server).contextWindow('qwen2.5-coder-64k', signal())).tokens, 32768);
		});
	});

	it('LM Studio 0.4: the loaded instance\'s context length; a model not loaded yet is unknown for now', async () => {
		await withServer(async (server) => {
			server.serve('GET', '/api/v1/models', { body: lmStudioV1 });
			const provider = openAI(server);
			const loaded = await provider.contextWindow('qwen/qwen3-coder-30b', signal());
			assert.deepEqual([loaded.tokens, loaded.settled], [16384, true]);
			const notLoaded = await provider.contextWindow('google/gemma-3-12b', signal());
			assert.deepEqual([notLoaded.tokens, notLoaded.settled], [undefined, false], 'not its max_context_length: LM Studio loads with its own default');
		});
	});

	it('LM Studio 0.3: loaded_context_length from /api/v0/models when /api/v1 does not exist', async () => {
		await withServer(async (server) => {
			server.serve('GET', '/api/v0/models', { body: lmStudioV0 });
			const provider = openAI(server);
			assert.equal((await provider.contextWindow('qwen2.5-coder-7b-instruct', signal())).tokens, 8192);
			assert.deepEqual((await provider.contextWindow('meta-llama-3.1-8b-instruct', signal())).tokens, undefined);
		});
	});

	it('a server of no known kind: a settled unknown, every probe answered 404', async () => {
		await withServer(async (server) => {
			server.serve('POST', '/api/show', { status: 404, text: '404 page not found' });
			const window = await openAI(server).contextWindow('gpt-4o', signal());
			assert.deepEqual([window.tokens, window.settled], [undefined, true]);
			assert.match(window.detail ?? '', /llama\.cpp \/props: not this kind of server; Ollama: not this kind of server; LM Studio: not this kind of server/);
			assert.deepEqual(new Set(paths(server)), new Set(['GET /v1/models', 'GET /props', 'POST /api/show', 'GET /api/v1/models', 'GET /api/v0/models']));
		});
	});

	it('a server that cannot be reached: unknown, to be asked again', async () => {
		const server = await startModelServer();
		const provider = openAI(server);
		await server.close();
		const window = await provider.contextWindow('llama3.2', signal());
		assert.deepEqual([window.tokens, window.settled], [undefined, false]);
	});

	it('sends the key to the probes on the base URL\'s origin, as the chat requests go there', async () => {
		await withServer(async (server) => {
			server.serve('GET', '/props', { body: llamaCppProps });
			await openAI(server, '/v1', 'sk-local-123').contextWindow('m', signal());
			const props = server.requests.find((request) => request.path === '/props');
			assert.equal(props?.headers.authorization, 'Bearer sk-local-123');
		});
	});
});

describe('the context window of an Anthropic model', () => {
	it('max_input_tokens from the Models API, for one model and in the list', async () => {
		await withServer(async (server) => {
			server.serve('GET', '/v1/models/claude-sonnet-4-5', { body: anthropicModel });
			server.serve('GET', '/v1/models', { body: anthropicModels });
			const provider = new AnthropicProvider({ apiKey: 'sk-ant-test', baseUrl: server.url });
			const window = await provider.contextWindow('claude-sonnet-4-5', signal());
			assert.deepEqual([window.tokens, window.settled], [200_000, true]);
			assert.equal(server.requests[0]?.headers['x-api-key'], 'sk-ant-test');
			const listed = await provider.listModels(signal());
			assert.deepEqual(listed.map((model) => [model.id, model.contextWindow]), [
				['claude-opus-4-6', 1_000_000],
				['claude-haiku-4-5-20251001', 200_000],
			]);
		});
	});

	it('a gateway without the endpoint is a settled unknown; a refused key may answer later', async () => {
		await withServer(async (server) => {
			const provider = new AnthropicProvider({ apiKey: 'sk-ant-test', baseUrl: server.url });
			const missing = await provider.contextWindow('claude-sonnet-4-5', signal());
			assert.deepEqual([missing.tokens, missing.settled], [undefined, true]);
			server.serve('GET', '/v1/models/claude-sonnet-4-5', { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } });
			const refused = await provider.contextWindow('claude-sonnet-4-5', signal());
			assert.deepEqual([refused.tokens, refused.settled], [undefined, false]);
			assert.doesNotMatch(refused.detail ?? '', /sk-ant-test/);
		});
	});
});
