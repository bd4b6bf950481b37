// `npm start` / `npm test` after a fresh clone: a real `npm ci` in a scratch project whose one
// dependency is a local folder (no registry, no network).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureDependencies, installReason } from './dependencies.mjs';

const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_offline: 'true' };

describe('npm ci before npm start / npm test', () => {
	let root: string;

	before(() => {
		root = mkdtempSync(join(tmpdir(), 'aside-deps-'));
		mkdirSync(join(root, 'local-dep'));
		writeFileSync(join(root, 'local-dep', 'package.json'), JSON.stringify({ name: 'local-dep', version: '1.0.0' }));
		writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, dependencies: { 'local-dep': 'file:local-dep' } }));
		// The lock file a clone brings along.
		const locked = spawnSync('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund'], { cwd: root, env, encoding: 'utf8' });
		assert.equal(locked.status, 0, locked.stderr);
	});

	after(() => {
		rmSync(root, { recursive: true, force: true });
	});

	it('installs when node_modules is missing, says so on one line, and then not again', () => {
		assert.equal(installReason(root), 'node_modules is missing');
		const said: string[] = [];
		assert.equal(ensureDependencies(root, { log: (line) => said.push(line), env }), true);
		assert.deepEqual(said, ['node_modules is missing: running npm ci first.']);
		assert.ok(existsSync(join(root, 'node_modules', 'local-dep', 'package.json')), 'npm ci installed the dependency');

		// What .ci/run does (npm ci, then npm test) must not install twice.
		assert.equal(installReason(root), undefined);
		assert.equal(ensureDependencies(root, { log: (line) => said.push(line), env }), false);
		assert.equal(said.length, 1);
	});

	it('installs again when package-lock.json is newer than node_modules', () => {
		// The lock changed (a pull) after the last install.
		const installed = new Date(Date.now() - 120_000);
		const pulled = new Date(Date.now() - 60_000);
		utimesSync(join(root, 'node_modules', '.package-lock.json'), installed, installed);
		utimesSync(join(root, 'package-lock.json'), pulled, pulled);
		assert.equal(installReason(root), 'package-lock.json is newer than node_modules');
		const said: string[] = [];
		assert.equal(ensureDependencies(root, { log: (line) => said.push(line), env }), true);
		assert.deepEqual(said, ['package-lock.json is newer than node_modules: running npm ci first.']);
		assert.equal(installReason(root), undefined, 'npm ci leaves node_modules newer than the lock');
	});

	it('stops with a clear error when npm ci fails', () => {
		writeFileSync(join(root, 'package-lock.json'), '{ not json');
		rmSync(join(root, 'node_modules'), { recursive: true, force: true });
		assert.throws(() => ensureDependencies(root, { log: () => undefined, env }), /npm ci failed \(exit \d+\); fix what it says, then run this again\./);
	});
});
