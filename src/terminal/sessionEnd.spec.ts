// Ending a terminal's session directly, on real processes: a detached shell (a session of its
// own, as a terminal's shell is) with a job in the background and one in the foreground; a process
// that ignores the hangup; and never this process's own session.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { isRunning, processStartOf } from '../base/processIdentity';
import { endsWithin } from '../testing/processState';
import { endSession } from './sessionEnd';

const scratch = mkdtempSync(join(tmpdir(), 'aside-session-end-'));

/** A shell leading a session of its own, with a background job that ignores hangups and a foreground one; resolves with the pids. */
async function shellWithJobs(): Promise<{ readonly shell: number; readonly jobs: readonly number[] }> {
	const pids = join(scratch, `pids-${Date.now()}`);
	const child = spawn('bash', ['-c', `trap '' HUP; (trap '' HUP; sleep 600) & echo $! > ${pids}; sleep 600 & echo $! >> ${pids}; wait`], { detached: true, stdio: 'ignore' });
	child.unref();
	assert.ok(child.pid);
	for (let i = 0; i < 200; i++) {
		const text = (() => {
			try {
				return readFileSync(pids, 'utf8');
			} catch {
				return '';
			}
		})();
		const jobs = text.split('\n').filter((line) => line !== '').map(Number);
		if (jobs.length === 2) {
			return { shell: child.pid, jobs };
		}
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	throw new Error('the shell did not start its jobs');
}

describe('ending a session directly', () => {
	after(() => {
		rmSync(scratch, { recursive: true, force: true });
	});

	it('ends the shell and every job of its session, the ones that ignore a hangup too', async () => {
		const { shell, jobs } = await shellWithJobs();
		const start = processStartOf(shell);
		assert.equal(isRunning(shell, start), true);
		assert.equal(endSession(shell), true);
		for (const pid of [shell, ...jobs]) {
			assert.equal(await endsWithin(pid, 3000), true, `${pid} is gone`);
		}
		assert.equal(isRunning(shell, start), false);
	});

	it('tells a reused pid from the process that had it, by its start', async () => {
		const { shell } = await shellWithJobs();
		assert.equal(isRunning(shell, 'not its start'), false);
		endSession(shell);
		assert.equal(await endsWithin(shell, 3000), true);
	});

	it('never signals its own process or its own session, nor init', () => {
		assert.equal(endSession(process.pid), false);
		assert.equal(endSession(1), false);
		assert.equal(endSession(0), false);
		assert.equal(isRunning(process.pid, processStartOf('self')), true);
	});
});
