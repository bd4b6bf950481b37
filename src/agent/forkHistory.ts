// What a fork copies of its source (docs/forks.md): every record of the chat up to and
// including the turn of the user message it is made from — that message, its answer, its tool
// results, its children's records and its end. A turn that is still running cannot be forked
// (its records are not all written yet).
import type { AgentRecord } from '../transcript/records';
import type { ForkRecord } from '../transcript/historyMarkers';
import { checkpointTurnOf } from './checkpointTurns';

/** The title of a fork of a chat titled `title`. */
export function forkTitle(title: string): string {
	return `${title} (fork)`;
}

export interface ForkPrefix {
	/** The records the fork starts with, in order (the source's own `fork` record, if any, included). */
	readonly records: readonly AgentRecord[];
	/** The checkpoint turns they hold (root turns, and restores that wrote files): the checkpoints the fork takes over. */
	readonly turnIds: ReadonlySet<string>;
}

/** Why a fork cannot be made from a row, in words the chat shows. */
export class ForkRefused extends Error {
	override readonly name = 'ForkRefused';
}

/**
 * The records a fork made from root user record `from` copies. `running`: the root turn running
 * now, if any (its message cannot be forked). Throws ForkRefused for a message that is not a
 * root user message of the chat, or whose turn is still running.
 */
export function forkPrefix(all: readonly AgentRecord[], from: string, running: string | undefined): ForkPrefix {
	const at = all.findIndex((record) => record.kind === 'user' && record.id === from);
	const user = all[at];
	if (user?.kind !== 'user') {
		throw new ForkRefused('That message is not in this chat any more.');
	}
	if (user.agent !== undefined) {
		throw new ForkRefused('A sub-agent\'s message cannot be forked: fork from one of your own messages.');
	}
	if (user.turnId === running) {
		throw new ForkRefused('That message\'s turn is still running: stop it, or wait for it to finish, then fork.');
	}
	// Up to its turn's end; a turn that never recorded one (the window died) ends where the next message starts.
	let end = all.length;
	for (let index = at + 1; index < all.length; index++) {
		const record = all[index] as AgentRecord;
		if (record.kind === 'turn-end' && record.agent === undefined && record.turnId === user.turnId) {
			end = index + 1;
			break;
		}
		if (record.kind === 'user' && record.agent === undefined) {
			end = index;
			break;
		}
	}
	const records = all.slice(0, end);
	const turnIds = new Set<string>();
	for (const record of records) {
		// A restore's writes count too: the fork's files are as the chat's were at that point.
		const turnId = checkpointTurnOf(record);
		if (turnId !== undefined) {
			turnIds.add(turnId);
		}
	}
	return { records, turnIds };
}

/** A chat's own provenance: its first record, when that is a `fork` (a fork's copied history may hold its source's too). */
export function forkOf(all: readonly AgentRecord[]): ForkRecord | undefined {
	const first = all[0];
	return first?.kind === 'fork' ? first : undefined;
}

/**
 * How many of a fork's records (after its `fork` record) it copied from its source: the prefix of
 * the message it was made from. A message that is not there (a damaged transcript) counts every
 * record as copied, so nothing is taken for the fork's own.
 */
export function copiedCount(records: readonly AgentRecord[], from: string): number {
	try {
		return forkPrefix(records, from, undefined).records.length;
	} catch {
		return records.length;
	}
}
