// The Retry on a failed turn's row: offered on the chat's last turn when it failed, and taken off
// that row (an update of it) as soon as another message starts a turn.
import type { TurnEndItem } from '../protocol/messages';
import type { AgentRecord, TurnEndRecord } from '../transcript/records';

export class RetryOffers {
	/** The failed last turn's row, while it offers Retry. */
	private offered: TurnEndItem | undefined;

	/** The row of a turn-end record: a failed root turn's offers Retry. */
	end(record: TurnEndRecord, item: TurnEndItem): TurnEndItem {
		if (record.agent !== undefined || record.outcome !== 'failed') {
			return item;
		}
		this.offered = { ...item, retry: { turnId: record.turnId } };
		return this.offered;
	}

	/** The row this record takes the Retry off (a new root message), if it does. */
	take(record: AgentRecord): TurnEndItem | undefined {
		if (this.offered === undefined || record.kind !== 'user' || record.agent !== undefined) {
			return undefined;
		}
		const { retry: _retry, ...withdrawn } = this.offered;
		this.offered = undefined;
		return withdrawn;
	}
}
