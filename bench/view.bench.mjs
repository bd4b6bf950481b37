// The `view` case: the chat webview in real Chromium. The measuring code is TypeScript that
// shares the webview tests' page harness (bench/view/chromium.ts); this script bundles it as an
// ES module, the harness's .mjs files left as they are, and runs it. It prints the BenchResult
// line itself; the webview build's output goes to stderr.
import * as esbuild from 'esbuild';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../test/harness/tools.mjs';

const outfile = join(repoRoot, 'out', 'bench-view', 'chromium.mjs');
await esbuild.build({
	entryPoints: [join(repoRoot, 'bench', 'view', 'chromium.ts')],
	outfile,
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	packages: 'external',
	sourcemap: 'inline',
	logLevel: 'warning',
	plugins: [
		{
			name: 'harness-external',
			setup(build) {
				build.onResolve({ filter: /\.mjs$/ }, (args) => ({ path: pathToFileURL(resolve(args.resolveDir, args.path)).href, external: true }));
			},
		},
	],
});
await import(pathToFileURL(outfile).href);
