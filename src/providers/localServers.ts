// The common local OpenAI-compatible servers, and a probe for the two that have a recognisable
// answer on their default port (Ollama's `/api/tags`, LM Studio's `/v1/models`). The probe sends
// no key and no header, follows no redirect, and gives up quickly: it only asks "is it there?".
import * as z from 'zod';

export type LocalServerId = 'ollama' | 'lmstudio' | 'llamacpp' | 'vllm';

export interface LocalServer {
	readonly id: LocalServerId;
	readonly name: string;
	readonly defaultPort: number;
	/** The path that tells this server apart, when it has one worth probing. */
	readonly probePath?: string;
}

export const LOCAL_SERVERS: readonly LocalServer[] = [
	{ id: 'ollama', name: 'Ollama', defaultPort: 11434, probePath: '/api/tags' },
	{ id: 'lmstudio', name: 'LM Studio', defaultPort: 1234, probePath: '/v1/models' },
	{ id: 'llamacpp', name: 'llama.cpp server', defaultPort: 8080 },
	{ id: 'vllm', name: 'vLLM', defaultPort: 8000 },
];

/** Ports in place of the defaults (only the integration tests move them). */
export type LocalPorts = Partial<Record<LocalServerId, number>>;

export function localServerUrl(server: LocalServer, ports: LocalPorts = {}): string {
	return `http://localhost:${ports[server.id] ?? server.defaultPort}/v1`;
}

export interface DetectedServer {
	readonly id: LocalServerId;
	readonly name: string;
	/** The OpenAI-compatible base URL to use. */
	readonly baseUrl: string;
	readonly models: number;
}

/** "Use Ollama on localhost:11434 (3 models)". */
export function offerLabel(server: DetectedServer): string {
	const { host } = new URL(server.baseUrl);
	return `Use ${server.name} on ${host} (${server.models} model${server.models === 1 ? '' : 's'})`;
}

const OllamaTags = z.object({ models: z.array(z.object({ name: z.string() })) });
const OpenAIModels = z.object({ data: z.array(z.object({ id: z.string() })) });

async function probe(server: LocalServer, ports: LocalPorts, fetchImpl: typeof fetch, signal: AbortSignal): Promise<DetectedServer | undefined> {
	if (server.probePath === undefined) {
		return undefined;
	}
	const baseUrl = localServerUrl(server, ports);
	const url = new URL(server.probePath, baseUrl);
	try {
		const response = await fetchImpl(url, { method: 'GET', redirect: 'manual', signal });
		if (response.status !== 200) {
			return undefined;
		}
		const body: unknown = await response.json();
		const ollama = OllamaTags.safeParse(body);
		const openai = OpenAIModels.safeParse(body);
		const models = server.id === 'ollama' ? (ollama.success ? ollama.data.models.length : undefined) : openai.success ? openai.data.data.length : undefined;
		return models === undefined ? undefined : { id: server.id, name: server.name, baseUrl, models };
	} catch {
		// Nothing listening, something else listening, or too slow: not found.
		return undefined;
	}
}

export interface DetectOptions {
	readonly ports?: LocalPorts;
	readonly timeoutMs?: number;
	readonly signal?: AbortSignal;
	readonly fetch?: typeof fetch;
}

/** The local servers answering on this machine now, in LOCAL_SERVERS order. */
export async function detectLocalServers(options: DetectOptions = {}): Promise<DetectedServer[]> {
	const timeout = AbortSignal.timeout(options.timeoutMs ?? 1500);
	const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
	const found = await Promise.all(LOCAL_SERVERS.map((server) => probe(server, options.ports ?? {}, options.fetch ?? globalThis.fetch, signal)));
	return found.filter((server) => server !== undefined);
}

/**
 * `ASIDE_TEST_LOCAL_PORTS=ollama=43121,lmstudio=43122`: lets the integration tests stand a scripted
 * server in for a local one. Honoured only with ASIDE_TEST_HOOKS=1, and read at each probe.
 */
export function testLocalPorts(env: Readonly<Record<string, string | undefined>>): LocalPorts {
	if (env.ASIDE_TEST_HOOKS !== '1' || !env.ASIDE_TEST_LOCAL_PORTS) {
		return {};
	}
	const ports: LocalPorts = {};
	for (const pair of env.ASIDE_TEST_LOCAL_PORTS.split(',')) {
		const [id, port] = pair.split('=').map((part) => part.trim());
		const server = LOCAL_SERVERS.find((candidate) => candidate.id === id);
		const number = Number(port);
		if (server && Number.isInteger(number) && number > 0 && number < 65536) {
			ports[server.id] = number;
		}
	}
	return ports;
}
