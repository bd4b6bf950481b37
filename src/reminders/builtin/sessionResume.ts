// `session.resume`: the session was reopened in a new extension host (a window reload, a
// restart). Enqueued on the pending FIFO when the session is reopened, so it rides the root's
// next request; the FIFO is in memory, so a second restart before then simply re-enqueues it.
import type { StagedEntry } from '../definition';
import { SESSION_RESUME } from './catalog';

export interface Resume {
	/** When the session last recorded anything, in ms since the epoch. */
	readonly lastActivity: number;
	/** The last turn was still running when the host went away. */
	readonly interrupted: boolean;
}

export function sessionResume(resume: Resume): StagedEntry {
	const when = new Date(resume.lastActivity).toISOString().replace(/\.\d+Z$/, 'Z');
	const lines = [`This session was reopened after VS Code reloaded or restarted; it last recorded activity at ${when}. Files may have changed since then.`];
	if (resume.interrupted) {
		lines.push('The previous turn was interrupted before it finished: commands or edits it started may be partial. Check the state of the files you were changing before you continue.');
	}
	return {
		type: SESSION_RESUME.type,
		key: SESSION_RESUME.key,
		label: SESSION_RESUME.label,
		body: lines.join('\n'),
		reason: resume.interrupted ? 'the session was reopened after an interrupted turn' : 'the session was reopened',
	};
}
