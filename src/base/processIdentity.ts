// Telling whether a process that some record names still runs, and is still the same one: a pid is
// reused once its process is gone, so the process's start time (Linux: /proc/<pid>/stat field 22,
// clock ticks after boot) goes with it. Elsewhere the start is unknown and only the pid is checked.
import { readFileSync } from 'node:fs';

/** The stat fields after the command name (field 2, which may hold spaces and parentheses): field 3 first. */
export function statFields(pid: number | 'self'): readonly string[] | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	} catch {
		return undefined;
	}
}

/** This process's start as Linux counts it, or undefined where that is not known. */
export function processStartOf(pid: number | 'self'): string | undefined {
	return statFields(pid)?.[19];
}

/** Whether process `pid` runs (a zombie does not), and is the one that started at `start` when that is known. */
export function isRunning(pid: number, start: string | undefined): boolean {
	const fields = statFields(pid);
	if (fields !== undefined) {
		return fields[0] !== 'Z' && (start === undefined || fields[19] === start);
	}
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: it runs, as someone else's.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}
