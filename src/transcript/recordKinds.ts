// What each record kind is to the chat, said once per kind: whose it is, whether replay turns it
// into messages, whether the view makes a row of it. The session, replay and the view's rows ask
// these traits instead of listing kinds. Core kinds have theirs in CORE_RECORD_TRAITS (records.ts,
// exhaustive: a new core kind without traits does not compile); a chat feature's kinds come with
// theirs, registered once from the feature list (src/features/features.ts).
import type { RecordDeclaration } from '../base/recordDeclaration';

export interface RecordTraits {
	/** `chat`: the whole chat's — a sub-agent's append keeps it untagged, no conversation owns it; `conversation`: the loop's that wrote it. */
	readonly scope: 'chat' | 'conversation';
	/**
	 * `history`: replay turns it into messages (or marks the history, as a compaction does); `silent`: it
	 * reaches the model some other way (a reminder, a tool result), or not at all.
	 */
	readonly replay: 'history' | 'silent';
	/** `row`: the view makes a row of it; `none`: a control or a card shows it, or nothing. */
	readonly row: 'row' | 'none';
}

/** A record kind a chat feature adds: its declaration (schema, fast check, rule) and its traits. */
export interface FeatureRecordKind {
	readonly declaration: RecordDeclaration;
	readonly traits: RecordTraits;
}

/** The traits of a record the chat keeps to itself: neither replayed nor a row (a goal, a task list). */
export const CHAT_STATE: RecordTraits = { scope: 'chat', replay: 'silent', row: 'none' };
