// The checkpoint contract: what Aside keeps of every file its tools change, grouped by
// the user turn that changed it, so a restore can put the files back as they were before a
// message. Content is kept content-addressed and deduplicated in the extension's storage, never
// in the workspace; only files Aside's own tools (Write, Edit, ApplyPatch) touched are kept. A
// Run's side effects are not tracked.
import type { FileChange } from '../tools/changes';

/** A SHA-256 of a text's UTF-8 bytes, lowercase hex: the name of its blob in the store. */
export type ContentHash = string;

/** One file one tool call changed, as kept before the write. */
export interface CheckpointEntry {
	/** The root turn the change was made in (UserRecord.turnId); a sub-agent's writes count to its root turn. */
	readonly turnId: string;
	/** Milliseconds since the epoch, when the change was kept (just before the write). */
	readonly at: number;
	/** Absolute. */
	readonly path: string;
	/** As the person sees it (relative to its workspace folder). */
	readonly shown: string;
	/**
	 * The text before the call; null: the file did not exist (the call created it). Undefined: not
	 * known — copied aside before the write and hashed just after it, and that copy was lost (a
	 * restore then says the file's earlier content was not kept).
	 */
	readonly before: ContentHash | null | undefined;
	/**
	 * The text the call wrote; null: the call deleted the file. Undefined: not known — it is kept
	 * just after the write (off the request path), and the window closed before it was, or a
	 * ChatCheckpoints read before CheckpointStore.settled() resolved. A restore then cannot tell
	 * whether the file changed since, and says so.
	 */
	readonly after: ContentHash | null | undefined;
}

/**
 * Keeps the previous content of the files a call is about to change: called after the stale-write
 * check and before the first write. The new texts are kept just after (the promise does not wait for them).
 */
export interface CheckpointRecorder {
	keep(changes: readonly FileChange[]): Promise<void>;
}

/** One chat's checkpoints, as a restore or a fork reads them. */
export interface ChatCheckpoints {
	/** Every change kept for the chat, in the order they were made. */
	entries(): readonly CheckpointEntry[];
	/** A kept text; undefined when its blob is gone (the storage bound dropped it, or it was damaged). */
	text(hash: ContentHash): Promise<string | undefined>;
}

/**
 * The checkpoint store as the agent reaches it (AgentPorts.checkpoints): one per window, in the
 * workspace's storage beside the transcripts (src/vscode/checkpoints.ts). Bounded by
 * `aside.checkpoints.maxBytes`, oldest chats first.
 */
export interface CheckpointStore {
	/** The recorder for the writes of one root turn of a chat (the ToolContext's `checkpoint`). */
	recorder(sessionId: string, turnId: string): CheckpointRecorder;
	/** A chat's checkpoints (empty for a chat that has none). */
	chat(sessionId: string): ChatCheckpoints;
	/** A fork starts with its source's checkpoints of the turns it copies (`turnIds`), so Restore works in the fork too. */
	copyChat(fromSessionId: string, toSessionId: string, turnIds: ReadonlySet<string>): Promise<void>;
	/**
	 * Gives chat `toSessionId` the entries another store kept (a worktree fork handed over from
	 * another window), their texts read with `text` and kept here. A text `text` does not have is
	 * left out: a restore lists that file as not kept.
	 */
	importChat(toSessionId: string, entries: readonly CheckpointEntry[], text: ChatCheckpoints['text']): Promise<void>;
	/** A deleted chat's checkpoints go with it (blobs no other chat uses included). */
	deleteChat(sessionId: string): Promise<void>;
	/** Resolves once the new texts of the writes made so far are kept: call before reading a chat's checkpoints for a restore or a fork. */
	settled(): Promise<void>;
}
