// The sub-agents running now, as AgentState.children says them: kept live from each child's
// turn updates (what it is doing, the response it streams), gone when its loop ends.
import type { ChildState, TurnActivity } from './agentState';
import type { ChildObserver } from './subagents/childAgents';
import type { TurnUpdate } from './turnScope';

/** What a loop is doing after a status or retry update (the root's and a child's alike). */
export function activityOf(update: Extract<TurnUpdate, { type: 'status' | 'retrying' }>): TurnActivity {
	if (update.type === 'retrying') {
		return { kind: 'retrying', attempt: update.attempt, delayMs: update.delayMs, reason: update.reason };
	}
	return update.status === 'running-tool' || update.status === 'asking' ? { kind: update.status, ...(update.detail === undefined ? {} : { tool: update.detail }) } : { kind: update.status };
}

export class RunningChildren implements ChildObserver {
	/** By owner path, in the order they started. */
	private readonly children = new Map<string, ChildState>();

	constructor(
		/** The state changed (a child started, ended, or does something else now). */
		private readonly changed: () => void,
		/** More text of a child's response, with its own request id. */
		private readonly streamed: (delta: { readonly requestId: string; readonly text: string }) => void,
		/** Whether a root turn runs (updates that arrive after it ended are dropped). */
		private readonly isRunning: () => boolean,
	) {}

	get states(): ChildState[] {
		return [...this.children.values()];
	}

	has(path: string): boolean {
		return this.children.has(path);
	}

	/** The root turn ended: no child runs past it. */
	clear(): void {
		this.children.clear();
	}

	started(child: Pick<ChildState, 'path' | 'profile' | 'description'>): void {
		this.children.set(child.path, { ...child, activity: { kind: 'choosing-model' }, streaming: null });
		this.changed();
	}

	updated(path: string, update: TurnUpdate): void {
		const child = this.children.get(path);
		if (!child || !this.isRunning()) {
			return;
		}
		switch (update.type) {
			case 'resolved':
			case 'tool-progress':
				return;
			case 'text':
				if (child.streaming?.requestId !== update.requestId) {
					// A new response: the state says so before its first text arrives.
					this.children.set(path, { ...child, streaming: { requestId: update.requestId, text: update.text } });
					this.changed();
				} else {
					this.children.set(path, { ...child, streaming: { requestId: update.requestId, text: child.streaming.text + update.text } });
				}
				this.streamed({ requestId: update.requestId, text: update.text });
				return;
			case 'retrying':
				this.children.set(path, { ...child, activity: activityOf(update) });
				break;
			case 'compacting':
				this.children.set(path, { ...child, activity: { kind: 'compacting', cause: update.cause }, streaming: null });
				break;
			case 'status':
				this.children.set(path, { ...child, activity: activityOf(update), streaming: update.status === 'streaming' ? child.streaming : null });
				break;
		}
		this.changed();
	}

	ended(path: string): void {
		if (this.children.delete(path)) {
			this.changed();
		}
	}
}
