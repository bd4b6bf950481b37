// A skill: a folder with a SKILL.md (the Agent Skills format), whose frontmatter names and
// describes it and whose body is what the model is given when the skill is attached (`$name`) or
// activated (a Read of a file matching its `paths`). Model context only: nothing in a skill runs.
import type { Event } from '../base/event';

export interface SkillSource {
	/** The SKILL.md, absolute. */
	readonly path: string;
	readonly scope: 'workspace' | 'user';
}

export interface Skill {
	/** `[a-z0-9-]+`, the folder's name by convention; what `$name` and `!$name` say. */
	readonly name: string;
	/** One line, cut for the catalog. */
	readonly description: string;
	/** Globs over workspace-relative paths with `/`: a Read of a matching file activates the skill. */
	readonly paths: readonly string[];
	/** Skills this one needs, from `requires` and the `!$name` in its body, in the order written. */
	readonly requires: readonly string[];
	/** The Markdown below the frontmatter. */
	readonly body: string;
	/** Of the whole file, so any edit counts as a change. */
	readonly hash: string;
	readonly source: SkillSource;
}

export interface SkillProblem {
	/** The SKILL.md (absolute), or the folder for a problem of the folder. */
	readonly path: string;
	readonly message: string;
	readonly severity: 'error' | 'warning';
}

/** The skills on offer now, and word when they change. */
export interface Skills {
	current(): readonly Skill[];
	readonly onDidChange: Event<void>;
}

/** Skill names: what the frontmatter's `name` must be, and what `$` and `!$` are followed by. */
export const SKILL_NAME = /^[a-z0-9][a-z0-9-]*$/;

export function findSkill(skills: readonly Skill[], name: string): Skill | undefined {
	return skills.find((skill) => skill.name === name);
}
