// `skill.attachment`: each skill a message names as `$name`, attached in the skill stage through
// the attachments seam (src/agent/attachments.ts), with the skills it requires flattened first into
// the same collection, each once. The text stays as typed. A skill the chat's history already
// holds unchanged (attached, or activated by a Read) is not sent again: its entry says it is
// already in context. That mark is the history itself — the subjects recorded with a delivery,
// written only when the request that carried it was dispatched — so a cancelled or failed request
// marks nothing, a reopened chat knows what it holds, and after a compaction dropped the delivery
// the skill is attached in full again.
import { SKILL_ATTACHMENT, SKILLS_ACTIVATED } from '../reminders/builtin/catalog/skills';
import { deliveredSubjects, type RecordLike } from '../reminders/history';
import type { StagedInStage } from '../reminders/staging';
import type { MessageAttachments } from '../agent/attachments';
import type { Owner } from '../reminders/definition';
import { closeSkill, flattenRequires, referencedNames } from './references';
import { findSkill, type Skill, type Skills } from './skill';
import { skillSection, skillSubject } from './skillText';

export interface SkillAttachmentSources {
	readonly skills: Pick<Skills, 'current'>;
	readonly roots: () => readonly string[];
	/** The records the chat's next request is built from (after its compaction point). */
	readonly history: () => Iterable<RecordLike>;
	/**
	 * A skill's body went out to `owner` (the entry's commit, run only once its request was
	 * dispatched): path activation counts it as given from then on.
	 */
	readonly given?: (owner: Owner, skill: Skill) => void;
}

function entry(body: string, reason: string, skill?: Skill, commit?: () => void): StagedInStage {
	return {
		stage: 'skill',
		entry: {
			type: SKILL_ATTACHMENT.type,
			key: SKILL_ATTACHMENT.key,
			body,
			reason,
			...(skill ? { subjects: [skillSubject(skill)] } : {}),
			...(commit ? { commit } : {}),
		},
	};
}

/** Name → the content hashes of it the history holds. */
function heldSkills(records: Iterable<RecordLike>): Map<string, Set<string>> {
	const held = new Map<string, Set<string>>();
	const all = [...records];
	for (const type of [SKILL_ATTACHMENT.type, SKILLS_ACTIVATED.type]) {
		for (const subjects of deliveredSubjects(all, type)) {
			for (const { ref, hashes } of subjects) {
				const set = held.get(ref) ?? new Set<string>();
				hashes.forEach((hash) => set.add(hash));
				held.set(ref, set);
			}
		}
	}
	return held;
}

export function skillAttachments(sources: SkillAttachmentSources): MessageAttachments {
	return (text, owner) => {
		const names = referencedNames(text);
		if (names.length === 0 || owner.kind !== 'root') {
			return Promise.resolve([]);
		}
		const skills = sources.skills.current();
		const roots = sources.roots();
		const entries: StagedInStage[] = [];
		const collected: Skill[] = [];
		const requiredBy = new Map<string, string>();
		for (const name of names) {
			const skill = findSkill(skills, name);
			if (skill === undefined) {
				const close = closeSkill(skills, name);
				if (close) {
					entries.push(entry(`\`$${name}\` in the message names no skill; nothing was attached for it. The skill \`${close.name}\` has a similar name: if it was meant, the user can write \`$${close.name}\`.`, 'the message names no skill, but one with a similar name'));
				}
				continue;
			}
			const flattened = flattenRequires(skills, [skill]);
			if (!flattened.ok) {
				entries.push(entry(`The skill \`${name}\` was not attached: its requirements form a cycle (${flattened.cycle.map((step) => `\`${step}\``).join(' requires ')}). Fix \`requires\` or \`!$name\` in those SKILL.md files.`, 'the skill\'s requirements form a cycle'));
				continue;
			}
			for (const { by, name: missing } of flattened.missing) {
				entries.push(entry(`The skill \`${by}\` requires \`${missing}\`, which is no skill; it is attached without it.`, 'a skill requires an unknown skill'));
			}
			for (const needed of flattened.skills) {
				if (!collected.includes(needed)) {
					collected.push(needed);
					if (needed !== skill) {
						requiredBy.set(needed.name, skill.name);
					}
				}
			}
		}
		const held = heldSkills(sources.history());
		for (const skill of collected) {
			const by = requiredBy.get(skill.name);
			if (held.get(skill.name)?.has(skill.hash) === true) {
				entries.push(entry(`The skill \`${skill.name}\` is already in your context, unchanged since it was given; follow it as given there.`, 'already in context'));
				continue;
			}
			const why = by === undefined ? `attached because the message names \`$${skill.name}\`` : `attached because \`${by}\` requires it`;
			const given = sources.given;
			entries.push(entry(skillSection(skill, roots, why), by === undefined ? 'the message names the skill' : 'a skill the message names requires it', skill, given && (() => {
				given(owner, skill);
			})));
		}
		return Promise.resolve(entries);
	};
}
