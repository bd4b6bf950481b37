// The `diagnostics` case: edit to edit-diagnostics reminder with the real TypeScript server.
// Unlike the other cases it needs VS Code, so it is a plain Node script that bench/run.mjs runs
// as it is: it starts the pinned code-server (installing the tools when missing, as the
// integration tier does), opens a scratch copy of test/fixtures/workspace in headless Chromium
// with bench/vscode/diagnostics.host.ts as the extension tests, waits for it, and prints the
// host's BenchResult as its last stdout line. Progress goes to stderr.
//
//   node bench/run.mjs diagnostics
//
// The host's per-trial records and log are kept in out/bench-diagnostics/ (a folder of its own:
// bench/run.mjs empties out/bench/ whenever any case starts).
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { launchChromium } from '../test/harness/browser.mjs';
import { startCodeServer } from '../test/harness/codeServer.mjs';
import { ensureTools, repoRoot } from '../test/harness/tools.mjs';

const RUN_TIMEOUT_MS = 20 * 60_000;
const BENCH_PREFIX = '[aside-bench] ';

const progress = (line) => process.stderr.write(`  ${line}\n`);

async function main() {
	const started = Date.now();
	ensureTools();
	const outdir = join(repoRoot, 'out', 'bench-diagnostics');
	rmSync(outdir, { recursive: true, force: true });
	mkdirSync(outdir, { recursive: true });
	const hostBundle = join(outdir, 'diagnostics.host.js');
	await esbuild.build({
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		// The host gives 'vscode'; everything else (zod, …) goes into the bundle, as in the .vsix.
		external: ['vscode'],
		sourcemap: 'inline',
		logLevel: 'warning',
		absWorkingDir: repoRoot,
		entryPoints: [join('bench', 'vscode', 'diagnostics.host.ts')],
		outfile: hostBundle,
	});

	const work = mkdtempSync(join(tmpdir(), 'aside-bench-diagnostics-'));
	let server;
	let browser;
	try {
		const workspace = join(work, 'workspace');
		cpSync(join(repoRoot, 'test', 'fixtures', 'workspace'), workspace, { recursive: true });
		// extensionTestsPath needs an extension under development; the bench needs none of Aside's
		// activation (it bundles the modules it measures), so an empty one.
		const extension = join(work, 'extension');
		mkdirSync(extension);
		writeFileSync(
			join(extension, 'package.json'),
			JSON.stringify({ name: 'aside-diagnostics-bench', publisher: 'aside-dev', version: '0.0.0', engines: { vscode: '*' } }),
		);
		const resultFile = join(work, 'result.json');

		server = await startCodeServer({ stateDir: join(work, 'state'), extraArgs: ['--vscode-option', 'enable-smoke-test-driver'] });
		progress(`code-server ${server.url} up after ${((Date.now() - started) / 1000).toFixed(1)} s`);
		const remote = (path) => `vscode-remote://127.0.0.1:${server.port}${path}`;
		const payload = [
			['extensionDevelopmentPath', remote(extension)],
			['extensionTestsPath', remote(hostBundle)],
			['extensionEnvironment', JSON.stringify({ ASIDE_BENCH_OUT: resultFile })],
			['skipWelcome', 'true'],
		];
		const url = `${server.url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

		browser = await launchChromium();
		const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
		let resolveExit = () => undefined;
		const exited = new Promise((resolve) => {
			resolveExit = resolve;
		});
		const hostLog = [];
		await page.exposeFunction('codeAutomationLog', (level, args) => {
			const line = Array.isArray(args) ? format(...args) : String(args);
			hostLog.push(`[${level}] ${line}`);
			const at = line.indexOf(BENCH_PREFIX);
			if (at !== -1) {
				progress(line.slice(at + BENCH_PREFIX.length));
			}
		});
		await page.exposeFunction('codeAutomationExit', (code) => {
			resolveExit(code);
		});
		page.on('pageerror', (error) => hostLog.push(`[pageerror] ${error.message}`));
		// Other work on the machine slows the TypeScript server and the save: the section says how much there was.
		const load = [loadavg()[0]];
		const sampler = setInterval(() => load.push(loadavg()[0]), 10_000);
		await page.goto(url);
		let timer;
		const timeout = new Promise((resolve) => {
			timer = setTimeout(() => resolve('timeout'), RUN_TIMEOUT_MS);
		});
		const outcome = await Promise.race([exited, timeout]);
		clearTimeout(timer);
		clearInterval(sampler);
		const logFile = join(outdir, 'diagnostics-host.log');
		writeFileSync(logFile, hostLog.join('\n'));
		if (outcome === 'timeout') {
			throw new Error(`the bench did not finish within ${RUN_TIMEOUT_MS / 60_000} min; see ${logFile}`);
		}
		if (!existsSync(resultFile)) {
			throw new Error(`the extension host wrote no result (exit ${String(outcome)}); see ${logFile}`);
		}
		const written = JSON.parse(readFileSync(resultFile, 'utf8'));
		if (written.error) {
			throw new Error(`the bench failed in the extension host: ${written.error}`);
		}
		writeFileSync(join(outdir, 'diagnostics-trials.json'), JSON.stringify(written.trials, null, '\t'));
		const mean = load.reduce((sum, value) => sum + value, 0) / load.length;
		const loadNote = `The 1-minute load average while it ran (sampled every 10 s): ${Math.min(...load).toFixed(1)} to ${Math.max(...load).toFixed(1)}, mean ${mean.toFixed(1)}, on ${cpus().length} cores, the bench's own code-server, TypeScript servers and Chromium included; other work on the machine slows the TypeScript server and the save and moves these numbers.`;
		const result = { ...written.result, notes: [...written.result.notes, loadNote] };
		process.stdout.write(`${JSON.stringify(result)}\n`);
	} finally {
		await browser?.close().catch(() => undefined);
		// Kills code-server's process group: the extension host and the TypeScript servers with it.
		await server?.stop();
		rmSync(work, { recursive: true, force: true });
		progress(`finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	}
}

await main();
