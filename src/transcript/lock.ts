// One writer per session file. Two VS Code windows on one workspace share its storage folder, so
// each could open the same transcript; only the holder of `<sessionId>.lock` may append to it or
// repair it. The lock file is created exclusively and names its owner (pid, host, a random token,
// when it was taken). A lock whose owner is gone — its process no longer exists, or the pid now
// belongs to a later process — is taken over, so a crashed window never keeps a chat locked.
import { randomUUID } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { processStartOf } from '../base/processIdentity';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import { checkSessionId, TranscriptError } from './paths';

export const LOCK_SUFFIX = '.lock';

/** A lock file that is empty or unreadable this long after its last change was abandoned mid-creation. */
const HALF_WRITTEN_MS = 10_000;
const ATTEMPTS = 3;

/** Who holds a session's lock, as its lock file says. */
export interface LockOwner {
	readonly pid: number;
	readonly host: string;
	readonly token: string;
	/** When the lock was taken, ms since the epoch. */
	readonly since: number;
	/** The owner process's start as the OS counts it (Linux: /proc/<pid>/stat field 22), to tell a reused pid. */
	readonly processStart?: string;
}

/** The lock is held by a live owner: the session can be read, not written. */
export class TranscriptLockedError extends TranscriptError {
	constructor(
		readonly sessionId: string,
		readonly owner: LockOwner | undefined,
	) {
		super(`Session ${sessionId} is open in another window (${describeOwner(owner)}); it cannot be written here.`);
	}
}

/** The owner in words, for messages: never more than a pid and a host. */
export function describeOwner(owner: LockOwner | undefined): string {
	if (owner === undefined) {
		return 'its lock is being taken';
	}
	const here = owner.host === hostname() ? '' : ` on ${owner.host}`;
	return `process ${owner.pid}${here}, since ${new Date(owner.since).toISOString().replace(/\.\d+Z$/, 'Z')}`;
}

export function lockPath(dir: string, sessionId: string): string {
	return join(dir, `${sessionId}${LOCK_SUFFIX}`);
}

/** Tokens of the locks this process holds: a lock naming this pid but another token is not alive. */
const heldHere = new Set<string>();

function code(error: unknown): string | undefined {
	return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}

let ownStart: string | undefined | null = null;
function ownProcessStart(): string | undefined {
	if (ownStart === null) {
		ownStart = processStartOf('self');
	}
	return ownStart;
}

function parseOwner(text: string): LockOwner | undefined {
	try {
		const value = JSON.parse(text) as Partial<LockOwner> | null;
		if (
			typeof value === 'object' && value !== null &&
			typeof value.pid === 'number' && Number.isInteger(value.pid) && value.pid > 0 &&
			typeof value.host === 'string' && typeof value.token === 'string' && typeof value.since === 'number'
		) {
			return { pid: value.pid, host: value.host, token: value.token, since: value.since, ...(typeof value.processStart === 'string' ? { processStart: value.processStart } : {}) };
		}
	} catch {
		// Not JSON: a lock file cut off while it was being written.
	}
	return undefined;
}

/** Whether the owner can still be writing. Only what is known to be gone counts as gone. */
function isAlive(owner: LockOwner): boolean {
	if (owner.host !== hostname()) {
		return true; // Another machine's process cannot be checked from here.
	}
	if (owner.pid === process.pid) {
		return heldHere.has(owner.token);
	}
	try {
		process.kill(owner.pid, 0);
	} catch (error) {
		// EPERM: the process exists but belongs to someone else.
		return code(error) !== 'ESRCH';
	}
	// The pid is in use; by the same process only if it started when the owner did.
	const start = owner.processStart === undefined ? undefined : processStartOf(owner.pid);
	return start === undefined || start === owner.processStart;
}

interface Seen {
	readonly text: string;
	readonly owner: LockOwner | undefined;
	readonly abandoned: boolean;
}

function inspect(path: string, now: number): Seen | undefined {
	let text: string;
	let changedAt: number;
	try {
		text = readFileSync(path, 'utf8');
		changedAt = statSync(path).mtimeMs;
	} catch (error) {
		if (code(error) === 'ENOENT') {
			return undefined;
		}
		throw error;
	}
	const owner = parseOwner(text);
	const abandoned = owner === undefined ? now - changedAt > HALF_WRITTEN_MS : !isAlive(owner);
	return { text, owner, abandoned };
}

/**
 * Removes an abandoned lock file, if it is still the one that was inspected. It is moved aside
 * first (a rename is atomic), so two windows taking over at once cannot both remove a lock and
 * each believe it created the next one; a live lock moved by mistake is put back.
 */
function takeOver(path: string, seen: Seen, token: string): void {
	const aside = `${path}.${token}.stale`;
	try {
		renameSync(path, aside);
	} catch (error) {
		if (code(error) === 'ENOENT') {
			return; // Already gone.
		}
		throw error;
	}
	let moved = '';
	try {
		moved = readFileSync(aside, 'utf8');
	} catch {
		// Unreadable: treated as not the one inspected, so it goes back.
	}
	if (moved !== seen.text) {
		try {
			linkSync(aside, path); // Fails if yet another lock appeared meanwhile: that one stays.
		} catch {
			// Nothing to put back over.
		}
	}
	rmSync(aside, { force: true });
}

export interface AcquireOptions {
	readonly log?: Logger;
	readonly now?: () => number;
}

export type Acquired = { readonly lock: TranscriptLock } | { readonly lock?: undefined; readonly owner: LockOwner | undefined };

/** A held session lock. Release it when the session closes; the store that takes it does. */
export class TranscriptLock {
	private held = true;

	private constructor(
		readonly dir: string,
		readonly sessionId: string,
		readonly path: string,
		readonly owner: LockOwner,
	) {}

	/** Takes the session's lock, or says who holds it. Takes over a lock whose owner is gone. */
	static tryAcquire(dir: string, sessionId: string, options: AcquireOptions = {}): Acquired {
		checkSessionId(sessionId);
		const path = lockPath(dir, sessionId);
		const now = options.now ?? Date.now;
		const start = ownProcessStart();
		const owner: LockOwner = {
			pid: process.pid,
			host: hostname(),
			token: randomUUID(),
			since: now(),
			...(start === undefined ? {} : { processStart: start }),
		};
		let holder: LockOwner | undefined;
		for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
			let fd: number;
			try {
				fd = openSync(path, 'wx');
			} catch (error) {
				if (code(error) !== 'EEXIST') {
					throw new TranscriptError(`Could not lock session ${sessionId} (${path}): ${errorMessage(error)}`, { cause: error });
				}
				const seen = inspect(path, now());
				if (seen === undefined) {
					continue; // Released between the two calls: try again.
				}
				holder = seen.owner;
				if (!seen.abandoned) {
					return { owner: seen.owner };
				}
				options.log?.warn(`Session ${sessionId}: took over the lock of ${describeOwner(seen.owner)}, which is no longer running.`);
				takeOver(path, seen, owner.token);
				continue;
			}
			try {
				writeSync(fd, JSON.stringify(owner));
			} finally {
				closeSync(fd);
			}
			heldHere.add(owner.token);
			return { lock: new TranscriptLock(dir, sessionId, path, owner) };
		}
		return { owner: holder };
	}

	/** Takes the lock or throws TranscriptLockedError naming the holder. */
	static acquire(dir: string, sessionId: string, options: AcquireOptions = {}): TranscriptLock {
		const acquired = TranscriptLock.tryAcquire(dir, sessionId, options);
		if (acquired.lock === undefined) {
			throw new TranscriptLockedError(sessionId, acquired.owner);
		}
		return acquired.lock;
	}

	get isHeld(): boolean {
		return this.held;
	}

	/** Removes the lock file if it is still this lock's (never another owner's). */
	release(): void {
		if (!this.held) {
			return;
		}
		this.held = false;
		heldHere.delete(this.owner.token);
		try {
			if (parseOwner(readFileSync(this.path, 'utf8'))?.token === this.owner.token) {
				rmSync(this.path, { force: true });
			}
		} catch {
			// Gone already, or unreadable: nothing of ours to remove.
		}
	}
}
