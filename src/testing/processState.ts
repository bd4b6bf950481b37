// Whether a real process still runs, for specs that check a process tree was stopped.
import { readFileSync } from 'node:fs';

/** Alive and not a zombie (in a container, nothing may reap an orphan). Linux only: reads /proc. */
export function isRunning(pid: number): boolean {
	try {
		return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
	} catch {
		return false;
	}
}

/**
 * Whether `pid` ends within `ms`, polled. A signalled process closes its pipes a moment before the
 * kernel marks it exited, so a check made the instant its reader saw the pipes close can still
 * find it running; one that was never signalled is still running at the end.
 */
export async function endsWithin(pid: number, ms: number): Promise<boolean> {
	for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 20))) {
		if (!isRunning(pid)) {
			return true;
		}
	}
	return !isRunning(pid);
}
