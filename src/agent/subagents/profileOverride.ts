// The profiles the Agent tool offers: those of the product's source (built-ins and profile files),
// or, while an integration test has set its own through the test hooks, those.
import { Emitter, type Event } from '../../base/event';
import type { IDisposable } from '../../base/lifecycle';
import type { AgentProfile, AgentProfiles, ProfileProblem } from './profile';

export class ProfileOverride implements AgentProfiles, IDisposable {
	private override: readonly AgentProfile[] | undefined;
	private readonly _onDidChange = new Emitter<void>();
	readonly onDidChange: Event<void> = this._onDidChange.event;
	private readonly subscription: IDisposable | undefined;

	/** `base`: the product's profiles; none when absent. */
	constructor(private readonly base: AgentProfiles | undefined) {
		this.subscription = base?.onDidChange(() => {
			this._onDidChange.fire();
		});
	}

	current(): readonly AgentProfile[] {
		return this.override ?? this.base?.current() ?? [];
	}

	problems(): readonly ProfileProblem[] {
		return this.override ? [] : (this.base?.problems() ?? []);
	}

	/** These profiles instead of the base's; undefined: the base's again. */
	set(profiles: readonly AgentProfile[] | undefined): void {
		this.override = profiles;
		this._onDidChange.fire();
	}

	dispose(): void {
		this.subscription?.dispose();
		this._onDidChange.dispose();
	}
}
