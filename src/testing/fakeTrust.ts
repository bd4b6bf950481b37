import type { TrustSource } from '../agent/networkGate';
import { Emitter } from '../base/event';

/** Workspace trust for tests: starts as given, `grant()` trusts the workspace as VS Code would. */
export class FakeTrust implements TrustSource {
	private trusted: boolean;
	private readonly granted = new Emitter<void>();
	readonly onDidGrantTrust = this.granted.event;

	constructor(trusted: boolean) {
		this.trusted = trusted;
	}

	get isTrusted(): boolean {
		return this.trusted;
	}

	grant(): void {
		this.trusted = true;
		this.granted.fire();
	}
}
