// Skills: the catalog the model may choose from, and the ones attached or activated.
// Each is added to BUILTIN_REMINDER_TYPES in ../catalog.ts, in the order of docs/reminder-keys.md.
import { declareReminder } from '../../declaration';
import { onChange } from '../../policy';

export const SKILLS_CATALOG = declareReminder({
	type: 'skillsCatalog',
	key: 'skills.catalog',
	label: 'skills',
	purpose: 'The skills of the workspace and the user (name, one-line description, where its SKILL.md is), bounded: in full at the first request of a chat, in full again when the list changes, and again after a compaction dropped its delivery; nothing when there are no skills.',
	introducedIn: '0.5.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model which skills there are (name and description), at the start of a chat and whenever a skill is added, removed or changed.',
});

export const SKILL_ATTACHMENT = declareReminder({
	type: 'skillAttachment',
	key: 'skill.attachment',
	label: 'skill',
	purpose: 'The body of each skill a message names as `$name`, with the skills it requires (`!$name`) first, each once; a requirement cycle or unknown requirement said as such; a skill already in context unchanged said so instead of sent again.',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'Gives the model the body of each skill you name as `$name` in a message, with the skills it requires.',
});

export const SKILLS_ACTIVATED = declareReminder({
	type: 'skillsActivated',
	key: 'skills.activated',
	label: 'skill activated',
	purpose: 'After a successful Read of a file matching a skill\'s `paths` globs: that skill\'s body, once per context and content.',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'Gives the model a skill\'s body after it reads a file matching the skill\'s paths, once per chat and content.',
});
