// The chat's rows where the host put them: appended or inserted, replaced as a child runs, the end
// kept in view while the person reads it, and the last root message's Fork control held while its
// turn runs.
import type { TranscriptItem } from '../src/protocol/messages';
import { blockFork } from './forkGate';
import type { LiveView } from './live';
import type { TranscriptView } from './transcript';

/** The id of the last root user row among `items`, if any. */
function lastRootUser(items: readonly TranscriptItem[]): string | undefined {
	for (let index = items.length - 1; index >= 0; index--) {
		const item = items[index];
		if (item?.kind === 'user' && item.agent === undefined) {
			return item.id;
		}
	}
	return undefined;
}

export class ChatRows {
	/** The last root message shown: its Fork control waits for its turn to end. */
	private lastUser: string | undefined;

	constructor(
		private readonly transcript: TranscriptView,
		private readonly live: LiveView,
		/** Whether the agent is running now (the view's last agent state). */
		private readonly isRunning: () => boolean,
		/** After rows were added: the empty state and the status follow. */
		private readonly onAppended: () => void,
	) {}

	/** A snapshot's rows, in place of all shown. */
	reset(items: readonly TranscriptItem[]): void {
		this.transcript.reset(items);
		this.lastUser = lastRootUser(items);
	}

	/** Rows where the host put them: at the end, or just before the row `before`. */
	append(items: readonly TranscriptItem[], before?: string): void {
		this.keepPinned(() => {
			// The recorded response replaces the text that streamed in for it (a child's, its own stream).
			if (items.some((item) => item.kind === 'assistant' && item.agent === undefined)) {
				this.live.finishStream();
			}
			this.transcript.append(items, before);
			this.lastUser = lastRootUser(items) ?? this.lastUser;
			this.gateFork();
			this.onAppended();
		});
	}

	/** Rows shown already, replaced (a child's header as it runs). */
	update(items: readonly TranscriptItem[]): void {
		this.keepPinned(() => {
			this.transcript.update(items);
		});
	}

	/** The last root message can be forked only once its turn is over. */
	gateFork(): void {
		blockFork(this.isRunning() ? this.lastUser : undefined);
	}

	/** Runs a change; if the person was reading the end, they still are afterwards. */
	keepPinned(mutate: () => void): void {
		// The transcript tracks this: with rows measured after a change, the DOM alone can't tell.
		const pinned = this.transcript.isAtEnd();
		mutate();
		if (pinned) {
			this.scrollToEnd();
		}
	}

	scrollToEnd(): void {
		// Kept there as rows mount and are measured, until the person scrolls away.
		this.transcript.scrollToEnd();
	}
}
