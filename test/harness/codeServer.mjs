// Starts and stops the pinned code-server (VS Code in the browser, with a real Node extension
// host) in its own process group, with HOME and XDG folders inside a scratch directory.
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { toolEnvironment, toolPaths } from './tools.mjs';

export function portIsFree(port) {
	return new Promise((resolve) => {
		const probe = createServer();
		probe.once('error', () => resolve(false));
		probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
	});
}

export function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

/** User settings that keep the workbench quiet and predictable for tests and demos. */
export const quietSettings = {
	'workbench.startupEditor': 'none',
	'workbench.tips.enabled': false,
	'workbench.enableExperiments': false,
	'telemetry.telemetryLevel': 'off',
	'update.mode': 'none',
	'extensions.autoUpdate': false,
	'extensions.autoCheckUpdates': false,
	'extensions.ignoreRecommendations': true,
	'security.workspace.trust.enabled': false,
	'chat.disableAIFeatures': true,
	'git.enabled': false,
	'typescript.disableAutomaticTypeAcquisition': true,
	'typescript.surveys.enabled': false,
	'npm.fetchOnlinePackageInfo': false,
};

/** Where one code-server keeps its state under `stateDir`, and the environment it runs in. */
function layout(stateDir) {
	const home = join(stateDir, 'home');
	const dirs = { home, userDataDir: join(stateDir, 'user-data'), extensionsDir: join(stateDir, 'extensions') };
	for (const dir of [home, join(dirs.userDataDir, 'User'), dirs.extensionsDir]) {
		mkdirSync(dir, { recursive: true });
	}
	const { node24Home } = toolPaths();
	// Claude Code's config folder would lead Aside past the scratch HOME to the developer's own CLAUDE.md.
	const inherited = toolEnvironment();
	delete inherited.CLAUDE_CONFIG_DIR;
	const env = {
		...inherited,
		HOME: home,
		XDG_CONFIG_HOME: join(home, '.config'),
		XDG_DATA_HOME: join(home, '.local', 'share'),
		XDG_CACHE_HOME: join(home, '.cache'),
		PATH: `${join(node24Home, 'bin')}:${process.env.PATH}`,
	};
	return { ...dirs, env };
}

/** With `trust`: workspace trust on, and a folder opens in Restricted Mode without a prompt. */
const trustSettings = { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' };

/**
 * @param {object} options
 * @param {string} options.stateDir   scratch folder for HOME, user data, extensions and logs
 * @param {number} [options.port]
 * @param {string[]} [options.extraArgs]
 * @param {boolean} [options.trust]   keep workspace trust on (it is off for every other run)
 * @param {Record<string, unknown>} [options.settings]  more user settings
 */
export async function startCodeServer({ stateDir, port, extraArgs = [], trust = false, settings = {} }) {
	const paths = toolPaths();
	port ??= await freePort();
	const { userDataDir, extensionsDir, env } = layout(stateDir);
	writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...quietSettings, ...(trust ? trustSettings : {}), ...settings }, null, '\t'));

	const args = [
		paths.codeServerEntry,
		'--auth',
		'none',
		'--bind-addr',
		`127.0.0.1:${port}`,
		'--disable-telemetry',
		'--disable-update-check',
		...(trust ? [] : ['--disable-workspace-trust']),
		'--disable-getting-started-override',
		'--user-data-dir',
		userDataDir,
		'--extensions-dir',
		extensionsDir,
		...extraArgs,
	];
	const logFile = join(stateDir, 'code-server.log');
	const output = openSync(logFile, 'a');
	// Its own process group, so stopping it takes the helpers it starts along.
	const child = spawn(paths.node24, args, { detached: true, stdio: ['ignore', output, output], env });
	let exited = false;
	child.once('exit', () => {
		exited = true;
	});
	const url = `http://127.0.0.1:${port}`;
	const deadline = Date.now() + 90_000;
	for (;;) {
		if (exited) {
			throw new Error(`code-server exited during start-up; see ${logFile}`);
		}
		try {
			const response = await fetch(`${url}/healthz`);
			if (response.ok) {
				break;
			}
		} catch {
			// Not listening yet.
		}
		if (Date.now() > deadline) {
			stopGroup(child.pid);
			throw new Error(`code-server did not answer /healthz within 90 s; see ${logFile}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	return {
		url,
		port,
		logFile,
		async stop() {
			if (exited) {
				return;
			}
			const gone = new Promise((resolve) => child.once('exit', resolve));
			stopGroup(child.pid, 'SIGTERM');
			const timer = setTimeout(() => stopGroup(child.pid, 'SIGKILL'), 5000);
			await gone;
			clearTimeout(timer);
			// Helpers (extension host, file watcher) may outlive the main process briefly.
			stopGroup(child.pid, 'SIGKILL');
		},
	};
}

function stopGroup(pid, signal = 'SIGKILL') {
	try {
		process.kill(-pid, signal);
	} catch {
		// Already gone.
	}
}

/** Installs a .vsix into an extensions folder with code-server's own CLI. */
export async function installExtension({ stateDir, vsix }) {
	const paths = toolPaths();
	const { userDataDir, extensionsDir, env } = layout(stateDir);
	const child = spawn(
		paths.node24,
		[paths.codeServerEntry, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--install-extension', vsix, '--force'],
		{ stdio: 'inherit', env },
	);
	const code = await new Promise((resolve) => child.once('exit', resolve));
	if (code !== 0) {
		throw new Error(`Installing ${vsix} into code-server failed (exit ${code}).`);
	}
}
