// The workspace's files as the agent sees them: instruction files, files changed outside its
// tools, the diagnostics of its edits, and the notices that ride a Read result.
// Each is added to BUILTIN_REMINDER_TYPES in ../catalog.ts, in the order of docs/reminder-keys.md.
import { declareReminder } from '../../declaration';
import { onChange } from '../../policy';

export const WORKSPACE_INSTRUCTIONS = declareReminder({
	type: 'workspaceInstructions',
	key: 'workspace.instructions',
	label: 'project instructions',
	purpose: 'Your ~/.claude/CLAUDE.md and the instruction files at the workspace root (AGENTS.md, CLAUDE.md, Copilot, Cline, Cursor, Roo), when new or changed.',
	introducedIn: '0.1.0',
	configurable: true,
	policy: onChange,
	description: 'Gives the model your `~/.claude/CLAUDE.md` and the instruction files at the workspace root (AGENTS.md, CLAUDE.md and the others `aside.instructions.files` names), at the start and whenever they change.',
});

export const EDITED_FILES = declareReminder({
	type: 'editedFiles',
	key: 'files.edited',
	label: 'edited files',
	purpose: 'Files the agent read or wrote that changed outside Aside\'s tools since, with a bounded diff or their new size.',
	introducedIn: '0.1.0',
	configurable: true,
	description: 'Tells the model when a file it read or wrote changed outside Aside\'s tools, with a bounded diff.',
});

export const EDIT_DIAGNOSTICS = declareReminder({
	type: 'editDiagnostics',
	key: 'edit.diagnostics',
	label: 'diagnostics',
	purpose: 'After an edit by Aside\'s tools: the problems it introduced or changed, and those already there as context.',
	introducedIn: '0.1.0',
	configurable: true,
	description: 'After the agent edits a file, tells it the problems (errors, warnings) the edit introduced, with the ones already there as context.',
});

// Notices ride a tool result (ToolResult.notices) rather than an injection: registered, so they
// may go on the wire, but never switchable and never in an injection record.
export const READ_TRUNCATED = declareReminder({
	type: 'readTruncated',
	key: 'read.truncated',
	label: 'truncated read',
	purpose: 'Rides a Read result that was cut short: which lines were shown and how to read the rest.',
	introducedIn: '0.1.0',
	configurable: false,
	description: 'Tells the model which lines of a file a Read showed, and how to read the rest.',
});

export const READ_EMPTY = declareReminder({
	type: 'readEmpty',
	key: 'read.empty',
	label: 'empty file',
	purpose: 'Rides a Read result of an empty file, so the empty content is not mistaken for a failed read.',
	introducedIn: '0.1.0',
	configurable: false,
	description: 'Tells the model that a file it read is empty.',
});

// A notice like read.truncated (src/tools/readPdf.ts): the seed's large-PDF guidance, positional.
export const READ_PDF_PAGES = declareReminder({
	type: 'readPdfPages',
	key: 'read.pdf-pages',
	label: 'PDF pages',
	purpose: 'Rides a Read result of a PDF that showed only some of its pages (or found no text in them): the page count and to read bounded page ranges.',
	introducedIn: '0.5.0',
	configurable: false,
	description: 'Tells the model how many pages a PDF has, which it was shown, and to Read it with pages: "START-END".',
});
