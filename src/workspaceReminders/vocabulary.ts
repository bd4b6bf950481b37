// What a reminder file may name besides its own fields: the keys Aside already uses (a file's
// `workspace.<key>` may not take one), the tools a `when.tool` may name, the modes a `when.mode`
// may name. The language server asks the running Aside for it (`aside/vocabulary`); until it
// answers, and in tests, the built-in one stands in.
import { PERMISSION_MODES } from '../vocabulary/permissionModes';
import { RESERVED_KEYS } from '../reminders/keys';
import { editDistance } from '../skills/references';
import { BUILTIN_TOOL_NAMES } from '../tools/toolFacts';
import { WORKSPACE_KEY_PREFIX } from './spec';

export interface ReminderVocabulary {
	/**
	 * Wire keys taken by Aside: the built-in ones and those contributed by other extensions. Not
	 * the workspace reminders' own keys (their clashes are a folder's collisions, reported on both files).
	 */
	readonly reservedKeys: readonly string[];
	/** Aside's tool names, as `when.tool` writes them. */
	readonly tools: readonly string[];
	readonly modes: readonly string[];
}

export const BUILTIN_VOCABULARY: ReminderVocabulary = {
	reservedKeys: RESERVED_KEYS.map((entry) => entry.key),
	tools: BUILTIN_TOOL_NAMES,
	modes: PERMISSION_MODES,
};

/**
 * The candidate `word` is likely a misspelling of: the same but for case, or the nearest within a
 * third of its length in edits (at least one), so `polcy` finds `policy` and `x` finds nothing.
 */
export function nearMiss(word: string, candidates: readonly string[]): string | undefined {
	const lower = word.toLowerCase();
	const sameCase = candidates.find((candidate) => candidate.toLowerCase() === lower);
	if (sameCase !== undefined) {
		return sameCase;
	}
	const limit = Math.max(1, Math.floor(word.length / 3));
	let best: { readonly candidate: string; readonly distance: number } | undefined;
	for (const candidate of candidates) {
		const distance = editDistance(lower, candidate.toLowerCase());
		if (distance <= limit && (best === undefined || distance < best.distance)) {
			best = { candidate, distance };
		}
	}
	return best?.candidate;
}

/** ` Did you mean "x"?` when there is a near miss, else nothing. */
export function didYouMean(word: string, candidates: readonly string[]): string {
	const suggestion = nearMiss(word, candidates);
	return suggestion === undefined ? '' : ` Did you mean "${suggestion}"?`;
}

/**
 * The vocabulary of a window whose key registry holds `keys` (built-in, contributed, and perhaps the
 * workspace reminders' own `workspace.<key>` once registered): those last are left out, or every
 * reminder file would clash with itself. Built-in `workspace.*` keys (workspace.instructions) stay.
 */
export function vocabularyOf(keys: readonly string[], tools: readonly string[] = BUILTIN_TOOL_NAMES): ReminderVocabulary {
	const builtin = new Set(BUILTIN_VOCABULARY.reservedKeys);
	return { reservedKeys: keys.filter((key) => builtin.has(key) || !key.startsWith(WORKSPACE_KEY_PREFIX)), tools, modes: PERMISSION_MODES };
}
