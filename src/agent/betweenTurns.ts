// Work on a chat between its turns (a compaction the person asked for, a restore): one at a time,
// never beside a turn. Messages sent meanwhile wait for it and then start the next turn, on the
// chat as the work left it; a Stop aborts work that can be stopped and gives back what waited,
// as a Stop gives back undelivered steering.
import type { TurnActivity } from './agentState';
import type { TurnObservers } from './observers';
import type { AgentPorts, ResolvedModel } from './ports';
import type { ToolSpec } from '../providers/provider';
import type { TurnSettings } from './turnScope';
import type { StartedBy } from '../transcript/startedBy';

/** How a piece of work between turns runs. */
export interface HeldWorkOptions<T> {
	/** What the agent says it is doing meanwhile; none: it says nothing. */
	readonly activity?: TurnActivity;
	/** Whether a Stop aborts it (a restore that started writing is seen through). */
	readonly stoppable: boolean;
	/** What it resolves with when it threw. */
	readonly failed: (error: unknown) => T;
}

/** The work between turns in flight, if any. */
export class HeldWork {
	private current: {
		readonly controller: AbortController;
		readonly waiting: string[];
		readonly activity: TurnActivity | undefined;
		readonly stoppable: boolean;
		stopped: boolean;
	} | undefined;

	get active(): boolean {
		return this.current !== undefined;
	}

	get activity(): TurnActivity | undefined {
		return this.current?.activity;
	}

	/** A message sent while work runs waits for it; false when none runs. */
	hold(text: string): boolean {
		this.current?.waiting.push(text);
		return this.current !== undefined;
	}

	/** Stops work that can be stopped; what waited for it is then given back, not sent. */
	stop(): void {
		if (this.current?.stoppable) {
			this.current.controller.abort();
			this.current.stopped = true;
		}
	}

	/** Runs `work` as the work in flight (`changed` as it starts and ends): its result (or `failed`'s), and the messages that waited. */
	async run<T>(
		work: (signal: AbortSignal) => Promise<T>,
		options: HeldWorkOptions<T>,
		changed: () => void,
	): Promise<{ readonly result: T; readonly waiting: readonly string[]; readonly stopped: boolean }> {
		const { activity, stoppable } = options;
		const current = { controller: new AbortController(), waiting: [] as string[], activity, stoppable, stopped: false };
		this.current = current;
		changed();
		let result: T;
		try {
			result = await work(current.controller.signal);
		} catch (error) {
			result = options.failed(error);
		} finally {
			this.current = undefined;
			changed();
		}
		return { result, waiting: current.waiting, stopped: current.stopped };
	}
}

/** What a root request of the chat sends, with the model resolved for it. */
export interface RootRequest {
	readonly model: ResolvedModel;
	readonly system: string;
	readonly tools: readonly ToolSpec[];
	readonly settings: TurnSettings;
}

/** What a chat feature may do to its chat between turns (given to each feature state with its chat). */
export interface BetweenTurns {
	readonly ports: AgentPorts;
	/** The chat's observers (edited files, AGENTS.md), when the editor provides them. */
	observers(): TurnObservers | undefined;
	/** Why the chat cannot be worked on now ("… before `doing`."): a turn or other work runs. */
	refusal(doing: string): string | undefined;
	/**
	 * Runs `work` between turns; resolves with what it resolved with. Messages sent meanwhile start
	 * the next turn after it, while this chat is current.
	 */
	run<T>(work: (signal: AbortSignal) => Promise<T>, options: HeldWorkOptions<T>): Promise<T>;
	/** Resolves the chat's model now, and what its root request sends with it. */
	rootRequest(signal: AbortSignal): Promise<RootRequest>;
	/** Starts a turn with `text` as the person's message. */
	startTurn(text: string): void;
	/**
	 * Starts a turn no person asked for, with `started`'s reminder in place of a person's message:
	 * only while the chat is the current one, no turn or other work runs and no plan waits for the
	 * person's decision. False when it did not start.
	 */
	startUnasked(started: StartedBy): boolean;
	/** The agent's state changed (the view shows it again). */
	changed(): void;
	/** Tells the chat's features and plans that part of it was rolled back. */
	restored(): void;
	/** Tells the chat's features, plans and prompt hooks that it was compacted. */
	compacted(): void;
}

/** What the agent gives a chat's between-turns port. */
export interface BetweenTurnsHost extends Pick<BetweenTurns, 'ports' | 'observers' | 'rootRequest' | 'startUnasked' | 'changed' | 'restored' | 'compacted'> {
	/** Why nothing can be done to the chat now ("… before `doing`."), or undefined. */
	busy(doing: string): string | undefined;
	startTurn(text: string): void;
	/**
	 * The messages sent while the work ran: the next turn of the chat, unless the work was stopped
	 * or another chat is current now — then they go back to the person, never lost.
	 */
	continueWith(texts: readonly string[], stopped: boolean): void;
}

/** A chat's between-turns port: its work runs as `held`'s, one at a time, never beside a turn. */
export function betweenTurnsOf(held: HeldWork, host: BetweenTurnsHost): BetweenTurns {
	return {
		ports: host.ports,
		observers: () => host.observers(),
		refusal: (doing) => host.busy(doing),
		run: async (work, options) => {
			const { result, waiting, stopped } = await held.run(work, options, () => {
				host.changed();
			});
			if (waiting.length > 0) {
				host.continueWith(waiting, stopped);
			}
			return result;
		},
		rootRequest: (signal) => host.rootRequest(signal),
		startTurn: (text) => {
			host.startTurn(text);
		},
		startUnasked: (started) => host.startUnasked(started),
		changed: () => {
			host.changed();
		},
		restored: () => {
			host.restored();
		},
		compacted: () => {
			host.compacted();
		},
	};
}
