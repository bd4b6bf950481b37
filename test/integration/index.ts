// Runs inside the VS Code extension host (extensionTestsPath): mocha over the compiled
// *.test.js files beside this one. Its reporter prefixes each line with `[aside-mocha] ` so
// the driver can echo the suite apart from workbench noise, and ends with one
// `[aside-results]` line carrying the counts.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

const say = (line: string) => {
	console.log(`[aside-mocha] ${line}`);
};

class PrefixedReporter extends Mocha.reporters.Base {
	constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
		super(runner, options);
		let depth = 0;
		runner.on('suite', (suite) => {
			if (suite.title) {
				say(`${'  '.repeat(depth)}${suite.title}`);
			}
			depth++;
		});
		runner.on('suite end', () => {
			depth--;
		});
		runner.on('pass', (test) => {
			say(`${'  '.repeat(depth)}✔ ${test.title} (${test.duration ?? 0} ms)`);
		});
		runner.on('pending', (test) => {
			say(`${'  '.repeat(depth)}- ${test.title} (skipped)`);
		});
		runner.on('fail', (test, error: unknown) => {
			say(`${'  '.repeat(depth)}✖ ${test.title}`);
			const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
			for (const line of detail.split('\n').slice(0, 12)) {
				say(`${'  '.repeat(depth + 2)}${line}`);
			}
		});
	}
}

export function run(): Promise<void> {
	const mocha = new Mocha({ ui: 'bdd', timeout: 120_000, color: false, reporter: PrefixedReporter });
	// Phase 'reload' runs in a second window over the same state, after the first one closed:
	// only the `*.reload.test.js` files, which check what must survive a window reload. Phase
	// 'untrusted' runs the `*.untrusted.test.js` files in a workspace opened in Restricted Mode.
	const phase = process.env.ASIDE_PHASE === 'reload' || process.env.ASIDE_PHASE === 'untrusted' ? process.env.ASIDE_PHASE : undefined;
	const ofPhase = (name: string): boolean => (phase ? name.endsWith(`.${phase}.test.js`) : !/\.(reload|untrusted)\.test\.js$/.test(name));
	// ASIDE_INTEGRATION_FILES (comma-separated name fragments) narrows the run, for development.
	const only = (process.env.ASIDE_INTEGRATION_FILES ?? '').split(',').map((fragment) => fragment.trim()).filter((fragment) => fragment !== '');
	const files = readdirSync(__dirname).filter((name) => name.endsWith('.test.js') && ofPhase(name) && (only.length === 0 || only.some((fragment) => name.includes(fragment))));
	// A main-window file with a `.reload.test.js` counterpart leaves state for the reload window
	// (session.test.js leaves its chat current): those run last, so no other file's chat replaces it.
	const all = readdirSync(__dirname);
	const preparesReload = (name: string): boolean => all.includes(name.replace(/\.test\.js$/, '.reload.test.js'));
	const ordered = [...files.filter((name) => !preparesReload(name)).sort(), ...files.filter(preparesReload).sort()];
	for (const file of ordered) {
		mocha.addFile(join(__dirname, file));
	}
	const counts = { passed: 0, failed: 0, skipped: 0, failures: [] as string[] };
	return new Promise((resolve, reject) => {
		const runner = mocha.run((failures) => {
			console.log(`[aside-results] ${JSON.stringify(counts)}`);
			say(`${counts.passed} passed, ${counts.failed} failed`);
			if (failures > 0) {
				reject(new Error(`${failures} integration test(s) failed`));
			} else {
				resolve();
			}
		});
		runner.on('pass', () => counts.passed++);
		runner.on('pending', () => counts.skipped++);
		runner.on('fail', (test, error: unknown) => {
			counts.failed++;
			counts.failures.push(`${test.fullTitle()}: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)}`);
		});
	});
}
