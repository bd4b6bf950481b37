import { Emitter, type Event } from '../base/event';
import type { SecretStore } from '../vscode/apiKeys';

/** SecretStorage in memory, with its change event, for tests. */
export class MemorySecrets implements SecretStore {
	readonly values = new Map<string, string>();
	private readonly _onDidChange = new Emitter<{ readonly key: string }>();
	readonly onDidChange: Event<{ readonly key: string }> = this._onDidChange.event;

	constructor(initial: Readonly<Record<string, string>> = {}) {
		for (const [key, value] of Object.entries(initial)) {
			this.values.set(key, value);
		}
	}

	get(key: string): Promise<string | undefined> {
		return Promise.resolve(this.values.get(key));
	}

	store(key: string, value: string): Promise<void> {
		this.values.set(key, value);
		this._onDidChange.fire({ key });
		return Promise.resolve();
	}

	delete(key: string): Promise<void> {
		if (this.values.delete(key)) {
			this._onDidChange.fire({ key });
		}
		return Promise.resolve();
	}
}
