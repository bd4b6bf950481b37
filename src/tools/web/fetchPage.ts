// A web fetch from URL to response: the URL checked (http or https, no credentials), each hop's
// host resolved and its addresses checked, the request sent to a checked address, redirects
// followed by hand. A redirect to another host is not followed: the call ends there and says
// where it leads, so a fetch there is a call of its own, decided again (rules, mode, local
// addresses) — the approval of one host never carries to another. A hop whose host now resolves
// to a local address no card named stops the call with a message the model can act on.
import { type CheckedAddress, hostOf, localWords, resolveHost } from './addresses';
import type { LocalApprovals } from './localApprovals';
import { isRedirect, requestOnce, type RequestOptions, type WebResponse, WebFetchError } from './request';

/** At most this many redirects within one host. */
export const MAX_REDIRECTS = 8;

/** The URL a call names, checked: http or https, and no user name or password in it. */
export function parseFetchUrl(raw: string): URL {
	let url: URL;
	try {
		url = new URL(raw.trim());
	} catch {
		throw new WebFetchError(`"${raw.slice(0, 200)}" is not a URL: give a whole http:// or https:// URL`);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new WebFetchError(`WebFetch fetches http and https URLs only, not ${url.protocol.replace(/:$/, '')}`);
	}
	if (url.username !== '' || url.password !== '') {
		throw new WebFetchError('the URL has a user name or password in it; WebFetch sends no credentials: give the URL without them');
	}
	url.hash = '';
	return url;
}

/** The host a call's input names (a permission rule's domain), or undefined when its URL is not one WebFetch takes. */
export function fetchDomain(input: unknown): string | undefined {
	const url = (input as { readonly url?: unknown } | null)?.url;
	if (typeof url !== 'string') {
		return undefined;
	}
	try {
		return hostOf(parseFetchUrl(url));
	} catch {
		return undefined;
	}
}

export interface FetchOptions {
	readonly timeoutMs: number;
	readonly maxBytes: number;
	readonly signal: AbortSignal;
	/** What the cards asked about: a local address a card did not name is not reached. */
	readonly approvals: LocalApprovals;
}

export type FetchOutcome =
	| { readonly kind: 'response'; readonly url: URL; readonly response: WebResponse; readonly redirects: readonly string[] }
	/** A redirect to another host, not followed. */
	| { readonly kind: 'elsewhere'; readonly url: URL; readonly status: number; readonly location: URL; readonly redirects: readonly string[] };

async function checked(host: string): Promise<readonly CheckedAddress[]> {
	try {
		return await resolveHost(host);
	} catch (error) {
		throw new WebFetchError(`the host ${host} could not be resolved (${error instanceof Error ? error.message : String(error)})`);
	}
}

/** The answer of the first of the checked addresses that can be reached (a name may have an IPv6 and an IPv4 one). */
export async function firstAnswer(url: URL, addresses: readonly CheckedAddress[], request: RequestOptions, timeoutMs: number): Promise<WebResponse> {
	for (const [index, address] of addresses.entries()) {
		try {
			return await requestOnce(url, address, request);
		} catch (error) {
			if (error instanceof WebFetchError && error.stage === 'connect' && index < addresses.length - 1) {
				continue;
			}
			if (error instanceof WebFetchError && /in time/.test(error.message)) {
				throw new WebFetchError(`${error.message}: WebFetch gives a fetch ${Math.round(timeoutMs / 1000)} s`);
			}
			throw error;
		}
	}
	throw new WebFetchError(`the host ${hostOf(url)} has no address`);
}

/** Fetches `start`, following redirects within its host; see the file's comment. */
export async function fetchPage(start: URL, options: FetchOptions): Promise<FetchOutcome> {
	const deadline = Date.now() + options.timeoutMs;
	const redirects: string[] = [];
	let url = start;
	for (;;) {
		const host = hostOf(url);
		const addresses = await checked(host);
		const unasked = options.approvals.unasked(host, addresses);
		if (unasked.length > 0) {
			throw new WebFetchError(
				`${url.href} leads to ${localWords(unasked) ?? 'a local address'}, which is on the person's own computer or network, and the person was not asked about it for this call ` +
					'(the host resolved to another address when the call was decided). Nothing was fetched from it. Call WebFetch with this URL again if you need it: the person will be asked',
			);
		}
		const response = await firstAnswer(url, addresses, { maxBytes: options.maxBytes, deadline, signal: options.signal }, options.timeoutMs);
		if (!isRedirect(response.status)) {
			return { kind: 'response', url, response, redirects };
		}
		const location = response.headers.location;
		if (location === undefined) {
			return { kind: 'response', url, response, redirects };
		}
		let next: URL;
		try {
			next = parseFetchUrl(new URL(location, url).href);
		} catch (error) {
			throw new WebFetchError(`${url.href} redirects to ${location.slice(0, 300)}, which WebFetch does not follow: ${error instanceof Error ? error.message : String(error)}`);
		}
		if (hostOf(next) !== host) {
			return { kind: 'elsewhere', url, status: response.status, location: next, redirects };
		}
		if (redirects.length >= MAX_REDIRECTS) {
			throw new WebFetchError(`${start.href} redirected more than ${MAX_REDIRECTS} times; the last hop was to ${next.href}`);
		}
		redirects.push(url.href);
		url = next;
	}
}
