// A chat's pending hook context (docs/hooks.md "Accepted and pending context"): what a SessionStart
// hook said with no message yet to carry it. A root turn's first request reserves all of it;
// the reservation is recorded when that request goes out (its WAIT commit) and comes back here,
// in order and ahead of what arrived since, when the request fails before that. Pure.
import type { HookContextEntry } from './toolHooks';

export class PendingHookContext {
	private entries: HookContextEntry[] = [];

	get pending(): readonly HookContextEntry[] {
		return this.entries;
	}

	add(entries: readonly HookContextEntry[]): void {
		this.entries.push(...entries);
	}

	/** Takes everything pending (none: undefined); the taker records it or gives it back. */
	take(): readonly HookContextEntry[] | undefined {
		if (this.entries.length === 0) {
			return undefined;
		}
		const taken = this.entries;
		this.entries = [];
		return taken;
	}

	/** A reservation whose request never went out: first again, before anything added meanwhile. */
	giveBack(entries: readonly HookContextEntry[]): void {
		this.entries = [...entries, ...this.entries];
	}
}
