// Two builds: the extension (Node, CommonJS, `vscode` external) and the webview (browser).
//   node esbuild.mjs                 development build with source maps
//   node esbuild.mjs --production    minified, no source maps (what `npm run package` ships)
//   node esbuild.mjs --watch         rebuild on change; errors in a problem-matcher friendly form
import * as esbuild from 'esbuild';
import { rmSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints one line per rebuild so the `$esbuild-watch` problem matcher and humans can follow. */
const reportPlugin = (name) => ({
	name: 'aside-report',
	setup(build) {
		build.onStart(() => {
			if (watch) {
				console.log(`[watch] ${name} build started`);
			}
		});
		build.onEnd((result) => {
			for (const { text, location } of result.errors) {
				console.error(`✘ [ERROR] ${text}`);
				if (location) {
					console.error(`    ${location.file}:${location.line}:${location.column}:`);
				}
			}
			if (watch) {
				console.log(`[watch] ${name} build finished`);
			}
		});
	},
});

const common = {
	bundle: true,
	minify: production,
	sourcemap: production ? false : 'linked',
	sourcesContent: false,
	logLevel: watch ? 'silent' : 'warning',
	define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
};

/** @type {import('esbuild').BuildOptions} */
const extension = {
	...common,
	entryPoints: ['src/extension.ts'],
	outfile: 'dist/extension.js',
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	external: ['vscode'],
	// pdf.js wants a DOMMatrix at load (src/tools/pdfDomShim.ts says why this one).
	inject: ['src/tools/pdfDomShim.ts'],
	plugins: [reportPlugin('extension')],
};

/** @type {import('esbuild').BuildOptions} */
const webview = {
	...common,
	entryPoints: { main: 'webview/main.ts', style: 'webview/style.css' },
	outdir: 'dist/webview',
	platform: 'browser',
	format: 'iife',
	target: ['chrome120'],
	// The codicon font is emitted beside the stylesheet and loaded from the webview's own origin.
	loader: { '.ttf': 'file' },
	assetNames: '[name]',
	plugins: [reportPlugin('webview')],
};

async function main() {
	rmSync('dist', { recursive: true, force: true });
	if (watch) {
		const contexts = await Promise.all([esbuild.context(extension), esbuild.context(webview)]);
		await Promise.all(contexts.map((context) => context.watch()));
		return;
	}
	await Promise.all([esbuild.build(extension), esbuild.build(webview)]);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
