// `agents.listing`: the agent profiles the Agent tool can start, as an on-change observation. The
// first request of a chat gets the whole list; later ones only what was added, removed or changed
// since the last delivery; an unchanged list sends nothing. Each delivery records the whole list
// as it then stood (name → a hash of the line said) as its subjects, so a reopened chat picks up
// from there instead of sending the full list again. Only a delivery's commit, which runs once the
// provider accepted the request, moves what counts as told.
import { createHash } from 'node:crypto';
import { isBuiltinProfileName } from '../../agent/subagents/builtinProfiles';
import type { AgentProfile, AgentProfiles } from '../../agent/subagents/profile';
import { rosterDefinition } from '../declaration';
import type { ReminderDefinition, ReminderSubject } from '../definition';
import { sanitizeUntrusted } from '../envelope';
import { DROPPED_FROM_HISTORY } from '../roster';
import { AGENTS_LISTING } from './catalog/agents';

/** Profiles listed with their descriptions at most; the rest by name (and source), so the block stays bounded. */
export const MAX_DESCRIBED_PROFILES = 50;

/** A profile as the listing says it: one line, its description and where a file's comes from quoted safely. */
export function listingLine(profile: AgentProfile, described = true): string {
	const { source } = profile;
	const from =
		source.kind === 'builtin'
			? ''
			: ` (${source.scope === 'workspace' ? 'workspace' : 'user'} profile ${sanitizeUntrusted(source.path)}${isBuiltinProfileName(profile.name) ? '; replaces the built-in one' : ''})`;
	// Descriptions are one line already (profileFile.ts); a line break here would split the entry.
	return described ? `- ${profile.name}: ${sanitizeUntrusted(profile.description.replace(/\s+/g, ' ').trim())}${from}` : `- ${profile.name}${from}`;
}

function hashOf(line: string): string {
	return createHash('sha256').update(line).digest('hex').slice(0, 16);
}

interface Listing {
	/** Name → the line said, in the profiles' order. */
	readonly lines: ReadonlyMap<string, string>;
	/** Name → its hash: what counts as told once delivered. */
	readonly hashes: ReadonlyMap<string, string>;
}

function listingOf(profiles: readonly AgentProfile[]): Listing {
	const lines = new Map<string, string>();
	const hashes = new Map<string, string>();
	for (const [index, profile] of profiles.entries()) {
		const line = listingLine(profile, index < MAX_DESCRIBED_PROFILES);
		lines.set(profile.name, line);
		hashes.set(profile.name, hashOf(line));
	}
	return { lines, hashes };
}

const HOW_TO = 'Start one with the Agent tool, naming it in `agent`; a child runs on its own and returns its final answer as the tool result.';

function fullBody(listing: Listing): string {
	const cut = listing.lines.size > MAX_DESCRIBED_PROFILES ? `\n\nProfiles after the first ${MAX_DESCRIBED_PROFILES} are listed by name only.` : '';
	return `The agent profiles you can start:\n${[...listing.lines.values()].join('\n')}${cut}\n\n${HOW_TO}`;
}

function deltaBody(told: ReadonlyMap<string, string>, listing: Listing): string | undefined {
	const added: string[] = [];
	const changed: string[] = [];
	for (const [name, hash] of listing.hashes) {
		const before = told.get(name);
		if (before === undefined) {
			added.push(listing.lines.get(name) ?? name);
		} else if (before !== hash) {
			changed.push(listing.lines.get(name) ?? name);
		}
	}
	const removed = [...told.keys()].filter((name) => !listing.hashes.has(name));
	if (added.length + changed.length + removed.length === 0) {
		return undefined;
	}
	const sections = ['The agent profiles changed since you were last told; the others are as they were.'];
	if (added.length > 0) {
		sections.push(`Added:\n${added.join('\n')}`);
	}
	if (changed.length > 0) {
		sections.push(`Changed (as they are now):\n${changed.join('\n')}`);
	}
	if (removed.length > 0) {
		// Names come from told hashes, restored from records: quoted safely all the same.
		sections.push(`Removed, no longer available: ${removed.map(sanitizeUntrusted).join(', ')}`);
	}
	return sections.join('\n\n');
}

/** For chats that offer no agents (benchmarks, specs of other reminders): the listing never fires. */
export const NO_AGENT_PROFILES: Pick<AgentProfiles, 'current'> = { current: () => [] };

export function agentsListing(profiles: Pick<AgentProfiles, 'current'>): ReminderDefinition {
	// What the model was told, name → hash; undefined until the first delivery of this chat.
	let told: ReadonlyMap<string, string> | undefined;
	// The trigger's finding, which the content words.
	let body: string | undefined;
	let listing: Listing = { lines: new Map(), hashes: new Map() };
	// The library hands out the same list until it changes: worded and hashed once per list, not per WAIT.
	let listed: readonly AgentProfile[] | undefined;
	// The told listing left the selected history (compaction): the next full listing says so.
	let dropped = false;
	const definition = rosterDefinition(AGENTS_LISTING, {
		scope: 'session',
		trigger: () => {
			const current = profiles.current();
			if (current !== listed) {
				listed = current;
				listing = listingOf(current);
			}
			if (told === undefined) {
				body = listing.lines.size > 0 ? fullBody(listing) : undefined;
			} else {
				body = deltaBody(told, listing);
			}
			return body !== undefined;
		},
		content: () => {
			const delivered = listing;
			const first = told === undefined;
			const subjects: ReminderSubject[] = [...delivered.hashes].map(([name, hash]) => ({ ref: name, hashes: [hash] }));
			return {
				body: body ?? '',
				reason: first ? (dropped ? DROPPED_FROM_HISTORY : 'the agent profiles, at the start of the chat') : 'agent profiles were added, removed or changed',
				subjects,
				commit: () => {
					told = delivered.hashes;
					dropped = false;
				},
			};
		},
	});
	return {
		...definition,
		// A changing prompt observation (observations.ts), though its later deliveries are deltas:
		// once compaction dropped what it told, it forgets that, so the next delivery is the full listing.
		observation: true,
		forget: () => {
			dropped ||= told !== undefined;
			told = undefined;
		},
		restore: (subjects) => {
			const restored = new Map<string, string>();
			for (const { ref, hashes } of subjects) {
				const hash = hashes[0];
				if (hash !== undefined) {
					restored.set(ref, hash);
				}
			}
			told = restored;
			dropped = false;
		},
	};
}
