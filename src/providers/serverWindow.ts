// Asking an OpenAI-compatible server how big a model's context window is. The Chat Completions
// API has no field for it, so each kind of server is asked in its own way, at the server's root
// (`aside.baseUrl` without its `/v1`):
// - vLLM and OpenRouter say it in the model list (`max_model_len`, `context_length`);
// - llama.cpp's server: `GET /props` → `default_generation_settings.n_ctx` (the context of one
//   slot, which is what one request gets);
// - Ollama: `GET /api/ps` → the loaded model's `context_length`; before it is loaded,
//   `POST /api/show` → `num_ctx` in `parameters` when the model sets one, else Ollama's default
//   (4096 tokens below 24 GiB of VRAM; 32k up to 48 GiB and 256k above, or
//   OLLAMA_CONTEXT_LENGTH — which only the loaded model shows), never more than the model's
//   `model_info["<arch>.context_length"]`;
// - LM Studio: `GET /api/v1/models` (0.4+) or `GET /api/v0/models` (0.3.6+) → the loaded
//   instance's context length; a model not loaded yet gets LM Studio's load default, unknown here.
// A server of another kind answers these paths with 404, which just means "not this kind".
import * as z from 'zod';
import type { DiscoveredWindow } from './contextWindow';

/** One exchange with the server; rejects only when the server cannot be reached (or on abort). */
export type ServerRequest = (method: 'GET' | 'POST', url: string, body?: unknown) => Promise<{ readonly status: number; readonly body: unknown }>;

/** Ollama's default num_ctx below 24 GiB of VRAM (docs/context-length.mdx in ollama/ollama). */
export const OLLAMA_DEFAULT_CONTEXT = 4096;

/** What one probe found: a window, "try again later", or nothing (not this kind of server). */
type Finding = DiscoveredWindow | undefined;

const positive = z.number().int().positive();

/** The fields a model-list entry may carry its window in; anything else there must not fail the list. */
export const ListedWindow = z.object({ max_model_len: z.unknown().optional(), context_length: z.unknown().optional() });

/** The window a model-list entry carries, if the server puts one there: vLLM's `max_model_len`, OpenRouter's `context_length`. */
export function listedWindow(entry: z.infer<typeof ListedWindow>): number | undefined {
	return positive.safeParse(entry.max_model_len).data ?? positive.safeParse(entry.context_length).data;
}

/** `aside.baseUrl` without the API version: where the servers' own endpoints are. */
export function serverRoot(baseUrl: string): string {
	const url = new URL(baseUrl);
	url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
	url.search = '';
	url.hash = '';
	return url.toString().replace(/\/+$/, '');
}

/** 401/403 (a key may come), 408/429 and 5xx may answer differently later; other errors mean "not here". */
function retryable(status: number): boolean {
	return status === 401 || status === 403 || status === 408 || status === 429 || status >= 500;
}

interface Probe {
	readonly name: string;
	run(): Promise<Finding>;
}

/** A request that never throws: a network failure becomes status 0. */
async function exchange(request: ServerRequest, method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; body: unknown }> {
	try {
		return await request(method, url, body);
	} catch (error) {
		if (error instanceof Error && error.name === 'AbortError') {
			throw error;
		}
		return { status: 0, body: undefined };
	}
}

function unanswered(status: number, source: string): Finding {
	return status === 0 || retryable(status) ? { settled: false, source, detail: `${source}: ${status === 0 ? 'unreachable' : `HTTP ${status}`}` } : undefined;
}

const Props = z.object({ default_generation_settings: z.object({ n_ctx: positive }) });

function llamaCppProbe(request: ServerRequest, root: string): Probe {
	const source = 'llama.cpp /props';
	return {
		name: source,
		run: async () => {
			const { status, body } = await exchange(request, 'GET', `${root}/props`);
			if (status !== 200) {
				return unanswered(status, source);
			}
			const parsed = Props.safeParse(body);
			return parsed.success ? { tokens: parsed.data.default_generation_settings.n_ctx, settled: true, source } : undefined;
		},
	};
}

const Show = z.object({
	parameters: z.string().nullish(),
	model_info: z.record(z.string(), z.unknown()).nullish(),
	remote_host: z.string().nullish(),
});
const Running = z.object({
	models: z.array(z.object({ name: z.string().optional(), model: z.string().optional(), context_length: z.number().int().nullish() })),
});

/** Ollama names `llama3.2` and `llama3.2:latest` the same model. */
function sameOllamaModel(a: string | undefined, b: string): boolean {
	const tagged = (name: string) => (name.includes(':') ? name : `${name}:latest`);
	return a !== undefined && tagged(a) === tagged(b);
}

/** `num_ctx  8192` in the parameters text of /api/show. */
function numCtxOf(parameters: string | null | undefined): number | undefined {
	const match = /^num_ctx\s+(\d+)\s*$/m.exec(parameters ?? '');
	const value = match ? Number(match[1]) : Number.NaN;
	return Number.isInteger(value) && value > 0 ? value : undefined;
}

/** `<arch>.context_length` in model_info: what the model was trained for, the most Ollama will use. */
function trainedContextOf(info: Record<string, unknown> | null | undefined): number | undefined {
	const arch = info?.['general.architecture'];
	const value = typeof arch === 'string' ? info?.[`${arch}.context_length`] : undefined;
	return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function ollamaProbe(request: ServerRequest, root: string, model: string): Probe {
	return {
		name: 'Ollama',
		run: async () => {
			const shown = await exchange(request, 'POST', `${root}/api/show`, { model });
			if (shown.status !== 200) {
				return unanswered(shown.status, 'Ollama /api/show');
			}
			const show = Show.safeParse(shown.body);
			if (!show.success) {
				return undefined;
			}
			const trained = trainedContextOf(show.data.model_info);
			const running = await exchange(request, 'GET', `${root}/api/ps`);
			const loaded = Running.safeParse(running.body);
			const entry = loaded.success ? loaded.data.models.find((m) => sameOllamaModel(m.model ?? m.name, model)) : undefined;
			if (entry?.context_length && entry.context_length > 0) {
				return { tokens: entry.context_length, settled: true, source: 'Ollama /api/ps (the loaded model)' };
			}
			const numCtx = numCtxOf(show.data.parameters);
			if (numCtx !== undefined) {
				return { tokens: Math.min(numCtx, trained ?? numCtx), settled: true, source: 'Ollama /api/show (num_ctx)' };
			}
			if (show.data.remote_host && trained !== undefined) {
				// Cloud models run at their full context length (Ollama's context-length docs).
				return { tokens: trained, settled: true, source: 'Ollama /api/show (a cloud model at its full length)' };
			}
			return { tokens: Math.min(OLLAMA_DEFAULT_CONTEXT, trained ?? OLLAMA_DEFAULT_CONTEXT), settled: false, source: "Ollama's default context length (model not loaded yet)" };
		},
	};
}

const LmStudioV1 = z.object({
	models: z.array(
		z.object({ key: z.string(), loaded_instances: z.array(z.object({ config: z.object({ context_length: positive.nullish() }).nullish() })).nullish() }),
	),
});
const LmStudioV0 = z.object({
	data: z.array(z.object({ id: z.string(), state: z.string().nullish(), loaded_context_length: positive.nullish() })),
});

function lmStudioProbe(request: ServerRequest, root: string, model: string): Probe {
	const notLoaded: Finding = { settled: false, source: 'LM Studio (model not loaded yet)' };
	return {
		name: 'LM Studio',
		run: async () => {
			const v1 = await exchange(request, 'GET', `${root}/api/v1/models`);
			const parsedV1 = v1.status === 200 ? LmStudioV1.safeParse(v1.body) : undefined;
			if (parsedV1?.success) {
				const entry = parsedV1.data.models.find((m) => m.key === model);
				if (!entry) {
					return undefined;
				}
				const loaded = entry.loaded_instances?.find((instance) => instance.config?.context_length)?.config?.context_length;
				return loaded ? { tokens: loaded, settled: true, source: 'LM Studio /api/v1/models (the loaded instance)' } : notLoaded;
			}
			const v0 = await exchange(request, 'GET', `${root}/api/v0/models`);
			if (v0.status !== 200) {
				return unanswered(v0.status, 'LM Studio /api/v0/models') ?? unanswered(v1.status, 'LM Studio /api/v1/models');
			}
			const parsedV0 = LmStudioV0.safeParse(v0.body);
			const entry = parsedV0.success ? parsedV0.data.data.find((m) => m.id === model) : undefined;
			if (!entry) {
				return undefined;
			}
			return entry.state === 'loaded' && entry.loaded_context_length ? { tokens: entry.loaded_context_length, settled: true, source: 'LM Studio /api/v0/models (the loaded model)' } : notLoaded;
		},
	};
}

/**
 * Asks the server at `root` about `model`, all kinds at once (each is one or two small requests,
 * and a server of another kind answers 404). A settled answer wins over a guess; among equals,
 * llama.cpp's /props (which knows its slot size) comes before Ollama's /api/show, which
 * llama.cpp also imitates, then LM Studio.
 */
export async function askServer(request: ServerRequest, root: string, model: string): Promise<DiscoveredWindow> {
	const probes = [llamaCppProbe(request, root), ollamaProbe(request, root, model), lmStudioProbe(request, root, model)];
	const findings = await Promise.all(probes.map((probe) => probe.run()));
	const detail = probes.map((probe, index) => `${probe.name}: ${describe(findings[index])}`).join('; ');
	const found = findings.filter((finding): finding is DiscoveredWindow => finding?.tokens !== undefined);
	const best = found.find((finding) => finding.settled) ?? found[0];
	if (best) {
		return { ...best, detail };
	}
	const retry = findings.some((finding) => finding !== undefined && !finding.settled);
	return { settled: !retry, source: 'nothing', detail };
}

function describe(finding: Finding): string {
	if (finding === undefined) {
		return 'not this kind of server';
	}
	if (finding.tokens !== undefined) {
		return `${finding.tokens} tokens`;
	}
	return finding.detail ?? finding.source;
}
