// The local addresses a WebFetch card named, by host: what the person was asked about. The card
// is built (WebFetch's confirm) before the call runs and the call resolves the host again when it
// runs; a host that was public on the card and is local when the call runs (a DNS answer that
// changed in between) is refused, not fetched. Kept for a while and bounded; the card's own words
// are in webFetch.ts.
import type { CheckedAddress } from './addresses';

/** How long a card's addresses stand for its call. */
export const LOCAL_APPROVAL_MS = 10 * 60 * 1000;
const MAX_HOSTS = 64;

export class LocalApprovals {
	private readonly hosts = new Map<string, { readonly addresses: ReadonlySet<string>; readonly at: number }>();

	constructor(private readonly now: () => number = Date.now) {}

	/** The card for a call to `host` named these local addresses. */
	asked(host: string, addresses: readonly CheckedAddress[]): void {
		const local = addresses.filter((address) => address.local !== undefined).map((address) => address.address);
		if (local.length === 0) {
			return;
		}
		this.hosts.delete(host);
		this.hosts.set(host, { addresses: new Set(local), at: this.now() });
		if (this.hosts.size > MAX_HOSTS) {
			const [oldest] = this.hosts.keys();
			if (oldest !== undefined) {
				this.hosts.delete(oldest);
			}
		}
	}

	/** The local ones of `addresses` that no recent card for `host` named. */
	unasked(host: string, addresses: readonly CheckedAddress[]): readonly CheckedAddress[] {
		const entry = this.hosts.get(host);
		const fresh = entry !== undefined && this.now() - entry.at <= LOCAL_APPROVAL_MS;
		return addresses.filter((address) => address.local !== undefined && !(fresh && entry.addresses.has(address.address)));
	}
}
