// The tools' nested `npm ci` runs as if typed in a shell, even under `npm start` / `npm test`:
// an outer npm's `npm_config_user_agent` (which names the outer Node) must not reach it, or
// code-server's install script takes Node 24 for Node 20 and refuses to install.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { installNpmTool, toolEnvironment } from './tools.mjs';

describe('the tools install under an outer npm', () => {
	let root: string;

	before(() => {
		root = mkdtempSync(join(tmpdir(), 'aside-tools-'));
		// A tool whose install script checks what code-server's does: the user agent names the Node that runs it.
		const check = "const ua = process.env.npm_config_user_agent ?? ''; if (!ua.includes('node/' + process.version + ' ')) { console.error('user agent ' + ua + ' under ' + process.version); process.exit(1); }";
		writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'scratch-tool', version: '1.0.0', private: true, scripts: { postinstall: `node -e "${check}"` } }));
		const locked = spawnSync('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: root, encoding: 'utf8', env: toolEnvironment() });
		assert.equal(locked.status, 0, locked.stderr);
	});

	after(() => {
		rmSync(root, { recursive: true, force: true });
	});

	it('drops what the outer npm set (npm_config_*, npm_lifecycle_*, npm_execpath) and keeps the rest', () => {
		const env = toolEnvironment({ PATH: '/bin', HOME: '/h', npm_config_user_agent: 'npm/11 node/v20.20.2 linux x64', npm_lifecycle_event: 'start', npm_execpath: '/npm-cli.js', NPM_CONFIG_CACHE: '/c' });
		assert.deepEqual(env, { PATH: '/bin', HOME: '/h' });
	});

	it("installs where the outer npm's user agent names another Node", () => {
		const outer = { ...process.env, npm_config_user_agent: 'npm/11.19.1 node/v20.0.0 linux x64 workspaces/false', npm_lifecycle_event: 'start' };
		const target = join(root, 'installed');
		assert.doesNotThrow(() => {
			installNpmTool(root, target, { env: outer });
		});
	});
});
