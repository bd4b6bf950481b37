// Three builds: the extension (Node, CommonJS, `vscode` external), the reminder language server
// (Node, its own process: dist/reminderServer.js) and the webview (browser).
//   node esbuild.mjs                 development build with source maps
//   node esbuild.mjs --production    minified, no source maps (what `npm run package` ships)
//   node esbuild.mjs --watch         rebuild on change; errors in a problem-matcher friendly form
import * as esbuild from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

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

/**
 * pdf.js (src/tools/pdf.ts) fills in `globalThis.navigator` when it loads in Node. In VS Code's
 * extension host `navigator` is a getter only, so the assignment throws and no PDF could be read;
 * and writing a global there would be seen by every other extension. The bundle skips it (pdf.js
 * only reads `navigator` for its renderer and for a locale default). Fails the build when the
 * pinned pdf.js no longer has the statement, rather than shipping it unpatched.
 */
const pdfjsNoGlobals = {
	name: 'aside-pdfjs-no-globals',
	setup(build) {
		build.onLoad({ filter: /pdfjs-dist[\\/]legacy[\\/]build[\\/]pdf\.mjs$/ }, (args) => {
			const source = readFileSync(args.path, 'utf8');
			const statement = 'if (!globalThis.navigator?.language) {';
			if (!source.includes(statement)) {
				return { errors: [{ text: `${args.path} no longer assigns globalThis.navigator as esbuild.mjs expects; check pdf.js's Node set-up before updating it.` }] };
			}
			return { contents: source.replace(statement, 'if (false) {'), loader: 'js' };
		});
	},
};

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
	plugins: [pdfjsNoGlobals, reportPlugin('extension')],
};

/** @type {import('esbuild').BuildOptions} */
const reminderServer = {
	...common,
	entryPoints: ['src/reminderServer/main.ts'],
	outfile: 'dist/reminderServer.js',
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	plugins: [reportPlugin('reminderServer')],
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
		const contexts = await Promise.all([esbuild.context(extension), esbuild.context(reminderServer), esbuild.context(webview)]);
		await Promise.all(contexts.map((context) => context.watch()));
		return;
	}
	await Promise.all([esbuild.build(extension), esbuild.build(reminderServer), esbuild.build(webview)]);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
