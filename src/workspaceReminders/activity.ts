// What happened in the running root turn, as workspace reminders' `when` reads it: each successful
// Read, each file the agent's own tools wrote, each tool call, in order, numbered. Only the root
// turn's: workspace reminders join the session roster, which collects at the root's WAITs (an
// agent invocation's reads are its own context's news). A new root turn starts an empty log.
import type { Owner } from '../reminders/definition';
import type { TurnObservers } from '../agent/observers';

export type ActivityKind = 'read' | 'edited' | 'tool';

export interface ActivityEvent {
	/** Counts from 1 within the turn: a reminder remembers the last one it was delivered after. */
	readonly seq: number;
	readonly kind: ActivityKind;
	/** The tool's name (Aside's: Read, Edit, Run, …). */
	readonly tool: string;
	/** The file read or written, absolute; absent for a `tool` event. */
	readonly path?: string;
}

export class TurnActivity {
	private ownerId: string | undefined;
	private log: ActivityEvent[] = [];
	private seq = 0;

	/** A successful tool call of `owner`, with the files its result says it read and wrote. */
	note(owner: Owner, tool: string, touched: readonly { readonly path: string; readonly access: string }[]): void {
		if (owner.kind !== 'root') {
			return;
		}
		if (owner.id !== this.ownerId) {
			this.ownerId = owner.id;
			this.log = [];
			this.seq = 0;
		}
		this.log.push({ seq: ++this.seq, kind: 'tool', tool });
		for (const file of touched) {
			const kind = file.access === 'read' ? 'read' : file.access === 'written' ? 'edited' : undefined;
			if (kind) {
				this.log.push({ seq: ++this.seq, kind, tool, path: file.path });
			}
		}
	}

	/** `owner`'s events after `afterSeq` (none for another owner or an agent invocation). */
	since(owner: Owner, afterSeq: number): readonly ActivityEvent[] {
		if (owner.kind !== 'root' || owner.id !== this.ownerId) {
			return [];
		}
		// Events are in seq order: skip from the back is the common case (few new events).
		let start = this.log.length;
		while (start > 0 && (this.log[start - 1]?.seq ?? 0) > afterSeq) {
			start--;
		}
		return this.log.slice(start);
	}

	/** The number of `owner`'s latest event; 0 when it has none. */
	lastSeq(owner: Owner): number {
		return owner.kind === 'root' && owner.id === this.ownerId ? this.seq : 0;
	}
}

/**
 * The turn loop's observers, with `activity` noting each successful call after them. The loop
 * calls `afterTool` once per recorded result; an error result is no event.
 */
export function observingActivity(inner: TurnObservers | undefined, activity: TurnActivity): TurnObservers {
	return {
		beforeTool: (call, owner, signal) => inner?.beforeTool(call, owner, signal) ?? Promise.resolve(),
		afterTool: async (call, result, owner, signal) => {
			if (!result.isError) {
				activity.note(owner, call.name, result.touched ?? []);
			}
			await inner?.afterTool(call, result, owner, signal);
		},
		beforeWait: (owner, signal) => inner?.beforeWait(owner, signal) ?? Promise.resolve(),
		endOwner: (owner) => {
			inner?.endOwner(owner);
		},
		...(inner?.compacted ? { compacted: inner.compacted.bind(inner) } : {}),
		...(inner?.restored ? { restored: inner.restored.bind(inner) } : {}),
	};
}
