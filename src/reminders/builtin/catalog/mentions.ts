// What the person brings into the chat with @-mentions, staged in the mention stage of the turn's
// first request (src/mentions/, bodies in ../mentions.ts).
// Each is added to BUILTIN_REMINDER_TYPES in ../catalog.ts, in the order of docs/reminder-keys.md.
import { declareReminder } from '../../declaration';

export const MENTION_FILE = declareReminder({
	type: 'mentionFile',
	key: 'mention.file',
	label: 'mentioned file',
	purpose: 'A file the user mentioned (`@path`, `@path#L10-40`): its content, bounded, with guidance to Read the rest; that it is already in context when this chat was given it unchanged; or why it is not attached (outside the workspace, binary, over the size cap, not found).',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'Attaches the content of a file you mention with @path (a line range with #L10-40) to your message, once per chat and content.',
});

export const MENTION_FOLDER = declareReminder({
	type: 'mentionFolder',
	key: 'mention.folder',
	label: 'mentioned folder',
	purpose: 'A folder the user mentioned (`@path/`): a bounded listing of its entries, or why it is not attached.',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'Attaches a bounded listing of a folder you mention with @path/ to your message.',
});

export const MENTION_PROBLEMS = declareReminder({
	type: 'mentionProblems',
	key: 'mention.problems',
	label: 'problems',
	purpose: 'The workspace\'s current errors and warnings when the user wrote `@problems`, capped, errors first.',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'Attaches the workspace\'s current errors and warnings (capped) when you write @problems.',
});

export const MENTION_SELECTION = declareReminder({
	type: 'mentionSelection',
	key: 'mention.selection',
	label: 'selection',
	purpose: 'The active editor\'s selection when the user wrote `@selection`: its file, lines and text, bounded; or that nothing is selected.',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'Attaches the active editor\'s selection, with its file and lines, when you write @selection.',
});

export const MENTION_CHANGES = declareReminder({
	type: 'mentionChanges',
	key: 'mention.changes',
	label: 'changes',
	purpose: 'The working tree\'s uncommitted diff (through the built-in git extension) when the user wrote `@changes`, bounded; or that there is no repository or nothing changed.',
	introducedIn: '0.5.0',
	configurable: true,
	description: 'Attaches the working tree\'s uncommitted changes (a bounded diff) when you write @changes.',
});
