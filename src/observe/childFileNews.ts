// files.edited for sub-agents: a child invocation waiting for the model is told of the files that
// changed outside Aside's tools too, as the root is. The report stays the chat's: a child's
// delivery does not settle it (the cache and the stale-write guard learn it only when the root is
// told), so the root still hears of it. Each child hears of one report once.
import type { Owner } from '../reminders/definition';
import type { TurnEvent } from '../reminders/turnEvents';
import type { EditedFiles } from './editedFiles';

export class ChildFileNews {
	/** The report each running child was last told, by its owner id. */
	private readonly told = new Map<string, string>();

	/** At a child's WAIT: the current report for it, unless it was told this one already. */
	async prepare(edited: EditedFiles, owner: Owner, signal: AbortSignal): Promise<TurnEvent | undefined> {
		const report = await edited.prepare(signal);
		const body = report?.body;
		if (!report || body === null || body === undefined || this.told.get(owner.id) === body) {
			return undefined;
		}
		return {
			...report,
			commit: () => {
				this.told.set(owner.id, body);
			},
		};
	}

	/** The child finished: what it was told goes with its context. */
	forget(owner: Owner): void {
		this.told.delete(owner.id);
	}
}
