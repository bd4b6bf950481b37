// `session.rewind`: the person restored files, the chat or both to before one of their messages
// (Restore…, src/agent/restore.ts). Enqueued on the pending FIFO once per restore, so it rides the
// root's next request: what was rolled back, and that what the model said or saw of those files
// earlier no longer holds. Made from the durable `restore` record, so a chat reopened before the
// notice went out queues it again (`rewindAfterReopen`).
import { sanitizeUntrusted } from '../envelope';
import { entryOf } from '../declaration';
import type { StagedEntry } from '../definition';
import type { AgentRecord } from '../../transcript/records';
import type { RestoreRecord } from '../../transcript/restoreRecord';
import { SESSION_REWIND } from './catalog';

const MAX_QUOTE_CHARS = 200;
/** Files named one by one; the rest are counted. */
const MAX_LISTED_FILES = 50;

const SCOPE_WORDS: Record<RestoreRecord['scope'], string> = {
	files: 'the files Aside\'s tools changed',
	chat: 'the conversation',
	both: 'the conversation and the files Aside\'s tools changed',
};

/** One file of an undo: what the earlier restore had written is put back as it was before it. */
function undoLine(file: RestoreRecord['files'][number]): string {
	const shown = sanitizeUntrusted(file.shown);
	switch (file.action) {
		case 'change':
			return `- ${shown}: ${file.done ? 'back as it was just before that restore' : 'not put back'}`;
		case 'person-changed':
			return file.done ? `- ${shown}: back as it was just before that restore, over changes made since` : `- ${shown}: left as it is, because it changed since that restore`;
		case 'recreate':
			return `- ${shown}: ${file.done ? 'recreated (that restore had deleted it)' : 'not recreated'}`;
		case 'delete':
			return `- ${shown}: ${file.done ? 'deleted (that restore had recreated it)' : 'not deleted'}`;
		case 'keep':
			return `- ${shown}: kept as it is (that restore had recreated it, and it was changed since)`;
		case 'missing':
			return `- ${shown}: could not be put back (its content before that restore is no longer kept); left as it is`;
		case 'outside':
			return `- ${shown}: not put back (it is outside the workspace folders now)`;
	}
}

function fileLine(file: RestoreRecord['files'][number]): string {
	const shown = sanitizeUntrusted(file.shown);
	switch (file.action) {
		case 'change':
			return `- ${shown}: ${file.done ? 'put back as it was before that message' : 'not restored'}`;
		case 'recreate':
			return `- ${shown}: ${file.done ? 'recreated as it was before that message (it had been deleted)' : 'not recreated'}`;
		case 'delete':
			return `- ${shown}: ${file.done ? 'deleted (you had created it after that message)' : 'not deleted'}`;
		case 'keep':
			return `- ${shown}: kept as it is (you had created it, and it was changed since)`;
		case 'person-changed':
			return file.done ? `- ${shown}: put back as it was before that message, over changes the user had made since` : `- ${shown}: left as it is, because the user changed it since your last edit (it is neither your version nor the earlier one)`;
		case 'missing':
			return `- ${shown}: could not be restored (its earlier content is no longer kept); left as it is`;
		case 'outside':
			return `- ${shown}: not restored (it is outside the workspace folders now)`;
	}
}

/** The text of the user message restored to, from the records (empty when it is not there). */
function messageOf(records: readonly AgentRecord[], id: string): string {
	const record = records.find((candidate) => candidate.kind === 'user' && candidate.id === id);
	return record?.kind === 'user' ? record.text : '';
}

/** The notice for one restore; `records`: the chat's root conversation (for the message's words). */
export function sessionRewind(restore: RestoreRecord, records: readonly AgentRecord[]): StagedEntry {
	const text = messageOf(records, restore.to).replace(/\s+/g, ' ').trim();
	const quote = text.length > MAX_QUOTE_CHARS ? `${text.slice(0, MAX_QUOTE_CHARS)}…` : text;
	if (restore.undoes !== undefined) {
		return undoneRewind(restore, quote);
	}
	const turns = restore.turns.length;
	const lines = [`The user restored ${SCOPE_WORDS[restore.scope]} to the state before their message "${sanitizeUntrusted(quote)}" (${turns === 1 ? '1 turn' : `${turns} turns`} rolled back).`];
	if (restore.scope !== 'files') {
		lines.push('The conversation continues from before that message: that message and everything after it are no longer part of this chat, and the work done in those turns is not to be assumed.');
	}
	if (restore.scope !== 'chat') {
		if (restore.files.length === 0) {
			lines.push('No file needed restoring.');
		} else {
			lines.push('Files:');
			lines.push(...restore.files.slice(0, MAX_LISTED_FILES).map(fileLine));
			if (restore.files.length > MAX_LISTED_FILES) {
				lines.push(`- and ${restore.files.length - MAX_LISTED_FILES} more`);
			}
		}
		lines.push('What was said or shown earlier in this chat about these files no longer holds: read them again before relying on their contents or editing them.');
		lines.push('Only files Aside\'s tools changed are restored; the side effects of commands (Run) were not rolled back.');
	} else {
		lines.push('The files were not restored: they are as they are now, with any changes made in the rolled-back turns; read them before relying on what you knew of them.');
	}
	return {
		...entryOf(SESSION_REWIND),
		body: lines.join('\n'),
		reason: `the user restored ${restore.scope === 'both' ? 'the chat and files' : restore.scope === 'chat' ? 'the chat' : 'files'} to before a message`,
	};
}

/** The notice for the undo of an earlier restore (to before the message `quote`): the files it wrote are back as they were just before it. */
function undoneRewind(undo: RestoreRecord, quote: string): StagedEntry {
	const lines = [`The user undid their earlier restore of files to the state before their message "${sanitizeUntrusted(quote)}": the files that restore wrote are back as they were just before it. The conversation is unchanged.`];
	lines.push('Files:', ...undo.files.slice(0, MAX_LISTED_FILES).map(undoLine));
	if (undo.files.length > MAX_LISTED_FILES) {
		lines.push(`- and ${undo.files.length - MAX_LISTED_FILES} more`);
	}
	lines.push('What was said or shown since that restore about these files no longer holds: read them again before relying on their contents or editing them.');
	return { ...entryOf(SESSION_REWIND), body: lines.join('\n'), reason: 'the user undid a restore of files' };
}

/**
 * On reopen: the notice of the chat's latest restore, when no request carried it yet (no
 * injection record after it delivered `session.rewind`); undefined otherwise.
 */
export function rewindAfterReopen(records: readonly AgentRecord[]): StagedEntry | undefined {
	for (let index = records.length - 1; index >= 0; index--) {
		const record = records[index] as AgentRecord;
		if (record.kind === 'injected-reminders' && record.entries.some((entry) => entry.key === SESSION_REWIND.key)) {
			return undefined;
		}
		if (record.kind === 'restore') {
			return sessionRewind(record, records);
		}
	}
	return undefined;
}
