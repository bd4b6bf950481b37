// Which addresses a web fetch may reach without the person's say: everything on the public
// internet. Loopback, private (RFC 1918, fc00::/7), link-local, unspecified, CGNAT and the other
// non-public ranges are the person's own computer and network, which a page or a model must not
// make the agent probe: a fetch that reaches one always asks (docs/permissions.md).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** An address a fetch would reach, and why it is not on the public internet (undefined: it is). */
export interface CheckedAddress {
	readonly address: string;
	readonly family: 4 | 6;
	readonly local?: string;
}

const V4_RANGES: readonly (readonly [string, number, string])[] = [
	['0.0.0.0', 8, 'an unspecified address ("this network")'],
	['10.0.0.0', 8, 'a private address (RFC 1918)'],
	['100.64.0.0', 10, 'a carrier-grade NAT address (RFC 6598)'],
	['127.0.0.0', 8, 'a loopback address (this computer)'],
	['169.254.0.0', 16, 'a link-local address'],
	['172.16.0.0', 12, 'a private address (RFC 1918)'],
	['192.0.0.0', 24, 'an IETF protocol address'],
	['192.168.0.0', 16, 'a private address (RFC 1918)'],
	['198.18.0.0', 15, 'a benchmarking network address'],
	['224.0.0.0', 4, 'a multicast address'],
	['240.0.0.0', 4, 'a reserved address'],
];

function v4Number(address: string): number {
	return address.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

function v4Local(address: string): string | undefined {
	const value = v4Number(address);
	for (const [base, bits, why] of V4_RANGES) {
		const size = 2 ** (32 - bits);
		const start = v4Number(base);
		if (value >= start && value < start + size) {
			return why;
		}
	}
	return undefined;
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail included). */
function v6Groups(address: string): number[] | undefined {
	let text = address.toLowerCase().split('%')[0] ?? '';
	const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
	if (tail?.[1]) {
		const value = v4Number(tail[1]);
		text = `${text.slice(0, -tail[1].length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
	}
	const [head = '', rest] = text.split('::');
	const left = head === '' ? [] : head.split(':');
	const right = rest === undefined || rest === '' ? [] : rest.split(':');
	const missing = 8 - left.length - right.length;
	if (rest === undefined ? left.length !== 8 : missing < 0) {
		return undefined;
	}
	return [...left, ...Array<string>(rest === undefined ? 0 : missing).fill('0'), ...right].map((group) => parseInt(group, 16));
}

function v6Local(address: string): string | undefined {
	const groups = v6Groups(address);
	if (!groups || groups.some((group) => Number.isNaN(group))) {
		return 'an address Aside cannot read';
	}
	const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0] = groups;
	const embedded = (high: number, low: number): string => `${high >>> 8}.${high & 0xff}.${low >>> 8}.${low & 0xff}`;
	if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && (f === 0xffff || f === 0) && !(f === 0 && g === 0)) {
		// IPv4-mapped (::ffff:a.b.c.d) and the old IPv4-compatible form: the IPv4 address decides.
		return v4Local(embedded(g, h));
	}
	if (groups.every((group, index) => group === (index === 7 ? 1 : 0))) {
		return 'a loopback address (this computer)';
	}
	if (groups.every((group) => group === 0)) {
		return 'an unspecified address';
	}
	if (a === 0x64 && b === 0xff9b) {
		return v4Local(embedded(g, h)); // NAT64: the IPv4 address behind it decides
	}
	if (a === 0x2002) {
		return v4Local(embedded(b, c)); // 6to4
	}
	if ((a & 0xfe00) === 0xfc00) {
		return 'a unique local address (fc00::/7, a private network)';
	}
	if ((a & 0xffc0) === 0xfe80) {
		return 'a link-local address';
	}
	if ((a & 0xff00) === 0xff00) {
		return 'a multicast address';
	}
	return undefined;
}

/** Why `address` (an IP literal) is not on the public internet, or undefined when it is. */
export function localReason(address: string): string | undefined {
	const family = isIP(address);
	return family === 4 ? v4Local(address) : family === 6 ? v6Local(address) : 'not an IP address';
}

/** A URL's host as a name or an address, without IPv6 brackets and a final dot. */
export function hostOf(url: URL): string {
	return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
}

/**
 * Every address `host` stands for, each checked: an IP literal is itself; a name is looked up
 * (all its addresses — one local address among public ones is enough to ask). `localhost` and
 * names under it are this computer whatever the resolver says.
 */
export async function resolveHost(host: string): Promise<readonly CheckedAddress[]> {
	const family = isIP(host);
	if (family !== 0) {
		const local = localReason(host);
		return [{ address: host, family: family === 4 ? 4 : 6, ...(local ? { local } : {}) }];
	}
	const found = await lookup(host, { all: true, verbatim: true });
	if (found.length === 0) {
		throw new Error(`${host} has no address`);
	}
	const named = host === 'localhost' || host.endsWith('.localhost') ? 'a loopback address (this computer)' : undefined;
	return found.map(({ address, family: found }) => {
		const local = named ?? localReason(address);
		return { address, family: found === 6 ? 6 : 4, ...(local ? { local } : {}) };
	});
}

/** The addresses that are not public, in words for a card: "127.0.0.1 (a loopback address (this computer))". */
export function localWords(addresses: readonly CheckedAddress[]): string | undefined {
	const local = addresses.filter((address) => address.local !== undefined);
	return local.length === 0 ? undefined : local.map((address) => `${address.address} is ${address.local ?? ''}`).join('; ');
}
