// The person's user value of aside.permissions.rules, in memory: what "Always allow" read and wrote.
import type { UserRulesSetting } from '../agent/permissions/alwaysAllow';

export class MemoryUserRules implements UserRulesSetting {
	/** Every value written, in order. */
	readonly writes: Record<string, unknown>[] = [];

	constructor(
		public value?: unknown,
		private readonly failure?: Error,
	) {}

	read(): unknown {
		return this.value;
	}

	write(value: Record<string, unknown>): Promise<void> {
		if (this.failure) {
			return Promise.reject(this.failure);
		}
		this.writes.push(value);
		this.value = value;
		return Promise.resolve();
	}
}
