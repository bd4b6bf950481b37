// The first run: when nothing can answer, the empty state offers actions instead of a dead end —
// choose a provider, use a local model server found running, store the key a provider lacks.
// This decides what to offer and when to look for local servers (only with the network gate
// open, only while an empty chat says nothing can answer); src/vscode/ runs the quick picks and
// src/view/setupView.ts says the offers to the person.
import { errorMessage } from '../base/errors';
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { DetectedServer } from '../providers/localServers';
import type { AgentState } from './agentState';
import type { NetworkGate } from './networkGate';
import type { ChatSessions } from './sessions';

/** A provider that needs a key no one stored for the origin it would go to. */
export interface KeyNeeded {
	/** The provider's id: `anthropic`. */
	readonly provider: string;
	/** Its name for people: "Anthropic". */
	readonly label: string;
	readonly origin: string;
}

/** What the workbench does for each action (quick picks, settings, secret storage). */
export interface SetupActions {
	chooseProvider(): PromiseLike<unknown>;
	useServer(server: DetectedServer): PromiseLike<unknown>;
	storeKey(need: KeyNeeded): PromiseLike<unknown>;
}

/** What the setup watches of the agent: whether anything can answer, and what it is doing. */
export interface AgentAvailability {
	readonly state: Pick<AgentState, 'activity' | 'problem'>;
	readonly onDidChange: Event<unknown>;
}

export interface SetupEnvironment {
	readonly gate: NetworkGate;
	readonly agent: AgentAvailability;
	readonly sessions: ChatSessions;
	/** Probes the local servers (no key, short timeout). */
	readonly detect: (signal: AbortSignal) => Promise<readonly DetectedServer[]>;
	readonly keyNeeded: () => Promise<KeyNeeded | undefined>;
	readonly actions: SetupActions;
	readonly log: Logger;
}

/** The agent's status as the setup compares it: a change may mean another key is needed now. */
function statusOf({ activity, problem }: AgentAvailability['state']): string {
	return JSON.stringify(activity ?? { problem: problem ?? null });
}

/** Nothing can answer, and the agent is not busy trying. */
function unavailable({ activity, problem }: AgentAvailability['state']): boolean {
	return activity === undefined && problem !== undefined;
}

export class ProviderSetup extends Disposable {
	private found: readonly DetectedServer[] = [];
	private need: KeyNeeded | undefined;
	private probing: AbortController | undefined;
	private wasEligible = false;
	private keyChecks = 0;
	private lastStatus = '';
	private readonly _onDidChange = this._register(new Emitter<void>());
	/** What is offered changed: `detected` or `keyNeeded`. */
	readonly onDidChange: Event<void> = this._onDidChange.event;

	constructor(private readonly env: SetupEnvironment) {
		super();
		this._register(env.agent.onDidChange(() => {
			// The agent's state changes with every streamed step; only a new status matters here.
			const status = statusOf(env.agent.state);
			if (status !== this.lastStatus) {
				this.lastStatus = status;
				this.consider(false);
				void this.checkKey();
			}
		}));
		this._register(env.sessions.onDidChangeCurrent(() => {
			this.consider(true);
		}));
		this._register(env.gate.onDidOpen(() => {
			this.consider(true);
		}));
		this._register({
			dispose: () => {
				this.probing?.abort();
			},
		});
		this.lastStatus = statusOf(env.agent.state);
		this.consider(false);
		void this.checkKey();
	}

	/** Local model servers found answering on their default ports. */
	get detected(): readonly DetectedServer[] {
		return this.found;
	}

	/** The chosen provider needs a key, and none is stored for the origin it would go to. */
	get keyNeeded(): KeyNeeded | undefined {
		return this.need;
	}

	viewShown(): void {
		this.consider(true);
	}

	chooseProvider(): void {
		this.env.gate.allow('you chose a provider');
		this.run('choose a provider', this.env.actions.chooseProvider());
	}

	useDetected(id: string): void {
		const server = this.found.find((candidate) => candidate.id === id);
		if (!server) {
			this.env.log.warn(`Aside: the chat view offered a server "${id.slice(0, 100)}" that is not among those found; nothing changed.`);
			return;
		}
		this.env.gate.allow(`you chose ${server.name}`);
		this.run(`use ${server.name}`, this.env.actions.useServer(server));
	}

	storeKey(): void {
		if (!this.need) {
			this.env.log.warn('Aside: the chat view asked to store an API key, but no provider needs one now.');
			return;
		}
		this.run('store an API key', this.env.actions.storeKey(this.need));
	}

	/** Probing makes sense only while an empty chat says nothing can answer, and only with the gate open. */
	private get eligible(): boolean {
		return this.env.gate.isOpen && unavailable(this.env.agent.state) && this.env.sessions.current.isEmpty;
	}

	private consider(again: boolean): void {
		const eligible = this.eligible;
		const entered = eligible && !this.wasEligible;
		this.wasEligible = eligible;
		if (!eligible) {
			this.probing?.abort();
			this.setDetected([]);
			return;
		}
		if (entered || again) {
			void this.probe();
		}
	}

	private async probe(): Promise<void> {
		if (this.probing) {
			return;
		}
		const controller = new AbortController();
		this.probing = controller;
		try {
			const found = await this.env.detect(controller.signal);
			if (!controller.signal.aborted && this.eligible) {
				this.setDetected(found);
			}
		} catch (error) {
			this.env.log.warn(`Aside could not look for local model servers: ${errorMessage(error)}`);
		} finally {
			if (this.probing === controller) {
				this.probing = undefined;
			}
		}
	}

	private async checkKey(): Promise<void> {
		const asked = ++this.keyChecks;
		const need = await this.env.keyNeeded().catch(() => undefined);
		// Only the latest answer counts: an earlier check may finish after a later one.
		if (asked !== this.keyChecks) {
			return;
		}
		if (need?.provider !== this.need?.provider || need?.origin !== this.need?.origin) {
			this.need = need;
			this.fire();
		}
	}

	private setDetected(servers: readonly DetectedServer[]): void {
		const before = JSON.stringify(this.found);
		this.found = servers;
		if (JSON.stringify(servers) !== before) {
			this.fire();
		}
	}

	private run(what: string, action: PromiseLike<unknown>): void {
		action.then(undefined, (error: unknown) => {
			this.env.log.error(`Aside could not ${what}: ${errorMessage(error)}`);
		});
	}

	private fire(): void {
		if (!this.store.isDisposed) {
			this._onDidChange.fire();
		}
	}
}
