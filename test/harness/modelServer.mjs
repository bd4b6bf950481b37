// A scripted model server on loopback, speaking the real wire protocols: Anthropic Messages
// (`POST /v1/messages`, `GET /v1/models` with an `anthropic-version` header) and OpenAI Chat
// Completions (`POST …/chat/completions`, `GET …/models`), both streamed as SSE, and Ollama's
// `GET /api/tags`, so it can stand in for a local Ollama. Unit tests use
// it now; integration tests point `aside.baseUrl` at it. Plain ESM, no dependencies.
//
//   const server = await startModelServer();
//   server.script({ text: 'Hello', toolCalls: [{ name: 'Read', input: { path: 'a.ts' } }] }, { status: 429, retryAfter: 1 });
//   … server.requests[0].body …
//   await server.close();
//
// A `raw` step replays a recorded answer byte for byte (`{ raw: ['data: …\n\n', …], gapMs }`), for
// shapes the scripted replies cannot make: other servers' dialects, broken framing, endless events.
import { createServer } from 'node:http';

const TEXT_PIECE = 4;
const JSON_PIECE = 7;

const NEUTRAL_STOPS = {
	anthropic: { end: 'end_turn', 'tool-use': 'tool_use', 'max-tokens': 'max_tokens', refusal: 'refusal' },
	openai: { end: 'stop', 'tool-use': 'tool_calls', 'max-tokens': 'length', refusal: 'content_filter' },
};

const ANTHROPIC_ERROR_TYPES = {
	400: 'invalid_request_error',
	401: 'authentication_error',
	403: 'permission_error',
	404: 'not_found_error',
	413: 'request_too_large',
	429: 'rate_limit_error',
	500: 'api_error',
	529: 'overloaded_error',
};

/** Splits by code point, so a piece never ends inside a surrogate pair, as a real server's tokens don't. */
function pieces(text, size) {
	const chars = Array.from(text);
	const out = [];
	for (let i = 0; i < chars.length; i += size) {
		out.push(chars.slice(i, i + size).join(''));
	}
	return out;
}

function argumentsOf(call) {
	return call.arguments ?? JSON.stringify(call.input ?? {});
}

function wireStop(protocol, step) {
	if (step.stop !== undefined) {
		return NEUTRAL_STOPS[protocol][step.stop] ?? step.stop;
	}
	return NEUTRAL_STOPS[protocol][step.toolCalls?.length ? 'tool-use' : 'end'];
}

function usageOf(step) {
	return step.usage ?? { input: 10, output: 5 };
}

/**
 * Anthropic's message_start usage: `input_tokens` is only the prompt after the last cache
 * breakpoint, the cached parts are their own fields (a scripted `input` is the whole prompt, as
 * Aside counts it), present only when scripted.
 */
function anthropicUsage(usage) {
	const cached = (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
	return {
		input_tokens: Math.max(0, usage.input - cached),
		...(usage.cacheWrite === undefined ? {} : { cache_creation_input_tokens: usage.cacheWrite }),
		...(usage.cacheRead === undefined ? {} : { cache_read_input_tokens: usage.cacheRead }),
		output_tokens: 1,
	};
}

/** OpenAI's usage: prompt_tokens counts the cached part, told in prompt_tokens_details; no cache writes. */
function openaiUsage(usage) {
	return {
		prompt_tokens: usage.input,
		completion_tokens: usage.output,
		total_tokens: usage.input + usage.output,
		...(usage.cacheRead === undefined ? {} : { prompt_tokens_details: { cached_tokens: usage.cacheRead } }),
	};
}

/** An Anthropic message as SSE frames, in the order the API sends them. */
function anthropicFrames(step, model, nextId) {
	const frames = [];
	const add = (data) => frames.push(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
	const usage = usageOf(step);
	add({
		type: 'message_start',
		message: { id: `msg_${nextId()}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: anthropicUsage(usage) },
	});
	add({ type: 'ping' });
	let index = 0;
	if (step.text) {
		add({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
		for (const text of pieces(step.text, TEXT_PIECE)) {
			add({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
		}
		if (step.streamError) {
			add({ type: 'error', error: step.streamError });
			return frames;
		}
		add({ type: 'content_block_stop', index });
		index++;
	}
	if (step.streamError) {
		add({ type: 'error', error: step.streamError });
		return frames;
	}
	for (const call of step.toolCalls ?? []) {
		add({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: call.id ?? `toolu_${nextId()}`, name: call.name, input: {} } });
		for (const partial_json of ['', ...pieces(argumentsOf(call), JSON_PIECE)]) {
			add({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
		}
		add({ type: 'content_block_stop', index });
		index++;
	}
	add({ type: 'message_delta', delta: { stop_reason: wireStop('anthropic', step), stop_sequence: null }, usage: { output_tokens: usage.output } });
	add({ type: 'message_stop' });
	return frames;
}

/** An OpenAI chat completion as SSE frames, ending in `data: [DONE]`. */
function openaiFrames(step, model, nextId) {
	const frames = [];
	const base = { id: `chatcmpl-${nextId()}`, object: 'chat.completion.chunk', created: 1_700_000_000, model };
	const add = (data) => frames.push(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
	const delta = (d, finish_reason = null) => add({ ...base, choices: [{ index: 0, delta: d, finish_reason }] });
	delta({ role: 'assistant', content: '' });
	for (const content of pieces(step.text ?? '', TEXT_PIECE)) {
		delta({ content });
	}
	if (step.streamError) {
		add({ error: step.streamError });
		return frames;
	}
	for (const [index, call] of (step.toolCalls ?? []).entries()) {
		delta({ tool_calls: [{ index, id: call.id ?? `call_${nextId()}`, type: 'function', function: { name: call.name, arguments: '' } }] });
		for (const args of pieces(argumentsOf(call), JSON_PIECE)) {
			delta({ tool_calls: [{ index, function: { arguments: args } }] });
		}
	}
	delta({}, wireStop('openai', step));
	const usage = usageOf(step);
	add({ ...base, choices: [], usage: openaiUsage(usage) });
	add('[DONE]');
	return frames;
}

function errorBody(protocol, step) {
	const message = step.message ?? `Scripted HTTP ${step.status}`;
	if (protocol === 'anthropic') {
		return { type: 'error', error: { type: step.errorType ?? ANTHROPIC_ERROR_TYPES[step.status] ?? 'api_error', message } };
	}
	return { error: { message, type: step.errorType ?? 'server_error', param: null, code: step.errorCode ?? null } };
}

function sendError(res, protocol, step) {
	const headers = { 'content-type': 'application/json' };
	if (step.retryAfter !== undefined) {
		headers['retry-after'] = String(step.retryAfter);
	}
	if (step.retryAfterMs !== undefined) {
		headers['retry-after-ms'] = String(step.retryAfterMs);
	}
	res.writeHead(step.status, headers);
	res.end(JSON.stringify(errorBody(protocol, step)));
}

function write(res, chunk) {
	return new Promise((resolve) => res.write(chunk, () => resolve()));
}

/** Waits, but no longer than the client stays: a pending timer would keep the test process alive. */
function delay(ms, res) {
	return new Promise((resolve) => {
		const done = () => {
			clearTimeout(timer);
			res.off('close', done);
			resolve();
		};
		const timer = setTimeout(done, ms);
		res.once('close', done);
	});
}

function closed(res) {
	return new Promise((resolve) => (res.destroyed ? resolve() : res.once('close', resolve)));
}

async function sendStream(res, frames, step) {
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	res.flushHeaders();
	const limit = step.hangAfterAccept ? 1 : (step.cutAfterChunks ?? frames.length);
	for (const frame of frames.slice(0, limit)) {
		if (res.destroyed) {
			return;
		}
		await write(res, frame);
	}
	if (step.hangAfterAccept) {
		await closed(res);
	} else if (step.cutAfterChunks !== undefined) {
		res.cutByScript = true;
		res.socket?.destroy();
	} else {
		res.end();
	}
}

/** Resolves when the chunk is handed to the socket, or the client is gone. */
function sent(res, chunk) {
	return new Promise((resolve) => {
		const done = () => {
			res.off('close', done);
			resolve();
		};
		res.once('close', done);
		res.write(chunk, done);
	});
}

/**
 * A raw answer: `raw` chunks exactly as given (a gap of `gapMs` before each), then `repeat` over and
 * over until the client goes away if set, then the end `end` asks for: 'close' (default), 'cut'
 * (destroy the socket) or 'hang' (until the client goes away).
 */
async function sendRaw(res, step) {
	res.writeHead(step.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...step.headers });
	res.flushHeaders();
	const next = async (chunk) => {
		if (step.gapMs) {
			await delay(step.gapMs, res);
		}
		if (!res.destroyed) {
			await sent(res, chunk);
		}
	};
	for (const chunk of step.raw) {
		await next(chunk);
	}
	while (step.repeat !== undefined && !res.destroyed) {
		await next(step.repeat);
	}
	if (res.destroyed) {
		return;
	}
	if (step.end === 'cut') {
		res.cutByScript = true;
		res.socket?.destroy();
	} else if (step.end === 'hang') {
		await closed(res);
	} else {
		res.end();
	}
}

function modelList(protocol, models) {
	if (protocol === 'ollama') {
		const details = { format: 'gguf', family: 'llama', parameter_size: '1B', quantization_level: 'Q4_K_M' };
		return { models: models.map((name) => ({ name, model: name, modified_at: '2025-01-01T00:00:00Z', size: 1_000_000, digest: 'sha256:0', details })) };
	}
	if (protocol === 'anthropic') {
		const data = models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }));
		return { data, has_more: false, first_id: models[0] ?? null, last_id: models.at(-1) ?? null };
	}
	return { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'test' })) };
}

/** Which endpoint a request is for, or null for a 404. */
function routeOf(method, path, headers) {
	const protocol = headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined ? 'anthropic' : 'openai';
	if (method === 'POST' && path === '/v1/messages') {
		return { kind: 'chat', protocol: 'anthropic' };
	}
	if (method === 'POST' && path.endsWith('/chat/completions')) {
		return { kind: 'chat', protocol: 'openai' };
	}
	if (method === 'GET' && path.endsWith('/models')) {
		return { kind: 'models', protocol };
	}
	// Ollama's own model list, which tells it apart from other OpenAI-compatible servers.
	if (method === 'GET' && path === '/api/tags') {
		return { kind: 'models', protocol: 'ollama' };
	}
	return null;
}

async function readBody(req) {
	const chunks = [];
	for await (const chunk of req) {
		chunks.push(chunk);
	}
	const raw = Buffer.concat(chunks).toString('utf8');
	if (raw === '') {
		return undefined;
	}
	try {
		return JSON.parse(raw);
	} catch {
		return raw;
	}
}

/**
 * A server's own endpoints beside the chat API (Ollama's /api/show, llama.cpp's /props, a model
 * list with windows…), answered with bodies recorded from the real servers. Each request takes
 * the next reply; the last one stays. True when the path is served this way.
 */
async function answerServed(served, method, path, res) {
	const replies = served.get(`${method} ${path}`);
	if (!replies || replies.length === 0) {
		return false;
	}
	const reply = replies.length > 1 ? replies.shift() : replies[0];
	if (reply.hang) {
		await closed(res);
		return true;
	}
	if (reply.text !== undefined) {
		res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain; charset=utf-8' });
		res.end(reply.text);
		return true;
	}
	res.writeHead(reply.status ?? 200, { 'content-type': 'application/json; charset=utf-8' });
	res.end(JSON.stringify(reply.body ?? {}));
	return true;
}

/**
 * The chat step for a request: the first step with `match` that the request's body contains (so
 * concurrent requests, a sub-agent's and its parent's, are answered deterministically), else the
 * first step without `match`.
 */
function takeChatStep(steps, body) {
	const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
	let index = steps.findIndex((step) => typeof step.match === 'string' && text.includes(step.match));
	if (index < 0) {
		index = steps.findIndex((step) => step.match === undefined);
	}
	return index < 0 ? {} : steps.splice(index, 1)[0];
}

/**
 * Starts the server on 127.0.0.1 and a free port. `script(...steps)` queues one reply per chat
 * request; `scriptModels(...steps)` one per model-list request. Unscripted, chat answers "ok".
 */
export async function startModelServer(options = {}) {
	const requests = [];
	const chatSteps = [];
	const modelSteps = [];
	let ids = 0;
	const nextId = () => String(++ids);
	const models = options.models ?? ['test-model', 'test-model-large'];

	const served = new Map();
	let disconnects = 0;
	let disconnectWaiters = [];

	/** A client that went away before its reply ended (Stop), as opposed to a scripted cut. */
	function trackDisconnect(res) {
		res.once('close', () => {
			if (!res.writableFinished && !res.cutByScript) {
				disconnects++;
				disconnectWaiters = disconnectWaiters.filter((waiter) => !waiter());
			}
		});
	}

	async function handle(req, res) {
		trackDisconnect(res);
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const body = await readBody(req);
		requests.push({ method: req.method, path: url.pathname, headers: req.headers, body });
		if (await answerServed(served, req.method, url.pathname, res)) {
			return;
		}
		const route = routeOf(req.method, url.pathname, req.headers);
		if (!route) {
			sendError(res, 'openai', { status: 404, message: `No route for ${req.method} ${url.pathname}` });
			return;
		}
		const step = route.kind === 'chat' ? takeChatStep(chatSteps, body) : (modelSteps.shift() ?? {});
		if (step.delayMs) {
			await delay(step.delayMs, res);
			if (res.destroyed) {
				return;
			}
		}
		if (step.redirect) {
			res.writeHead(step.redirect.status ?? 307, { location: step.redirect.location });
			res.end();
		} else if (step.raw) {
			await sendRaw(res, step);
		} else if (step.status !== undefined && step.status !== 200) {
			sendError(res, route.protocol, step);
		} else if (route.kind === 'models') {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(modelList(route.protocol, step.models ?? models)));
		} else {
			const reply = step.text === undefined && step.toolCalls === undefined && !step.streamError ? { ...step, text: 'ok' } : step;
			const model = typeof body?.model === 'string' ? body.model : 'test-model';
			const frames = route.protocol === 'anthropic' ? anthropicFrames(reply, model, nextId) : openaiFrames(reply, model, nextId);
			await sendStream(res, frames, reply);
		}
	}

	const server = createServer((req, res) => {
		handle(req, res).catch((error) => {
			console.error('modelServer:', error);
			res.destroy();
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}`,
		port,
		requests,
		script: (...steps) => void chatSteps.push(...steps.flat()),
		scriptModels: (...steps) => void modelSteps.push(...steps.flat()),
		serve: (method, path, ...replies) => void served.set(`${method} ${path}`, replies.flat()),
		pending: () => chatSteps.length,
		disconnects: () => disconnects,
		waitForDisconnects: (count = 1) =>
			new Promise((resolve) => {
				const waiter = () => disconnects >= count && (resolve(), true);
				if (!waiter()) {
					disconnectWaiters.push(waiter);
				}
			}),
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
