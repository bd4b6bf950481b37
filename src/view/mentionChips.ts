// The chips of a user row: its `@`-mentions, found with the parser the agent expands them with
// (src/mentions/parse.ts), so the row shows exactly what was sent. The text stays as typed; the
// chips are beside it. Once the turn's first request is recorded, its `mention.*` entries say
// what became of each one (src/reminders/builtin/mentions.ts writes them, one per mention that
// names something, in the order typed): attached, already in context, or rejected and why. A
// path that named nothing stayed text for the agent, so its chip goes. A chat feature's kind of
// mention (`@mcp:server/uri`) is a `resource` chip, settled by the entry of its kind that names it.
import { mentionKindOf, mentionPrefixes } from '../mentions/kinds';
import { type MentionToken, parseMentions } from '../mentions/parse';
import type { MentionChipView } from '../protocol/messages';
import { MENTION_CHANGES, MENTION_FILE, MENTION_FOLDER, MENTION_PROBLEMS, MENTION_SELECTION } from '../reminders/builtin/catalog/mentions';
import { sanitizeUntrusted } from '../reminders/envelope';

/** What a recorded reminder entry says, as far as a chip needs it. */
export interface MentionEntryLike {
	readonly key: string;
	readonly body: string;
	readonly reason: string;
}

function chipOf(token: MentionToken): MentionChipView {
	const label = token.raw.slice(1);
	if (token.kind === 'keyword') {
		return { kind: token.keyword, label, state: 'pending' };
	}
	if (token.kind === 'contributed') {
		return { kind: 'resource', label, state: 'pending' };
	}
	return { kind: token.folder ? 'folder' : 'file', label, path: token.path, ...(token.range ? { range: { ...token.range } } : {}), state: 'pending' };
}

/** The chips of a message's text, in the order typed, each mention once; none for an `@` that is no mention (`a@b.com`). */
export function chipsOf(text: string): MentionChipView[] {
	return parseMentions(text).map(chipOf);
}

const MENTION_KEYS = new Set([MENTION_FILE, MENTION_FOLDER, MENTION_PROBLEMS, MENTION_SELECTION, MENTION_CHANGES].map((declaration) => declaration.key));
const KEYWORD_KEYS: Record<Exclude<MentionChipView['kind'], 'resource'>, string> = {
	file: MENTION_FILE.key,
	folder: MENTION_FOLDER.key,
	problems: MENTION_PROBLEMS.key,
	selection: MENTION_SELECTION.key,
	changes: MENTION_CHANGES.key,
};

/** Whether `entry` is the one a contributed kind made for this `resource` chip: of its kind's key, naming the mention as written. */
function isContributedEntryOf(chip: MentionChipView, entry: MentionEntryLike): boolean {
	const prefix = mentionPrefixes().find((candidate) => chip.label.startsWith(candidate));
	const key = prefix === undefined ? undefined : mentionKindOf(prefix)?.key;
	const named = `${MENTIONED}${sanitizeUntrusted(`@${chip.label}`)}`;
	return key !== undefined && entry.key === key && entry.body.startsWith(named) && /^[ ,.:]/u.test(entry.body.slice(named.length));
}

/** A path as the tools show it: forward slashes, no `./`, no trailing slash. */
function normalised(path: string): string {
	return path.replace(/\\/gu, '/').replace(/^(?:\.\/)+/u, '').replace(/\/+$/u, '');
}

/**
 * Whether `shown` (how an entry names the place) is the place `written` names: the same, or one is the
 * other below a folder (a second workspace folder, an absolute path).
 */
function samePlace(shown: string, written: string): boolean {
	return shown === written || shown.endsWith(`/${written}`) || written.endsWith(`/${shown}`);
}

const MENTIONED = 'The user mentioned ';
const MENTIONED_FOLDER = 'The user mentioned the folder ';

/**
 * Whether a `mention.file` / `mention.folder` entry is the one this path chip made. A rejection
 * names the mention as written; the others name the place as shown, followed by a space or a
 * full stop (`… src/a.ts (lines 1–9 of 9)`, `… src/a.ts again.`, `… the folder docs.`).
 */
function isEntryOf(chip: MentionChipView, entry: MentionEntryLike): boolean {
	if ((entry.key !== MENTION_FILE.key && entry.key !== MENTION_FOLDER.key) || chip.path === undefined) {
		return false;
	}
	if (entry.body.startsWith(`${MENTIONED}${sanitizeUntrusted(`@${chip.label}`)}, which is not `)) {
		return true;
	}
	const rest = entry.body.startsWith(MENTIONED_FOLDER) ? entry.body.slice(MENTIONED_FOLDER.length) : entry.body.startsWith(MENTIONED) ? entry.body.slice(MENTIONED.length) : '';
	const firstLine = rest.split('\n', 1)[0] ?? '';
	const written = normalised(sanitizeUntrusted(chip.path));
	// The place ends at a space or at a full stop that ends a sentence (`a.ts` has a dot inside).
	for (let end = 1; end < firstLine.length; end++) {
		const next = firstLine[end + 1];
		const ends = firstLine[end] === ' ' || (firstLine[end] === '.' && (next === undefined || next === ' '));
		if (ends && samePlace(firstLine.slice(0, end), written)) {
			return true;
		}
	}
	return false;
}

/** The sentence after "which is not attached: " (or "listed"), as the rejection wrote it. */
function rejection(body: string): string {
	const match = /, which is not (?:attached|listed): ([\s\S]*)$/u.exec(body);
	return (match?.[1] ?? body).trim().slice(0, 2000);
}

function settledPath(chip: MentionChipView, entry: MentionEntryLike): MentionChipView {
	const kind = entry.key === MENTION_FOLDER.key ? 'folder' : 'file';
	if (/could not be (?:attached|listed)$/u.test(entry.reason)) {
		return { ...chip, kind, state: 'rejected', detail: rejection(entry.body) };
	}
	return { ...chip, kind, state: / already given$/u.test(entry.reason) ? 'in-context' : 'attached' };
}

/** A contributed kind's entry says what became of its mention the way a file's does (its reason). */
function settledContributed(chip: MentionChipView, entry: MentionEntryLike): MentionChipView {
	if (/could not be attached$/u.test(entry.reason)) {
		return { ...chip, state: 'rejected', detail: rejection(entry.body) };
	}
	return { ...chip, state: / already given$/u.test(entry.reason) ? 'in-context' : 'attached' };
}

function settledKeyword(chip: MentionChipView, entry: MentionEntryLike): MentionChipView {
	// `@selection` with nothing selected, `@changes` without a diff: said, but nothing attached.
	const empty = /: nothing is attached\.$|there is no diff to attach: /u.exec(entry.body);
	return empty ? { ...chip, state: 'rejected', detail: entry.body.replace(/^The user mentioned @\w+,?\s*/u, '').slice(0, 2000) } : { ...chip, state: 'attached' };
}

/**
 * The chips as the turn's first request left them, from the entries it carried (all of its
 * injection, any keys: only `mention.*` ones are read). A chip without an entry named nothing
 * (or its kind is turned off): it stayed text, and is left out.
 */
export function settleChips(chips: readonly MentionChipView[], entries: readonly MentionEntryLike[]): MentionChipView[] {
	const contributedKeys = new Set(mentionPrefixes().flatMap((prefix) => mentionKindOf(prefix)?.key ?? []));
	const mentions = entries.filter((entry) => MENTION_KEYS.has(entry.key) || contributedKeys.has(entry.key));
	const settled: MentionChipView[] = [];
	let next = 0;
	for (const chip of chips) {
		const entry = mentions[next];
		if (entry === undefined) {
			break;
		}
		if (chip.kind === 'resource') {
			if (isContributedEntryOf(chip, entry)) {
				settled.push(settledContributed(chip, entry));
				next += 1;
			}
		} else if (chip.path === undefined) {
			if (entry.key === KEYWORD_KEYS[chip.kind]) {
				settled.push(settledKeyword(chip, entry));
				next += 1;
			}
		} else if (isEntryOf(chip, entry)) {
			settled.push(settledPath(chip, entry));
			next += 1;
		}
	}
	return settled;
}
