// Runs the test tiers and ends with one line, `N passed, N failed`, summing all of them.
//
//   node test/run.mjs                       checks, unit, conformance, webview, integration
//   node test/run.mjs unit webview          just those tiers
//
// Tiers: checks (typecheck + lint, one test each), unit (node:test under plain Node), conformance
// (the MCP conformance suite's client scenarios against Aside's MCP client),
// webview (the real bundle in headless Chromium), integration (mocha in a real VS Code
// extension host: the pinned code-server, driven by Chromium, over the packaged .vsix).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDependencies } from '../scripts/dependencies.mjs';
import { repoRoot } from './harness/tools.mjs';

// Before anything that needs node_modules is even imported: a fresh clone has none yet.
try {
	ensureDependencies(repoRoot);
} catch (error) {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
}
const { buildUnitTests, buildWebviewTests } = await import('./harness/buildTests.mjs');
const { runIntegration } = await import('./harness/integration.mjs');
const { runConformance } = await import('./harness/conformance.mjs');
const { ensureTools } = await import('./harness/tools.mjs');

const ALL = ['checks', 'unit', 'conformance', 'webview', 'integration'];
const requested = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = requested.filter((tier) => !ALL.includes(tier));
if (unknown.length) {
	console.error(`Unknown tier(s): ${unknown.join(', ')}. Tiers: ${ALL.join(', ')}.`);
	process.exit(2);
}
const tiers = requested.length ? ALL.filter((tier) => requested.includes(tier)) : ALL;

// Chromium (the webview tier) and code-server (the integration tier) come before any tier runs,
// so a fresh machine needs nothing but this command.
if (tiers.includes('conformance') || tiers.includes('webview') || tiers.includes('integration')) {
	try {
		ensureTools();
	} catch (error) {
		console.error(`Could not install the test tools: ${error instanceof Error ? error.message : error}`);
		console.log('0 passed, 1 failed');
		process.exit(1);
	}
}

function npmRun(script) {
	const result = spawnSync('npm', ['run', '--silent', script], { cwd: repoRoot, stdio: 'inherit' });
	return result.status === 0;
}

function runNodeTests(name, files, extraArgs = []) {
	const countsFile = join(repoRoot, 'out', `${name}.counts.json`);
	mkdirSync(join(repoRoot, 'out'), { recursive: true });
	rmSync(countsFile, { force: true });
	const result = spawnSync(
		process.execPath,
		[
			'--enable-source-maps',
			'--test',
			...extraArgs,
			'--test-reporter=spec',
			'--test-reporter-destination=stdout',
			`--test-reporter=${join(repoRoot, 'test', 'harness', 'countReporter.mjs')}`,
			`--test-reporter-destination=${countsFile}`,
			...files,
		],
		{ cwd: repoRoot, stdio: 'inherit' },
	);
	try {
		const counts = JSON.parse(readFileSync(countsFile, 'utf8'));
		// A crash outside any test (a file that fails to load) fails the run without a count.
		if (result.status !== 0 && counts.failed === 0) {
			counts.failed = 1;
			counts.failures.push(`${name}: node --test exited with ${result.status}`);
		}
		return counts;
	} catch {
		return { passed: 0, failed: 1, skipped: 0, failures: [`${name}: no results (node --test exited with ${result.status})`] };
	}
}

const runners = {
	async checks() {
		const counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
		for (const script of ['typecheck', 'lint']) {
			console.log(`\n› npm run ${script}`);
			if (npmRun(script)) {
				counts.passed++;
			} else {
				counts.failed++;
				counts.failures.push(`checks › ${script}`);
			}
		}
		return counts;
	},
	async unit() {
		const files = await buildUnitTests();
		return runNodeTests('unit', files);
	},
	async webview() {
		if (!npmRun('build')) {
			return { passed: 0, failed: 1, skipped: 0, failures: ['webview: build failed'] };
		}
		const files = await buildWebviewTests();
		// One Chromium at a time: this machine has two cores.
		return runNodeTests('webview', files, ['--test-concurrency=1']);
	},
	async conformance() {
		return runConformance();
	},
	async integration() {
		return runIntegration();
	},
};

const total = { passed: 0, failed: 0, skipped: 0, failures: [] };
const lines = [];
for (const tier of tiers) {
	console.log(`\n━━ ${tier} ━━`);
	const started = Date.now();
	let counts;
	try {
		counts = await runners[tier]();
	} catch (error) {
		console.error(error);
		counts = { passed: 0, failed: 1, skipped: 0, failures: [`${tier}: ${error instanceof Error ? error.message : String(error)}`] };
	}
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	lines.push(`  ${tier.padEnd(12)} ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''} (${seconds} s)`);
	total.passed += counts.passed;
	total.failed += counts.failed;
	total.skipped += counts.skipped;
	total.failures.push(...counts.failures);
}

console.log('\n━━ summary ━━');
console.log(lines.join('\n'));
if (total.failures.length) {
	console.log(`\nFailures:\n${total.failures.map((f) => `  ✗ ${f}`).join('\n')}`);
}
console.log(`${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed === 0 && total.passed > 0 ? 0 : 1);
