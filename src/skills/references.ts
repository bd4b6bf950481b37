// `$name` in a message and `!$name` in a skill body. A `$` counts only at a word boundary (not
// after a letter, digit, `_` or another `$`, so `a$b` and `$$x` are not references) and is followed by
// the exact name: `$release` is the skill `release`, `$release-notes` is `release-notes` or
// nothing, `$release.` is `release`. A name that is no skill is left alone (it may be a shell
// variable); one a letter away from a skill's name gets a hint, since that is likely a typo.
// Inside back-ticks or quotes a `$name` is text (src/mentions/literals.ts).
import { withoutLiterals } from '../mentions/literals';
import { findSkill, type Skill } from './skill';

/** `$name` where a reference may start; `!$name` is a requirement (skill bodies), not an attachment. */
const REFERENCE = /(?<![\w$!])\$([a-z0-9]+(?:-[a-z0-9]+)*)/g;

/** The names referenced in `text`, each once, in the order first written. */
export function referencedNames(text: string): string[] {
	const names: string[] = [];
	for (const match of withoutLiterals(text).matchAll(REFERENCE)) {
		const name = match[1] ?? '';
		if (!names.includes(name)) {
			names.push(name);
		}
	}
	return names;
}

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`. */
export function editDistance(a: string, b: string): number {
	const rows: number[][] = [Array.from({ length: b.length + 1 }, (_value, index) => index)];
	for (let i = 1; i <= a.length; i++) {
		const row = [i];
		for (let j = 1; j <= b.length; j++) {
			const above = rows[i - 1] ?? [];
			let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
				best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
			}
			row[j] = best;
		}
		rows.push(row);
	}
	return rows[a.length]?.[b.length] ?? 0;
}

/** The skill `name` is likely a typo of: one edit away (a swap of two neighbours counts as one), for names of four characters or more. */
export function closeSkill(skills: readonly Skill[], name: string): Skill | undefined {
	return name.length < 4 ? undefined : skills.find((skill) => editDistance(skill.name, name) === 1);
}

export type Flattened =
	| { readonly ok: true; readonly skills: readonly Skill[]; readonly missing: readonly { readonly by: string; readonly name: string }[] }
	| { readonly ok: false; readonly cycle: readonly string[] };

/**
 * The skills `roots` stand for, each dependency before the skill that requires it, each skill
 * once (the first place it is needed). A cycle refuses the whole set, naming the loop; a required
 * name that is no skill is named in `missing` and the rest still comes.
 */
export function flattenRequires(skills: readonly Skill[], roots: readonly Skill[]): Flattened {
	const ordered: Skill[] = [];
	const done = new Set<string>();
	const missing: { by: string; name: string }[] = [];
	const visit = (skill: Skill, path: readonly string[]): readonly string[] | undefined => {
		if (done.has(skill.name)) {
			return undefined;
		}
		const at = path.indexOf(skill.name);
		if (at >= 0) {
			return [...path.slice(at), skill.name];
		}
		for (const name of skill.requires) {
			const required = findSkill(skills, name);
			if (required === undefined) {
				if (!missing.some((entry) => entry.by === skill.name && entry.name === name)) {
					missing.push({ by: skill.name, name });
				}
				continue;
			}
			const cycle = visit(required, [...path, skill.name]);
			if (cycle) {
				return cycle;
			}
		}
		done.add(skill.name);
		ordered.push(skill);
		return undefined;
	};
	for (const root of roots) {
		const cycle = visit(root, []);
		if (cycle) {
			return { ok: false, cycle };
		}
	}
	return { ok: true, skills: ordered, missing };
}
