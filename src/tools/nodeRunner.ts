// Runs a shell command with Node's child_process: in the extension host for Run, and in tests.
// The command gets its own process group so that a timeout or a cancel stops everything it
// started, not just the shell.
import { type ChildProcess, spawn } from 'node:child_process';
import type { CommandOutcome, CommandRunner } from './tool';

/** After SIGTERM, how long a process group gets before SIGKILL. */
const KILL_GRACE_MS = 2000;
/** After the shell exits, how long to wait for pipes still held open by background children. */
const DRAIN_MS = 500;

/** Keeps the first and the last half of the output once it passes the cap: both ends matter
 * (what the command did, and how it ended). */
export class CappedOutput {
	private readonly head: Buffer[] = [];
	private headBytes = 0;
	private readonly tail: Buffer[] = [];
	private tailBytes = 0;
	private total = 0;

	constructor(private readonly maxBytes: number) {}

	get truncated(): boolean {
		return this.total > this.maxBytes;
	}

	push(chunk: Buffer): void {
		this.total += chunk.length;
		const headCap = Math.floor(this.maxBytes / 2);
		const toHead = Math.min(chunk.length, headCap - this.headBytes);
		if (toHead > 0) {
			this.head.push(chunk.subarray(0, toHead));
			this.headBytes += toHead;
		}
		const rest = chunk.subarray(Math.max(0, toHead));
		if (rest.length === 0) {
			return;
		}
		this.tail.push(rest);
		this.tailBytes += rest.length;
		const tailCap = this.maxBytes - headCap;
		for (let first = this.tail[0]; first !== undefined && this.tailBytes - first.length >= tailCap; first = this.tail[0]) {
			this.tail.shift();
			this.tailBytes -= first.length;
		}
	}

	text(): string {
		const decoder = new TextDecoder();
		const head = decoder.decode(Buffer.concat(this.head));
		const tailCap = this.maxBytes - Math.floor(this.maxBytes / 2);
		const tailBuffer = Buffer.concat(this.tail);
		if (!this.truncated) {
			return head + decoder.decode(tailBuffer);
		}
		const omitted = this.total - this.headBytes - Math.min(tailCap, tailBuffer.length);
		return `${head}\n[… ${omitted} bytes of output omitted …]\n${decoder.decode(tailBuffer.subarray(Math.max(0, tailBuffer.length - tailCap)))}`;
	}
}

/** Stops `child` and everything it started (its process group). */
export function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) {
		return;
	}
	try {
		if (process.platform === 'win32') {
			spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' }).on('error', () => undefined);
		} else {
			process.kill(-child.pid, signal);
		}
	} catch {
		// Already gone — or so new that it has no group of its own yet (it makes one before it runs
		// the shell): then the child itself, which every later process of it descends from.
		try {
			process.kill(child.pid, signal);
		} catch {
			// Gone.
		}
	}
}

export class NodeCommandRunner implements CommandRunner {
	run(
		command: string,
		options: { readonly cwd: string; readonly timeoutMs: number; readonly maxOutputBytes: number; readonly signal: AbortSignal },
	): Promise<CommandOutcome> {
		const { cwd, timeoutMs, maxOutputBytes, signal } = options;
		if (signal.aborted) {
			return Promise.resolve({ output: '', exitCode: null, timedOut: false, truncated: false });
		}
		return new Promise((resolve) => {
			const output = new CappedOutput(maxOutputBytes);
			const child = spawn(command, {
				cwd,
				shell: true,
				detached: process.platform !== 'win32',
				stdio: ['ignore', 'pipe', 'pipe'],
				windowsHide: true,
			});
			let exitCode: number | null = null;
			let timedOut = false;
			let settled = false;
			let killTimer: NodeJS.Timeout | undefined;
			let drainTimer: NodeJS.Timeout | undefined;
			const stop = () => {
				killTree(child, 'SIGTERM');
				// Kept after the shell is gone, for children that ignore SIGTERM; unref'd so it
				// never holds the process open.
				killTimer ??= setTimeout(() => {
					killTree(child, 'SIGKILL');
				}, KILL_GRACE_MS).unref();
			};
			const timer = setTimeout(() => {
				timedOut = true;
				stop();
			}, timeoutMs);
			signal.addEventListener('abort', stop, { once: true });
			const finish = () => {
				if (settled) {
					return;
				}
				settled = true;
				clearTimeout(timer);
				clearTimeout(drainTimer);
				signal.removeEventListener('abort', stop);
				resolve({ output: output.text(), exitCode, timedOut, truncated: output.truncated });
			};
			child.stdout.on('data', (chunk: Buffer) => {
				output.push(chunk);
			});
			child.stderr.on('data', (chunk: Buffer) => {
				output.push(chunk);
			});
			child.on('error', (error) => {
				// The shell could not start (a missing cwd, no /bin/sh).
				output.push(Buffer.from(`${error.message}\n`));
				finish();
			});
			child.on('exit', (code) => {
				// The command itself ended: waiting for its pipes is not a timeout.
				clearTimeout(timer);
				exitCode = code;
				drainTimer = setTimeout(() => {
					child.stdout.destroy();
					child.stderr.destroy();
					finish();
				}, DRAIN_MS);
			});
			child.on('close', (code) => {
				exitCode ??= code;
				finish();
			});
		});
	}
}
