// `skills.catalog`: the skills there are — name, one-line description, where its SKILL.md is — as a
// changing prompt observation (observations.ts): in full at the first request of a chat, in full
// again at a turn start after the list changed (with the notice that it replaces the earlier
// version), and again after a compaction dropped its delivery. Nothing when there are no skills.
// Bounded: the first MAX_DESCRIBED_SKILLS with their descriptions, the rest by name.
import type { Skill, Skills } from '../../skills/skill';
import { displayPath } from '../../tools/paths';
import { rosterDefinition } from '../declaration';
import type { ReminderDefinition } from '../definition';
import { sanitizeUntrusted } from '../envelope';
import { SKILLS_CATALOG } from './catalog/skills';
import { observation } from './observations';

export const MAX_DESCRIBED_SKILLS = 50;
/** Skills listed at all; past it, a count. */
export const MAX_LISTED_SKILLS = 200;

/** The skills now, and the workspace folders their paths are shown from. */
export interface SkillCatalogSource extends Pick<Skills, 'current'> {
	roots(): readonly string[];
}

/** For chats that offer no skills (benchmarks, specs of other reminders). */
export const NO_SKILLS: SkillCatalogSource = { current: () => [], roots: () => [] };

export function catalogBody(skills: readonly Skill[], roots: readonly string[]): string {
	const lines = skills.slice(0, MAX_LISTED_SKILLS).map((skill, index) => {
		const where = sanitizeUntrusted(displayPath(skill.source.path, roots));
		return index < MAX_DESCRIBED_SKILLS ? `- ${skill.name}: ${sanitizeUntrusted(skill.description)} (${where})` : `- ${skill.name} (${where})`;
	});
	const cut = [
		skills.length > MAX_DESCRIBED_SKILLS ? `Skills after the first ${MAX_DESCRIBED_SKILLS} are listed without their descriptions.` : '',
		skills.length > MAX_LISTED_SKILLS ? `${skills.length - MAX_LISTED_SKILLS} more are not listed.` : '',
	].filter((line) => line !== '');
	return [
		`The skills of this workspace and the user:\n${lines.join('\n')}`,
		...(cut.length > 0 ? [cut.join(' ')] : []),
		'A skill is given in full when the user names it as `$name` in a message, or when you read a file its paths cover. When a task clearly calls for one not given yet, Read its SKILL.md and follow it.',
	].join('\n\n');
}

export function skillsCatalog(skills: SkillCatalogSource): ReminderDefinition {
	let listed: readonly Skill[] = [];
	return observation(rosterDefinition(SKILLS_CATALOG, {
		scope: 'session',
		trigger: () => {
			listed = skills.current();
			return listed.length > 0;
		},
		content: () => catalogBody(listed, skills.roots()),
	}));
}
