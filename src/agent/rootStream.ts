// What the running root turn is doing, as its updates say: its activity, and the response
// streaming now (its text so far, not yet recorded), delta by delta.
import type { Streaming, TurnActivity } from './agentState';
import type { ResolvedModel } from './ports';
import { activityOf } from './runningChildren';
import type { CallProgress } from './toolProgress';
import type { TurnUpdate } from './turnScope';

export interface RootStreamPorts {
	/** The model a request resolved to. */
	readonly resolved: (model: ResolvedModel) => void;
	/** A delta of the response streaming now. */
	readonly stream: (delta: { readonly requestId: string; readonly text: string }) => void;
	readonly changed: () => void;
}

export class RootStream {
	private streaming: { readonly requestId: string; text: string } | null = null;
	/** The running calls' progress, by call id: live only, gone when each call ends. */
	private readonly progress = new Map<string, CallProgress>();

	constructor(private readonly ports: RootStreamPorts) {}

	/** The response streaming now, as the agent's state says it. */
	get current(): Streaming | null {
		return this.streaming && { requestId: this.streaming.requestId, text: this.streaming.text };
	}

	/** What the agent's state says of the turn live: the response streaming now and the calls' progress. */
	get live(): { readonly streaming: Streaming | null; readonly toolProgress: readonly CallProgress[] } {
		return { streaming: this.current, toolProgress: [...this.progress.values()] };
	}

	clear(): void {
		this.streaming = null;
		this.progress.clear();
	}

	/** Takes an update of the running turn (whose activity it sets). */
	update(running: { activity: TurnActivity }, update: TurnUpdate): void {
		switch (update.type) {
			case 'resolved':
				this.ports.resolved(update.model);
				return;
			case 'text':
				if (this.streaming?.requestId !== update.requestId) {
					// A new response: the state says so before its first text arrives.
					this.streaming = { requestId: update.requestId, text: '' };
					this.ports.changed();
				}
				this.streaming.text += update.text;
				this.ports.stream({ requestId: update.requestId, text: update.text });
				return;
			case 'tool-progress':
				if (update.progress) {
					this.progress.set(update.callId, update.progress);
				} else {
					this.progress.delete(update.callId);
				}
				break;
			case 'retrying':
				running.activity = activityOf(update);
				break;
			case 'compacting':
				this.streaming = null;
				running.activity = { kind: 'compacting', cause: update.cause };
				break;
			case 'status':
				if (update.status !== 'streaming') {
					this.streaming = null;
				}
				running.activity = activityOf(update);
				break;
		}
		this.ports.changed();
	}
}
