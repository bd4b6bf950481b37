// What the composer and the host share about @-mentions: a candidate of the `@` list, the fuzzy
// match both rank by, and how a chosen path is written as a mention (as src/mentions/parse.ts reads it).

export interface MentionCandidate {
	readonly kind: 'file' | 'folder';
	/** Workspace-relative, `/`-separated; a folder's without a trailing slash. */
	readonly path: string;
}

/** The most candidates one answer carries. */
export const MAX_MENTION_CANDIDATES = 50;

/**
 * An option of the `@` list a chat feature offers (an MCP resource for `@mcp:`): the host writes
 * the mention it inserts, so the view needs no rule of the feature's.
 */
export interface MentionOffer {
	/** What replaces the `@` word. */
	readonly insert: string;
	readonly label: string;
	readonly detail: string;
	/** Inserted without the space after it, and the list asked again (the prefix `@mcp:` itself). */
	readonly partial?: boolean;
	/** Says something instead of offering it (no server has resources): never chosen. */
	readonly inert?: boolean;
}

/** How long an offered mention may be (a longer one is not offered). */
export const MAX_OFFER_CHARS = 4000;

/** A skill of the composer's `$` list: its name (what `$name` attaches) and what it is for. */
export interface SkillCandidate {
	readonly name: string;
	readonly description: string;
}

/** How much of a skill's description the `$` list carries (one line of it is shown). */
export const SKILL_DESCRIPTION_CHARS = 300;

/** The skills whose names match `query` fuzzily, best first (then by name), at most MAX_MENTION_CANDIDATES, descriptions cut. */
export function rankSkills(query: string, skills: readonly SkillCandidate[]): SkillCandidate[] {
	const lower = query.toLowerCase();
	return skills
		.map((skill) => ({ skill, score: fuzzyScore(lower, skill.name.toLowerCase()) }))
		.filter((ranked): ranked is { skill: SkillCandidate; score: number } => ranked.score !== undefined)
		.sort((a, b) => b.score - a.score || (a.skill.name < b.skill.name ? -1 : a.skill.name > b.skill.name ? 1 : 0))
		.slice(0, MAX_MENTION_CANDIDATES)
		.map(({ skill }) => ({ name: skill.name, description: skill.description.length > SKILL_DESCRIPTION_CHARS ? `${skill.description.slice(0, SKILL_DESCRIPTION_CHARS - 1)}…` : skill.description }));
}

/** A fuzzy score of `query` in `text` (both lower case), or undefined when it does not match. */
export function fuzzyScore(query: string, text: string): number | undefined {
	if (query === '') {
		return 0;
	}
	let score = 0;
	let at = 0;
	let previous = -2;
	const nameStart = text.lastIndexOf('/') + 1;
	for (const char of query) {
		const found = text.indexOf(char, at);
		if (found === -1) {
			return undefined;
		}
		score += 1;
		if (found === previous + 1) {
			score += 3;
		}
		if (found === 0 || '/._- '.includes(text[found - 1] ?? '')) {
			score += 2;
		}
		if (found >= nameStart) {
			score += 2;
		}
		previous = found;
		at = found + 1;
	}
	return score;
}

/** Lines of a file, 1-based and inclusive. */
interface Lines {
	readonly start: number;
	readonly end: number;
}

/** How a path mention is written back (completion inserts this): quoted when it has a space. */
export function mentionText(path: string, range?: Lines): string {
	const suffix = range ? (range.end === range.start ? `#L${range.start}` : `#L${range.start}-${range.end}`) : '';
	return /[\s"]/u.test(path) ? `@"${path}"${suffix}` : `@${path}${suffix}`;
}
