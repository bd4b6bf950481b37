// Ending what a background process left running, when the usual way cannot: the terminal a
// process runs in belongs to the window, and when the window goes (a reload, VS Code closed) its
// `dispose()` may never reach the terminal host, whose shell then runs on unseen. So the shell —
// the leader of the terminal's session, which holds every job it started — is signalled directly,
// with every process of its session (Linux: /proc/*/stat field 6). Elsewhere the shell gets a
// hangup, which it passes on to its jobs.
import { readdirSync } from 'node:fs';
import { statFields } from '../base/processIdentity';

/** The pids of the session `leader` leads (itself included), or undefined where /proc cannot tell. */
function sessionOf(leader: number): number[] | undefined {
	let entries: string[];
	try {
		entries = readdirSync('/proc');
	} catch {
		return undefined;
	}
	const pids = entries.filter((name) => /^\d+$/.test(name)).map(Number);
	return pids.filter((pid) => pid === leader || statFields(pid)?.[3] === String(leader));
}

function signal(pid: number, name: NodeJS.Signals): boolean {
	try {
		process.kill(pid, name);
		return true;
	} catch {
		return false;
	}
}

/** Kills the session `leader` leads and everything in it, now; whether anything was signalled. */
export function endSession(leader: number): boolean {
	// Never this process's own session (nor init): a terminal's shell is never either.
	if (!Number.isInteger(leader) || leader <= 1 || leader === process.pid || statFields('self')?.[3] === String(leader)) {
		return false;
	}
	const members = sessionOf(leader);
	if (members === undefined) {
		return signal(leader, 'SIGHUP');
	}
	let ended = false;
	for (const pid of members) {
		ended = signal(pid, 'SIGKILL') || ended;
	}
	return ended;
}
