// Sessions on disk: one JSONL transcript per session in a folder (the workspace's storage). A
// new session writes its file on its first record, so opening VS Code never leaves empty
// sessions behind.
import type { Logger } from '../base/log';
import { listSessions, load, type SessionSummary, type SummaryCache } from '../transcript/load';
import { TRANSCRIPT_VERSION } from '../transcript/records';
import { TranscriptStore } from '../transcript/store';
import type { SessionLibrary, SessionStore, StoredRecord } from './session';

class LazyStore implements SessionStore {
	private store: TranscriptStore | undefined;

	constructor(private readonly open: () => TranscriptStore) {}

	append(record: StoredRecord): void {
		this.store ??= this.open();
		this.store.append(record);
	}

	close(): void {
		this.store?.close();
		this.store = undefined;
	}
}

export class FileSessionLibrary implements SessionLibrary {
	/** The chat list is asked for often; an unchanged transcript is not read again. */
	private readonly summaries: SummaryCache = new Map();

	constructor(
		readonly dir: string,
		private readonly now: () => number,
		private readonly log: Logger,
	) {}

	create(id: string): SessionStore {
		return new LazyStore(() => TranscriptStore.create(this.dir, { kind: 'session', v: TRANSCRIPT_VERSION, id, createdAt: this.now() }, { log: this.log }));
	}

	open(id: string): { store: SessionStore; records: readonly StoredRecord[] } {
		// load() reports each damaged line to the log itself.
		const loaded = load(this.dir, id, { log: this.log });
		return { store: new LazyStore(() => TranscriptStore.open(this.dir, id, { log: this.log })), records: loaded.records };
	}

	list(): SessionSummary[] {
		return listSessions(this.dir, { log: this.log, cache: this.summaries });
	}
}
