// CI's smoke of the README's first command, typed as written: `npm start` starts code-server,
// prints its URL, serves a workbench that has Aside installed (its activity bar item opens the
// chat), opens a sample workspace that is its own git repository outside the clone, and stops
// cleanly on Ctrl+C (SIGINT to its process group), leaving no code-server behind.
//
//   node test/harness/startSmoke.mjs
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { launchChromium } from './browser.mjs';
import { repoRoot, toolEnvironment } from './tools.mjs';

const START_TIMEOUT_MS = 15 * 60_000;

function fail(message) {
	console.error(`✗ npm start smoke: ${message}`);
	process.exitCode = 1;
	throw new Error(message);
}

/** Processes (pid, command line) still running code-server from this clone's start state. */
function leftovers() {
	const marker = resolve(repoRoot, '.tools', 'start');
	const found = [];
	for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
		try {
			const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
			if (command.includes(marker)) {
				found.push(`${pid} ${command.slice(0, 120)}`);
			}
		} catch {
			// Gone meanwhile.
		}
	}
	return found;
}

async function main() {
	const started = Date.now();
	// Its own process group, as a terminal runs a command; Ctrl+C is SIGINT to that group.
	const child = spawn('npm', ['start'], { cwd: repoRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: toolEnvironment() });
	let output = '';
	const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
	const url = await new Promise((found, missing) => {
		const timer = setTimeout(() => missing(new Error(`no URL within ${START_TIMEOUT_MS / 60_000} min`)), START_TIMEOUT_MS);
		const read = (chunk) => {
			process.stdout.write(chunk);
			output += chunk;
			const match = /Open:\s+(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)/.exec(output);
			if (match) {
				clearTimeout(timer);
				found(match[1]);
			}
		};
		child.stdout.setEncoding('utf8').on('data', read);
		child.stderr.setEncoding('utf8').on('data', read);
		void exited.then(({ code, signal }) => {
			clearTimeout(timer);
			missing(new Error(`npm start exited (${code ?? signal}) before it printed a URL`));
		});
	}).catch((error) => fail(error.message));
	console.log(`\n── npm start printed its URL after ${Math.round((Date.now() - started) / 1000)} s`);

	const folder = new URL(url).searchParams.get('folder');
	if (!relative(repoRoot, folder).startsWith('..')) {
		fail(`the sample workspace ${folder} is inside the clone`);
	}
	const top = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: folder, encoding: 'utf8' });
	if (top.status !== 0 || top.stdout.trim() !== folder) {
		fail(`the sample workspace is not a repository of its own (git finds ${top.stdout.trim() || top.stderr.trim()})`);
	}

	const page = await fetch(url);
	if (!page.ok || !(await page.text()).includes('workbench')) {
		fail(`${url} answered ${page.status}, not the workbench`);
	}
	const browser = await launchChromium();
	try {
		const tab = await browser.newPage();
		await tab.goto(url);
		const item = tab.locator('.activitybar [aria-label^="Aside"]').first();
		await item.waitFor({ timeout: 120_000 }).catch(() => fail('the workbench has no Aside item in its activity bar'));
		await item.click();
		const composer = tab.frameLocator('iframe.webview.ready').frameLocator('#active-frame').getByRole('textbox', { name: 'Message Aside' });
		await composer.waitFor({ timeout: 120_000 }).catch(() => fail('the Aside item did not open the chat'));
		console.log(`── Aside's chat opened in the workbench after ${Math.round((Date.now() - started) / 1000)} s`);
	} finally {
		await browser.close();
	}

	process.kill(-child.pid, 'SIGINT');
	const timeout = new Promise((done) => setTimeout(() => done(undefined), 30_000));
	const end = await Promise.race([exited, timeout]);
	if (end === undefined) {
		process.kill(-child.pid, 'SIGKILL');
		fail('npm start did not stop within 30 s of Ctrl+C');
	}
	// npm re-raises the interrupt once its script has exited (as a shell expects of Ctrl+C); the script itself must have stopped code-server first.
	if (!(end.code === 0 || end.code === 130 || end.signal === 'SIGINT') || !output.includes('Stopping code-server')) {
		fail(`npm start ended with ${end.code ?? end.signal} after Ctrl+C, without stopping code-server first`);
	}
	const left = leftovers();
	if (left.length > 0) {
		fail(`processes left after Ctrl+C:\n${left.join('\n')}`);
	}
	const port = new URL(url).port;
	const stillServing = await fetch(`http://127.0.0.1:${port}/healthz`).then(() => true, () => false);
	if (stillServing) {
		fail(`port ${port} still answers after Ctrl+C`);
	}
	console.log(`── npm start smoke passed in ${Math.round((Date.now() - started) / 1000)} s`);
}

main().catch((error) => {
	if (!process.exitCode) {
		console.error(`✗ npm start smoke: ${error instanceof Error ? error.message : error}`);
	}
	process.exit(1);
});
