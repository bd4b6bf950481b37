// The context window: how full it is, and what a compaction leaves the model.
// Each is added to BUILTIN_REMINDER_TYPES in ../catalog.ts, in the order of docs/reminder-keys.md.
import { declareReminder } from '../../declaration';
import { everyTurn, interval } from '../../policy';

export const CONTEXT_USAGE = declareReminder({
	type: 'contextUsage',
	key: 'context.usage',
	label: 'context use',
	purpose: 'How much of the model\'s context window is in use, once it is at least half full.',
	introducedIn: '0.1.0',
	configurable: true,
	policy: interval(10),
	description: 'Tells the model how full its context window is, once it is at least half full.',
});

export const CONTEXT_COMPACTION = declareReminder({
	type: 'contextCompaction',
	key: 'context.compaction',
	label: 'compaction coming',
	purpose: 'Context use crossed aside.context.warnAt while automatic compaction is on: the chat will be compacted at aside.context.autoCompactAt, so what must survive belongs in the task list or the plan file; once per crossing.',
	introducedIn: '0.4.0',
	configurable: true,
	policy: everyTurn,
	description: 'Tells the model, once each time context use crosses aside.context.warnAt, that the chat will be compacted soon and to keep what must survive in the task list or plan file.',
});

export const COMPACT_FILE_REFERENCES = declareReminder({
	type: 'compactFileReferences',
	key: 'compact.file-references',
	label: 'files to re-read',
	purpose: 'After a compaction: the files whose contents the summarized part had read and the kept history no longer holds (path, size, when last read), to re-read before relying on them; once per compaction.',
	introducedIn: '0.4.0',
	configurable: true,
	description: 'After the chat is compacted, lists the files the model had read whose contents are no longer in its context, so it re-reads them before relying on them.',
});

// A notice like read.truncated: it frames the summary that stands in for a compacted prefix, in
// the replayed history; registered so it may go on the wire, never switchable, never recorded as a delivery.
export const CONTEXT_SUMMARY = declareReminder({
	type: 'contextSummary',
	key: 'context.summary',
	label: 'summary',
	purpose: 'Frames the summary that replaces the compacted part of a chat in every later request: that the earlier conversation is summarized, and that files must be re-read before relying on them.',
	introducedIn: '0.4.0',
	configurable: false,
	description: 'Frames the summary of a compacted chat.',
});
