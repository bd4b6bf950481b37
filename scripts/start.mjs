// `npm start`: builds and packages Aside, installs the .vsix into the pinned code-server,
// opens a sample workspace, and prints the URL to open in a browser on this machine.
//
// Straight after cloning it runs `npm ci` first (also when package-lock.json changed).
//
//   npm start                      the sample workspace (a copy of its own, kept between runs)
//   npm start -- /path/to/folder   another folder
//   ASIDE_PORT=9000 npm start      another port (default 8080, or a free one if it is taken)
//
// State (settings, installed extension) lives in .tools/start/; the sample workspace outside the
// clone (sampleWorkspace.mjs). Ctrl+C stops code-server and everything it started.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort, installExtension, portIsFree, startCodeServer } from '../test/harness/codeServer.mjs';
import { ensureTools, repoRoot, toolsDir } from '../test/harness/tools.mjs';
import { ensureDependencies } from './dependencies.mjs';
import { ensureSampleWorkspace } from './sampleWorkspace.mjs';
import { packageVsix } from './vsix.mjs';

async function main() {
	const requestedFolder = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
	if (requestedFolder && !(existsSync(requestedFolder) && statSync(requestedFolder).isDirectory())) {
		console.error(`Not a folder: ${requestedFolder}`);
		process.exit(2);
	}

	ensureDependencies(repoRoot);
	ensureTools({ chromium: false });
	const vsix = packageVsix();
	const { name, version, publisher } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));

	const stateDir = join(toolsDir, 'start');
	await installExtension({ stateDir, vsix });

	const folder = requestedFolder ? resolve(requestedFolder) : ensureSampleWorkspace(join(repoRoot, 'test', 'fixtures', 'workspace'));

	const wanted = Number(process.env.ASIDE_PORT ?? 8080);
	if (!Number.isInteger(wanted) || wanted < 1 || wanted > 65535) {
		console.error(`ASIDE_PORT must be a port number, not ${JSON.stringify(process.env.ASIDE_PORT)}.`);
		process.exit(2);
	}
	const port = (await portIsFree(wanted)) ? wanted : await freePort();
	if (port !== wanted) {
		console.log(`Port ${wanted} is taken; using ${port}.`);
	}

	const server = await startCodeServer({ stateDir, port });
	const url = `${server.url}/?folder=${encodeURIComponent(folder)}`;
	console.log(`
Aside ${version} (${publisher}.${name}) is installed in code-server and running.

  Open:      ${url}
  Workspace: ${folder}
  Logs:      ${server.logFile}  (Aside's own log: View → Output → "Aside")

Click the Aside icon in the activity bar, or run "Aside: Focus on Chat View". Ctrl+C stops it.
`);

	let stopping = false;
	const stop = async () => {
		if (stopping) {
			return;
		}
		stopping = true;
		console.log('\nStopping code-server…');
		await server.stop();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
	// Stay in the foreground while code-server answers.
	for (;;) {
		await new Promise((done) => setTimeout(done, 5000));
		try {
			await fetch(`${server.url}/healthz`);
		} catch {
			console.error(`code-server stopped answering; see ${server.logFile}`);
			await server.stop();
			process.exit(1);
		}
	}
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
