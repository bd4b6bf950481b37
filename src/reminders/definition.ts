// What a reminder is: a typed definition with a trigger on current state, a content function and
// a firing policy; and the entries every source hands to WAIT. Wrapping into <system-reminder>
// blocks happens once, at injection; nothing here builds markup.
import type { PermissionMode } from '../vocabulary/permissionModes';
import type { PermissionContext } from '../agent/permissions/policy';
import type { FiringPolicy } from './policy';

/** Who a request, a turn event or an injection belongs to: the root turn or one agent invocation. */
export interface Owner {
	readonly kind: 'root' | 'agent';
	readonly id: string;
}

export type Phase = 'turn-start' | 'mid-turn';

/** Which rosters a definition joins: the session's, agent invocations', or both. */
export type Scope = 'session' | 'agent' | 'all';

/** Runs after the payload carrying (or acknowledging) an entry was accepted by the provider. */
export type Commit = () => void;

/** Facts about the request being prepared that triggers may read; every field is current. */
export interface WaitFacts {
	/** The model sample this request is, counted from 1 within the owner's turn or invocation. */
	readonly step?: number;
	/** The most samples the owner may take; the last one is `step === stepLimit`. */
	readonly stepLimit?: number;
	/**
	 * Context in use as of the last response (after a compaction, before the next response: the estimate
	 * of the compacted request), and the model's window, in tokens.
	 */
	readonly context?: { readonly usedTokens: number; readonly limitTokens: number };
	/**
	 * Present while automatic compaction is on: its threshold (`aside.context.autoCompactAt`) and the
	 * warning's (`aside.context.warnAt`), as shares of the window.
	 */
	readonly compaction?: { readonly autoCompactAt: number; readonly warnAt: number };
	/** The permission mode this request is made in (src/vocabulary/permissionModes.ts), when the loop says it. */
	readonly mode?: string;
	/** The permission mode in effect for this request (a one-message override, else the chat's) and what the policy reads besides it. */
	readonly permissions?: { readonly mode: PermissionMode; readonly context: PermissionContext };
}

export interface FiringContext {
	readonly owner: Owner;
	readonly phase: Phase;
	/** The roster's turn count: user turns for the session, model samples for an agent. */
	readonly turn: number;
	readonly facts: WaitFacts;
	/**
	 * Whether a delivery of this definition is on record for the roster (restored from retained
	 * history or committed since). For an `observation`, only deliveries the selected history
	 * still holds count (see ReminderRoster.reconcileObservations): false after compaction
	 * removed it, so the section is delivered again, in full, at the next WAIT.
	 */
	readonly delivered: boolean;
}

/**
 * A content function returns its body, or a body with a commit (and optionally the reason, in
 * words, why it fired). A null body is a silent acknowledgement: only the commit is staged.
 */
export type ReminderContent =
	| string
	| {
			readonly body: string | null;
			readonly commit?: Commit;
			readonly reason?: string;
			/** The chat row's label for this delivery (what it is about, e.g. the server it names); the definition's otherwise. */
			readonly label?: string;
			/** What it is about, recorded with the delivery; `restore` gets it back from a reopened chat. */
			readonly subjects?: readonly ReminderSubject[];
			/**
			 * A changed observation's notice (src/reminders/builtin/observations.ts): called once every
			 * definition of the WAIT was evaluated, with the other observations whose earlier delivery
			 * the selected history still holds and that this request does not deliver again; its words
			 * go after the body, on the wire and in the record, but are not what on-change compares.
			 */
			readonly notice?: (retained: readonly ReminderDefinition[]) => string;
	  };

export interface ReminderDefinition {
	/** Stable id; settings use it: `aside.reminders.<type>.enabled`. */
	readonly type: string;
	/** A registered wire key. */
	readonly key: string;
	/** Short human text for the chat row, e.g. "edited files". */
	readonly label: string;
	readonly scope: Scope;
	readonly policy: FiringPolicy;
	/** Evaluated on current state at each WAIT of the roster's owner. */
	readonly trigger: (context: FiringContext) => boolean;
	readonly content: (context: FiringContext) => ReminderContent;
	/**
	 * For a reminder that keeps its own record of what it said (an on-change listing sending only
	 * deltas): called, oldest first, with the subjects of each delivery of its type that retained
	 * history holds (an observer's entries of the type included), when a chat is reopened.
	 */
	readonly restore?: (subjects: readonly ReminderSubject[]) => void;
	/**
	 * A changing prompt observation (date, environment, workspace instructions, …): a section kept
	 * out of the stable system prompt whose delivery only counts while the history a request is
	 * built from still holds it. After a compaction (or any replay that drops it) it is delivered
	 * again, once.
	 */
	readonly observation?: true;
	/**
	 * Called when this definition's deliveries left the selected history (compaction), before the
	 * deliveries still retained are restored: a definition keeping its own record of what it said
	 * (an on-change listing) forgets it there.
	 */
	readonly forget?: () => void;
	/**
	 * An observation whose deliveries may end in a `notice`: the part of a recorded body that
	 * on-change compares (the body without its notice), when a delivery is restored from records.
	 */
	readonly sectionOf?: (body: string) => string;
}

/**
 * The order entries take in the synthetic message, whatever their source: mentions, skills, the
 * roster (pending FIFO first, then definitions), observations (turn events), compaction, steering.
 */
export const STAGES = ['mention', 'skill', 'roster', 'observation', 'compaction', 'steering'] as const;
export type Stage = (typeof STAGES)[number];

/**
 * What an entry told the model about, as structure, so the observer that made it can restore its
 * acknowledgements from the chat's records (never from body text): `ref` names a file (an
 * absolute path, or a document URI) or another thing by its name (an agent profile), `hashes`
 * what of it was given (content hashes, problem identities). Recorded with the entry; never sent
 * to the model, never shown.
 */
export interface ReminderSubject {
	readonly ref: string;
	readonly hashes: readonly string[];
}

/**
 * One entry on its way to WAIT. A null body delivers nothing and only runs the commit (a turn
 * event, a pending item); `stageEntry` refuses one, as a staged commit alone is `stageCommit`.
 */
export interface StagedEntry {
	readonly type: string;
	readonly key: string;
	readonly body: string | null;
	readonly commit?: Commit;
	/** Defaults to the key's registered label. */
	readonly label?: string;
	/** Why it fired, in words; each source has a default. */
	readonly reason?: string;
	/** What it is about, recorded with it when delivered (see ReminderSubject). */
	readonly subjects?: readonly ReminderSubject[];
}

/** An entry as WAIT collected it: in stage order, with its label and reason settled. */
export interface CollectedEntry {
	readonly type: string;
	readonly key: string;
	readonly label: string;
	readonly body: string | null;
	readonly reason: string;
	readonly commit?: Commit;
	readonly subjects?: readonly ReminderSubject[];
}
