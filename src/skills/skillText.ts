// How a skill is put in front of the model, the same for `$name` attachments and path activation:
// a heading naming the skill and its file, why it is here, then its body, quoted safely.
import { sanitizeUntrusted } from '../reminders/envelope';
import { displayPath } from '../tools/paths';
import type { Skill } from './skill';

export function skillSection(skill: Skill, roots: readonly string[], why: string): string {
	return `Skill \`${skill.name}\` (${sanitizeUntrusted(displayPath(skill.source.path, roots))}), ${why}. Follow it for this work unless the user says otherwise.\n\n${sanitizeUntrusted(skill.body)}`;
}

/** What a delivery of the skill records: its name and content hash (never its text). */
export function skillSubject(skill: Skill): { readonly ref: string; readonly hashes: readonly string[] } {
	return { ref: skill.name, hashes: [skill.hash] };
}
