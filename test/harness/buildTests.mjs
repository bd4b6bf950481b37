// Compiles the TypeScript tests with esbuild (the project's one compiler), one bundle per test
// file with packages left external, into out/. Source maps are inline so failures point at .ts.
import * as esbuild from 'esbuild';
import { copyFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findFiles } from './files.mjs';
import { repoRoot } from './tools.mjs';

const node = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', sourcemap: 'inline', logLevel: 'warning', absWorkingDir: repoRoot };

export async function buildUnitTests() {
	// The scripts' own specs too (scripts/dependencies.spec.ts: `npm ci` before start and test).
	const entryPoints = [...findFiles(repoRoot, 'src', '.spec.ts'), ...findFiles(repoRoot, 'scripts', '.spec.ts')];
	const outdir = join(repoRoot, 'out', 'unit');
	rmSync(outdir, { recursive: true, force: true });
	await esbuild.build({ ...node, entryPoints, outdir, outbase: '.' });
	// The harness's specs import its modules where they live (they find the repository from their own URL).
	const harness = findFiles(repoRoot, 'test/harness', '.spec.ts');
	await esbuild.build({ ...node, format: 'esm', outExtension: { '.js': '.mjs' }, plugins: [harnessExternal], entryPoints: harness, outdir, outbase: '.' });
	return [...entryPoints.map((file) => join(outdir, file.replace(/\.ts$/, '.js'))), ...harness.map((file) => join(outdir, file.replace(/\.ts$/, '.mjs')))];
}

/** The harness's own .mjs modules stay separate files, imported where they live. */
const harnessExternal = {
	name: 'harness-external',
	setup(build) {
		build.onResolve({ filter: /\.mjs$/ }, (args) => ({ path: pathToFileURL(resolve(args.resolveDir, args.path)).href, external: true }));
	},
};

export async function buildWebviewTests() {
	const entryPoints = findFiles(repoRoot, 'test/webview', '.test.ts');
	const outdir = join(repoRoot, 'out', 'webview');
	rmSync(outdir, { recursive: true, force: true });
	await esbuild.build({ ...node, format: 'esm', outExtension: { '.js': '.mjs' }, plugins: [harnessExternal], entryPoints, outdir, outbase: 'test/webview' });
	return entryPoints.map((file) => join(outdir, file.replace(/^test\/webview\//, '').replace(/\.ts$/, '.mjs')));
}

/** The mocha suite that runs inside the extension host: an index plus one bundle per test file. */
export async function buildIntegrationTests() {
	const tests = findFiles(repoRoot, 'test/integration', '.test.ts');
	const outdir = join(repoRoot, 'out', 'integration');
	rmSync(outdir, { recursive: true, force: true });
	await esbuild.build({
		...node,
		entryPoints: ['test/integration/index.ts', ...tests],
		outdir,
		outbase: 'test/integration',
		external: ['vscode', 'mocha'],
	});
	return join(outdir, 'index.js');
}

/**
 * The test-only extension that provides a chat model through vscode.lm (test/lmExtension/), built
 * into `outdir`: the harness puts it beside the unpacked Aside, in the one development folder.
 */
export async function buildLmExtension(outdir) {
	await esbuild.build({ ...node, entryPoints: ['test/lmExtension/extension.ts'], outdir, external: ['vscode'] });
	copyFileSync(join(repoRoot, 'test', 'lmExtension', 'package.json'), join(outdir, 'package.json'));
	return outdir;
}
