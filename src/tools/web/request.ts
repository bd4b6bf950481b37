// One GET of one URL, to the address that was checked (never a second DNS answer: the socket's
// lookup returns it), with no cookies, no credentials and no Authorization. The body is read as
// it streams, decompressed, and cut at a byte bound, so a 200 MB page costs at most the bound;
// the whole exchange has a deadline. Redirects are not followed here: the caller checks each hop.
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import * as zlib from 'node:zlib';
import type { Readable } from 'node:stream';
import type { CheckedAddress } from './addresses';

export interface WebResponse {
	readonly status: number;
	readonly statusText: string;
	/** Lower-case names; a repeated header's values joined with ", ". */
	readonly headers: Readonly<Record<string, string>>;
	/** The body as received (decompressed), at most the bound; empty for a redirect. */
	readonly body: Uint8Array;
	/** Whether the body went on past the bound (what came after was not read). */
	readonly cut: boolean;
}

export interface RequestOptions {
	readonly maxBytes: number;
	/** When the whole fetch must have ended (Date.now() time). */
	readonly deadline: number;
	readonly signal: AbortSignal;
}

/** Why a request failed, in words the model can act on. */
export class WebFetchError extends Error {
	override readonly name = 'WebFetchError';

	/** `connect`: the address could not be reached at all (another of the host's may be). */
	constructor(message: string, readonly stage?: 'connect') {
		super(message);
	}
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function isRedirect(status: number): boolean {
	return REDIRECTS.has(status);
}

const HEADERS = {
	'user-agent': 'Aside-WebFetch/1 (VS Code extension)',
	accept: 'text/markdown, text/html;q=0.9, text/plain;q=0.8, application/pdf;q=0.7, */*;q=0.5',
	'accept-encoding': 'gzip, deflate, br',
} as const;

function pinned(address: CheckedAddress): LookupFunction {
	return (_host, options, callback) => {
		if ((options as { all?: boolean }).all === true) {
			const all = callback as unknown as (error: null, addresses: readonly { address: string; family: number }[]) => void;
			all(null, [{ address: address.address, family: address.family }]);
		} else {
			callback(null, address.address, address.family);
		}
	};
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
	const flat: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined && name !== 'set-cookie') {
			flat[name] = Array.isArray(value) ? value.join(', ') : value;
		}
	}
	return flat;
}

function decoded(response: http.IncomingMessage): Readable {
	const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
	switch (encoding) {
		case 'gzip':
		case 'x-gzip':
			return response.pipe(zlib.createGunzip());
		case 'deflate':
			return response.pipe(zlib.createInflate());
		case 'br':
			return response.pipe(zlib.createBrotliDecompress());
		default:
			return response;
	}
}

/** GETs `url` from `address`; resolves with the status, headers and the bounded body. */
export function requestOnce(url: URL, address: CheckedAddress, options: RequestOptions): Promise<WebResponse> {
	return new Promise<WebResponse>((resolve, reject) => {
		const secure = url.protocol === 'https:';
		const left = options.deadline - Date.now();
		if (left <= 0 || options.signal.aborted) {
			reject(new WebFetchError(options.signal.aborted ? 'the fetch was cancelled' : 'the time for the fetch ran out before this request'));
			return;
		}
		let settled = false;
		const chunks: Buffer[] = [];
		let size = 0;
		let status: { readonly status: number; readonly statusText: string; readonly headers: Record<string, string> } | undefined;
		const finish = (cut: boolean): void => {
			if (settled || !status) {
				return;
			}
			settled = true;
			cleanup();
			resolve({ ...status, body: new Uint8Array(Buffer.concat(chunks, size)), cut });
			request.destroy();
		};
		const fail = (error: Error): void => {
			if (settled) {
				return;
			}
			settled = true;
			cleanup();
			reject(error);
			request.destroy();
		};
		const timer = setTimeout(() => {
			fail(new WebFetchError(status ? `the page did not finish arriving in time (${size} bytes had come)` : 'the server did not answer in time'));
		}, left);
		const onAbort = (): void => {
			fail(new WebFetchError('the fetch was cancelled'));
		};
		const cleanup = (): void => {
			clearTimeout(timer);
			options.signal.removeEventListener('abort', onAbort);
		};
		options.signal.addEventListener('abort', onAbort);
		const named = url.hostname.startsWith('[') || /^[\d.]+$/.test(url.hostname) ? {} : { servername: url.hostname.replace(/\.$/, '') };
		const request = (secure ? https : http).request(
			url,
			{ method: 'GET', headers: HEADERS, agent: false, lookup: pinned(address), ...(secure ? named : {}) },
			(response) => {
				status = { status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', headers: flatHeaders(response.headers) };
				if (isRedirect(status.status)) {
					finish(false);
					return;
				}
				let body: Readable;
				try {
					body = decoded(response);
				} catch (error) {
					fail(error instanceof Error ? error : new Error(String(error)));
					return;
				}
				body.on('data', (chunk: Buffer) => {
					const room = options.maxBytes - size;
					if (chunk.length > room) {
						chunks.push(chunk.subarray(0, room));
						size += room;
						finish(true);
						return;
					}
					chunks.push(chunk);
					size += chunk.length;
				});
				body.on('end', () => {
					finish(false);
				});
				body.on('error', (error: Error) => {
					fail(new WebFetchError(`the page's body could not be read: ${error.message}`));
				});
				response.on('aborted', () => {
					fail(new WebFetchError('the server closed the connection before the page had arrived'));
				});
			},
		);
		request.on('error', (error: NodeJS.ErrnoException) => {
			const unreachable = status === undefined && UNREACHABLE.has(error.code ?? '');
			fail(new WebFetchError(`the request failed: ${error.message}`, unreachable ? 'connect' : undefined));
		});
		request.end();
	});
}
