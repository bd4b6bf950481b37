// One HTTP exchange of a provider, shared by both HTTP providers: fetch with redirects followed
// by hand, so the API key (`x-api-key`, `authorization`) is never sent to another origin; no
// credentials in the URL; a non-2xx answer or a failed fetch as a ProviderError with the kind and
// retry-after the retry loop (retry.ts) acts on, and the server's explanation.
import { errorMessage } from '../base/errors';
import { ProviderError, type ProviderErrorKind } from './provider';
import { overflowKind } from './overflow';

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
/** An error body longer than this is not read further: the explanation is at its start. */
const MAX_ERROR_BODY_CHARS = 64 * 1024;

/**
 * fetch, with a refused connection or DNS failure as a 'network' ProviderError. Redirects on the
 * same origin are followed as fetch would; one to another origin is refused with a clear error
 * instead of carrying the key there. A URL with a user name or password is refused unsent.
 */
export async function fetchOrFail(fetchFn: typeof fetch, label: string, url: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
	let target = parseUrl(label, url);
	let request = init;
	for (let redirects = 0; ; redirects++) {
		let response: Response;
		try {
			response = await fetchFn(target.href, { ...request, redirect: 'manual', signal });
		} catch (error) {
			throw failureOf(error, signal, (cause) => new ProviderError('network', `Could not reach ${label}: ${describe(cause)}`, { cause }));
		}
		// A browser-style fetch hides where a manual redirect goes: it cannot be checked, so it is not followed.
		const opaque = response.type === 'opaqueredirect';
		const location = opaque ? null : REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
		if (location === null && !opaque) {
			return response;
		}
		await response.body?.cancel().catch(() => undefined);
		const next = location === null ? null : URL.parse(location, target.href);
		if (!next || next.origin !== target.origin) {
			const where = next ? `to ${next.origin}, another origin` : 'to a place it does not say';
			throw new ProviderError('bad-request', `${label} redirected the request ${where}; Aside does not send your API key there. If that server is the right one, set aside.baseUrl to it.`, {
				status: response.status,
			});
		}
		if (redirects >= MAX_REDIRECTS) {
			throw new ProviderError('bad-request', `${label} redirected the request more than ${MAX_REDIRECTS} times.`, { status: response.status });
		}
		request = redirected(request, response.status);
		target = next;
	}
}

function parseUrl(label: string, url: string): URL {
	const parsed = URL.parse(url);
	if (!parsed) {
		throw new ProviderError('bad-request', `The base URL for ${label} is not a URL; check aside.baseUrl.`);
	}
	if (parsed.username !== '' || parsed.password !== '') {
		throw new ProviderError(
			'bad-request',
			`The base URL for ${label} has a user name or password in it; Aside does not send or show credentials in a URL. Remove them from aside.baseUrl and store the key with "Aside: Set API Key".`,
		);
	}
	return parsed;
}

/** The request to repeat after a redirect: what fetch does (303, and POST after 301/302, become a GET without a body). */
function redirected(init: RequestInit, status: number): RequestInit {
	const method = (init.method ?? 'GET').toUpperCase();
	if ((status === 303 && method !== 'GET' && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
		const headers = new Headers(init.headers);
		headers.delete('content-type');
		return { ...init, method: 'GET', headers, body: null };
	}
	return init;
}

/** undici hides the useful part ("ECONNREFUSED 127.0.0.1:1") in the cause of "fetch failed". */
function describe(error: unknown): string {
	const cause = error instanceof Error ? (error.cause as { message?: unknown; code?: unknown } | undefined) : undefined;
	const detail = cause?.message ?? cause?.code;
	const message = errorMessage(error);
	return typeof detail === 'string' && detail !== '' ? `${message} (${detail})` : message;
}

/** At most `maxChars` of a body's text; the rest is not read (a body can be endless). */
export async function readText(body: ReadableStream<Uint8Array> | null, maxChars: number): Promise<string> {
	if (!body) {
		return '';
	}
	const reader = body.getReader();
	const decoder = new TextDecoder();
	let text = '';
	try {
		while (text.length < maxChars) {
			const { done, value } = await reader.read();
			if (done) {
				return text + decoder.decode();
			}
			text += decoder.decode(value, { stream: true });
		}
		await reader.cancel().catch(() => undefined);
		return text.slice(0, maxChars);
	} finally {
		reader.releaseLock();
	}
}

/** A non-2xx response as a ProviderError; reads the start of the body for the server's message. */
export async function errorFromResponse(label: string, response: Response, options: StatusOptions = {}): Promise<ProviderError> {
	const bodyText = await readText(response.body, MAX_ERROR_BODY_CHARS).catch(() => '');
	const message = errorMessageOf(bodyText);
	const retryAfterMs = parseRetryAfter(response.headers, options.now);
	const kind = overflowKind(kindForStatus(response.status, options.overloadedStatus), response.status, bodyText);
	return new ProviderError(kind, `HTTP ${response.status} from ${label}${message ? `: ${message}` : ''}`, {
		status: response.status,
		...(retryAfterMs === undefined ? {} : { retryAfterMs }),
	});
}

export interface StatusOptions {
	/** Anthropic's 529 "overloaded"; elsewhere a 529 is just a server error. */
	readonly overloadedStatus?: number;
	/** For an HTTP-date `retry-after`. */
	readonly now?: number;
}

/** The wait a server asks for, from `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
	const ms = Number(headers.get('retry-after-ms') ?? Number.NaN);
	if (Number.isFinite(ms) && ms >= 0) {
		return ms;
	}
	const value = headers.get('retry-after')?.trim();
	if (!value) {
		return undefined;
	}
	const seconds = Number(value);
	if (Number.isFinite(seconds)) {
		return seconds >= 0 ? seconds * 1000 : undefined;
	}
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function kindForStatus(status: number, overloadedStatus?: number): ProviderErrorKind {
	if (status === 401 || status === 403) {
		return 'auth';
	}
	if (status === 429) {
		return 'rate-limit';
	}
	if (status === overloadedStatus) {
		return 'overloaded';
	}
	if (status === 408) {
		return 'timeout';
	}
	return status >= 500 ? 'server' : 'bad-request';
}

/** The server's own explanation from an error body: `{error: {message}}`, `{error: "…"}` or `{message}`. */
export function errorMessageOf(bodyText: string): string {
	try {
		const body: unknown = JSON.parse(bodyText);
		const error = field(body, 'error');
		const message = field(error, 'message') ?? error ?? field(body, 'message');
		if (typeof message === 'string') {
			return message;
		}
	} catch {
		// Not JSON: a proxy's HTML page or plain text, quoted below.
	}
	const text = bodyText.trim().replace(/\s+/g, ' ');
	return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function field(value: unknown, name: string): unknown {
	return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** What fetch (or reading a body) threw, as a ProviderError: the caller's abort wins over anything else. */
export function failureOf(error: unknown, signal: AbortSignal, fallback: (cause: unknown) => ProviderError): ProviderError {
	if (signal.aborted) {
		return error instanceof ProviderError && error.kind === 'cancelled' ? error : new ProviderError('cancelled', 'The request was stopped.', { cause: error });
	}
	return error instanceof ProviderError ? error : fallback(error);
}
