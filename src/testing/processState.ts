// Whether a real process still runs, for specs that check a process tree was stopped.
import { isRunning } from '../base/processIdentity';

/**
 * Whether `pid` ends within `ms`, polled. A signalled process closes its pipes a moment before the
 * kernel marks it exited, so a check made the instant its reader saw the pipes close can still
 * find it running; one that was never signalled is still running at the end. A zombie counts as
 * ended (in a container, nothing may reap an orphan).
 */
export async function endsWithin(pid: number, ms: number): Promise<boolean> {
	for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 20))) {
		if (!isRunning(pid, undefined)) {
			return true;
		}
	}
	return !isRunning(pid, undefined);
}
