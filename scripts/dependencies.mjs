// `npm start` and `npm test` work straight after cloning: when node_modules is missing, or older
// than package-lock.json, they run `npm ci` first and say so on one line. (.ci/run runs `npm ci`
// itself; the lock it leaves in node_modules is newer than package-lock.json, so nothing runs twice.)
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Why the dependencies must be installed first, or undefined when they are current. */
export function installReason(root) {
	// npm writes this after every install: its time is when node_modules last matched a lock file.
	const installed = join(root, 'node_modules', '.package-lock.json');
	if (!existsSync(installed)) {
		return existsSync(join(root, 'node_modules')) ? 'node_modules is incomplete' : 'node_modules is missing';
	}
	const lock = join(root, 'package-lock.json');
	if (existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs) {
		return 'package-lock.json is newer than node_modules';
	}
	return undefined;
}

/** Runs `npm ci` in `root` when installReason says so; true when it did. Throws when it fails. */
export function ensureDependencies(root, { log = (line) => console.log(line), env = process.env } = {}) {
	const reason = installReason(root);
	if (reason === undefined) {
		return false;
	}
	log(`${reason}: running npm ci first.`);
	const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit', env });
	if (result.status !== 0) {
		throw new Error(`npm ci failed (exit ${result.status ?? result.signal}); fix what it says, then run this again.`);
	}
	return true;
}
