// Kinds of `@`-mention a chat feature adds beside the built-in paths and keywords: `@<prefix>…`
// (`@mcp:server/uri`). One seam for all three places a mention lives: the parser finds them (the
// prefixes are registered by the feature list as it loads, so the agent's expansion and the user
// row's chips read the same tokens), the expansion hands each to its kind, and the composer's `@`
// list asks the kinds for options. A kind's entries are of its declaration's reminder type: one
// turned off expands to nothing, as a built-in kind does.
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import type { MentionOffer } from '../protocol/mentions';
import type { ReminderDeclaration } from '../reminders/declaration';
import type { StagedEntry } from '../reminders/definition';
import type { RecordLike } from '../reminders/history';
import type { MentionLimits } from './limits';

/** A mention of a contributed kind, as typed. */
export interface ContributedMention {
	/** As written: the `@`, the prefix, and the rest (in its quotes when quoted). */
	readonly raw: string;
	readonly prefix: string;
	/** What follows the prefix, without the quotes. */
	readonly body: string;
}

/** What one message's expansion of a kind reads. */
export interface MentionContext {
	/** The chat's kept records (what a request replays): what it was already given. */
	readonly records: Iterable<RecordLike>;
	readonly limits: MentionLimits;
}

/**
 * One message's mentions of a kind, each to its entry (undefined: it stays text). It rejects only
 * when `signal` aborted: what goes wrong is an entry saying so, and the other mentions still expand.
 */
export type MentionExpander = (mention: ContributedMention, signal: AbortSignal) => Promise<StagedEntry | undefined>;

/** A kind of mention as a window has it, bound to what it reads there. */
export interface MentionSource {
	/** The expander of one message (it may remember what that message already attached). */
	expander(context: MentionContext): MentionExpander;
	/**
	 * The composer's options for `query` (what follows the `@`) when it starts with the prefix, or
	 * is the start of it (then, typically, the prefix itself as a `partial` option).
	 */
	offers?(query: string, signal: AbortSignal): Promise<readonly MentionOffer[]>;
}

/** A kind of mention a chat feature declares (ChatFeature.mentions). */
export interface MentionKind<Services = unknown> {
	/** Lower-case letters, digits or `-`, then a colon (`mcp:`): `@mcp:…` is this kind's. */
	readonly prefix: string;
	/** The reminder type of its entries (each starts "The user mentioned <raw>", so the chip finds its own). */
	readonly declaration: ReminderDeclaration;
	/** Its source in a window, from what the window hands the features; none where that lacks what it needs. */
	source(services: Services): MentionSource | undefined;
}

/** A kind with its source in one window. */
export interface WindowMentionKind {
	readonly prefix: string;
	readonly declaration: ReminderDeclaration;
	readonly source: MentionSource;
}

const PREFIX = /^[a-z][a-z0-9-]*:$/u;
const registered = new Map<string, ReminderDeclaration>();

/** The feature list's kinds, known to the parser from now on; a prefix taken twice, or malformed, throws. */
export function registerMentionKinds(kinds: readonly Pick<MentionKind, 'prefix' | 'declaration'>[]): void {
	for (const { prefix, declaration } of kinds) {
		if (!PREFIX.test(prefix)) {
			throw new Error(`The mention prefix "${prefix}" is not lower-case letters, digits or "-" and a colon.`);
		}
		const known = registered.get(prefix);
		if (known !== undefined && known !== declaration) {
			throw new Error(`The mention prefix "${prefix}" is registered twice.`);
		}
		registered.set(prefix, declaration);
	}
}

/** The registered prefixes (what parseMentions reads as contributed mentions by default). */
export function mentionPrefixes(): readonly string[] {
	return [...registered.keys()];
}

/** The declaration of the kind of `prefix`, if one is registered. */
export function mentionKindOf(prefix: string): ReminderDeclaration | undefined {
	return registered.get(prefix);
}

/** Each kind's source in a window, from the services the window hands the features. */
export function windowMentionKinds<Services>(kinds: readonly MentionKind<Services>[], services: Services): WindowMentionKind[] {
	return kinds.flatMap((kind) => {
		const source = kind.source(services);
		return source ? [{ prefix: kind.prefix, declaration: kind.declaration, source }] : [];
	});
}

/**
 * The options the kinds offer for `query`, in the kinds' order: those whose prefix the query
 * starts with, or starts. A kind that fails offers nothing (logged); the files are still listed.
 */
export async function contributedOffers(kinds: readonly WindowMentionKind[], query: string, signal: AbortSignal, log?: Logger): Promise<MentionOffer[]> {
	const asked = kinds.filter((kind) => kind.source.offers !== undefined && (query.startsWith(kind.prefix) || kind.prefix.startsWith(query)));
	const answers = await Promise.all(
		asked.map(async (kind) => {
			try {
				return (await kind.source.offers?.(query, signal)) ?? [];
			} catch (error) {
				if (!signal.aborted) {
					log?.warn(`The @${kind.prefix} mentions could not be listed: ${errorMessage(error)}`);
				}
				return [];
			}
		}),
	);
	return answers.flat();
}
