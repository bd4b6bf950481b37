// When the checkpoint store's bound is enforced: off the request path, after a turn ends and once
// at startup, debounced (a burst of turns is one pass) and never two passes at once. What a pass
// does is FileCheckpointStore.enforceBound (collector.ts: unnamed blobs, then oldest chats first).
import type { Timers, TimerHandle } from '../base/clock';
import { errorMessage } from '../base/errors';
import type { IDisposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { BoundReport } from './collector';

export interface BoundedStore {
	enforceBound(maxBytes: number): Promise<BoundReport>;
}

/** The default delay before a pass: long enough that a turn's follow-up (the next message) is not slowed by it. */
export const BOUND_DELAY_MS = 5000;

export class CheckpointBound implements IDisposable {
	private timer: TimerHandle;
	private running: Promise<void> | undefined;
	private again = false;
	private disposed = false;

	constructor(
		private readonly store: BoundedStore,
		private readonly maxBytes: () => number,
		private readonly timers: Timers,
		private readonly log: Logger,
		private readonly delayMs = BOUND_DELAY_MS,
	) {}

	/** Asks for a pass soon; requests before it starts are one pass, one during it is one more after it. */
	request(): void {
		if (this.disposed) {
			return;
		}
		if (this.running) {
			this.again = true;
			return;
		}
		this.timers.clearTimeout(this.timer);
		this.timer = this.timers.setTimeout(() => {
			this.timer = undefined;
			void this.pass();
		}, this.delayMs);
	}

	/** The pass under way, if any (tests and shutdown wait for it). */
	settled(): Promise<void> {
		return this.running ?? Promise.resolve();
	}

	dispose(): void {
		this.disposed = true;
		this.timers.clearTimeout(this.timer);
	}

	private async pass(): Promise<void> {
		const run = (async () => {
			try {
				await this.store.enforceBound(this.maxBytes());
			} catch (error) {
				this.log.warn(`Aside: could not hold the checkpoints under aside.checkpoints.maxBytes: ${errorMessage(error)}`);
			}
		})();
		this.running = run;
		await run;
		this.running = undefined;
		if (this.again) {
			this.again = false;
			this.request();
		}
	}
}
