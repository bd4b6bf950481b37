// Which written files are implementation files, for the verification suggestion (edits.verify):
// a conservative path and extension heuristic, decided on the path alone (no file is read).
// Source code counts by its extension; documentation, configuration and data do not, and
// neither does anything under a dependency, build-output or generated folder, a lock file, a
// minified bundle, a source map or a file named as generated. It misses on purpose: a large
// change to one file, or a change to a build script, does not qualify (the model may still
// verify). The lists are documented in docs/reminders.md ("Which files are implementation files").
import * as nodePath from 'node:path';
import { isInside } from '../tools/paths';

/** Source code by extension (lower case, without the dot). Tests are implementation files too. */
export const IMPLEMENTATION_EXTENSIONS: ReadonlySet<string> = new Set([
	// JavaScript and TypeScript, and the component formats that hold their code
	'ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs', 'vue', 'svelte', 'astro',
	// Python, Ruby, PHP, Perl, Lua, R, Julia
	'py', 'pyw', 'rb', 'php', 'pl', 'pm', 'lua', 'r', 'jl',
	// C, C++, Objective-C, C#, F#, Visual Basic
	'c', 'h', 'cc', 'cpp', 'cxx', 'hh', 'hpp', 'hxx', 'ipp', 'm', 'mm', 'cs', 'fs', 'fsi', 'vb',
	// JVM: Java, Kotlin, Scala, Groovy, Clojure
	'java', 'kt', 'kts', 'scala', 'sc', 'groovy', 'clj', 'cljs', 'cljc',
	// Go, Rust, Swift, Dart, Zig, Nim, D, Crystal, V
	'go', 'rs', 'swift', 'dart', 'zig', 'nim', 'd', 'cr',
	// Functional: Haskell, OCaml, Elm, Elixir, Erlang, Gleam, PureScript, ReScript
	'hs', 'lhs', 'ml', 'mli', 'elm', 'ex', 'exs', 'erl', 'hrl', 'gleam', 'purs', 'res', 'resi',
	// Solidity, and the shader languages whose build checks them
	'sol', 'glsl', 'hlsl', 'wgsl',
]);

/**
 * Folders whose files are never implementation files: dependencies, build output, caches and
 * generated code, and documentation. Matched, in any case, on any segment of the path inside its
 * workspace folder (so a workspace that itself lives under `build/` is not excluded).
 */
export const NON_IMPLEMENTATION_FOLDERS: ReadonlySet<string> = new Set([
	// dependencies
	'node_modules', 'bower_components', 'jspm_packages', 'vendor', 'third_party', 'pods', '.venv', 'venv', 'site-packages',
	// build output and caches
	'dist', 'out', 'build', 'target', 'obj', 'coverage', '.next', '.nuxt', '.svelte-kit', '.turbo', '.parcel-cache', '.cache', '__pycache__', '.tox', '.gradle', '.git',
	// generated code
	'generated', '__generated__',
	// documentation
	'docs', 'doc',
]);

/**
 * File names that are never implementation files whatever their extension: minified bundles,
 * declaration files (usually emitted), generated sources (protobuf, designers), and the patterns
 * `*.generated.*` and `*.gen.*`. Lock files, source maps and documentation have extensions that
 * are not source code, so they never count in the first place.
 */
const GENERATED_NAME = /\.(min|generated|gen)\.[^.]+$|\.d\.[cm]?ts$|\.pb\.(go|cc|h)$|_pb2(_grpc)?\.pyi?$|\.(designer|g|g\.i)\.cs$/i;

/**
 * The path's segments inside the broadest workspace folder that holds it, or the whole path's
 * when it is in none (then a folder above the workspace may exclude it: conservative).
 */
export function segmentsInWorkspace(path: string, roots: readonly string[]): string[] {
	const absolute = nodePath.resolve(path);
	const root = roots
		.map((candidate) => nodePath.resolve(candidate))
		.filter((candidate) => isInside(absolute, candidate))
		.sort((a, b) => a.length - b.length)[0];
	const inside = root === undefined ? absolute : nodePath.relative(root, absolute);
	return inside.split(/[\\/]+/).filter((segment) => segment !== '');
}

/** Whether a file that was written is an implementation file (see the lists above). */
export function isImplementationFile(path: string, roots: readonly string[]): boolean {
	const segments = segmentsInWorkspace(path, roots);
	const name = segments.at(-1);
	if (name === undefined || GENERATED_NAME.test(name)) {
		return false;
	}
	const dot = name.lastIndexOf('.');
	if (dot <= 0 || !IMPLEMENTATION_EXTENSIONS.has(name.slice(dot + 1).toLowerCase())) {
		return false;
	}
	return !segments.slice(0, -1).some((folder) => NON_IMPLEMENTATION_FOLDERS.has(folder.toLowerCase()));
}
