// `session.resume`: the session was reopened, and the model is told how — a new window reopened
// the chat that was current (a reload, a restart), the person picked it from the chat list, or it
// continues as a copy of a chat another window is writing. Enqueued on the pending FIFO when the
// session is reopened, so it rides the root's next request; the FIFO is in memory, so a second
// reopen before then simply enqueues it again. What a cut-off last turn may have left partial is
// session.recovery's (sessionRecovery.ts), queued beside it.
import { entryOf } from '../declaration';
import type { StagedEntry } from '../definition';
import { SESSION_RESUME } from './catalog/session';

/**
 * `restart`: a new extension host reopened the chat that was current (a window reload, a
 * restart). `chat-list`: the person reopened it from the chat list. `copy`: it is a copy of a
 * chat another window holds, made when the person sent a message there.
 */
export type ResumeCause = 'restart' | 'chat-list' | 'copy';

export interface Resume {
	readonly cause: ResumeCause;
	/** When the session last recorded anything, in ms since the epoch. */
	readonly lastActivity: number;
}

function what(cause: ResumeCause, when: string): string {
	switch (cause) {
		case 'restart':
			return `This session was reopened after VS Code reloaded or restarted; it last recorded activity at ${when}. Files may have changed since then.`;
		case 'chat-list':
			return `The person reopened this session from the chat list; it last recorded activity at ${when}. Files may have changed since then.`;
		case 'copy':
			return `This session is a copy of a session that is open in another VS Code window; the copy holds its history up to ${when}. That window may go on working in the same files, so check their state before you rely on what this history says about them.`;
	}
}

const REASONS: Readonly<Record<ResumeCause, string>> = {
	restart: 'the session was reopened after VS Code reloaded or restarted',
	'chat-list': 'the person reopened the session from the chat list',
	copy: 'the session continues, as a copy, a chat open in another window',
};

export function sessionResume(resume: Resume): StagedEntry {
	const when = new Date(resume.lastActivity).toISOString().replace(/\.\d+Z$/, 'Z');
	// What a cut-off last turn may have left is session.recovery's to say.
	return { ...entryOf(SESSION_RESUME), body: what(resume.cause, when), reason: REASONS[resume.cause] };
}
