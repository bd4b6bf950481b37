// The packaged extension, one way for everyone: `npm run package`, `npm start`, the integration
// tier and test:electron all build, package and unpack it through these functions.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function run(cmd, args) {
	const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
	if (result.status !== 0) {
		throw new Error(`${cmd} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
	}
}

export function vsixPath() {
	const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	return join(root, 'out', `${name}-${version}.vsix`);
}

/**
 * The README inside the .vsix (shown on the extension's page in VS Code). Relative images and
 * links point at files the .vsix does not carry and, without a published repository URL, vsce
 * refuses them: drop the images and keep the link text.
 */
export function packagedReadme(markdown) {
	return markdown
		.replace(/^!\[[^\]]*\]\((?!https?:)[^)]*\)\n\n?/gm, '')
		.replace(/\[([^\]]+)\]\((?!https?:|#)[^)]*\)/g, '$1');
}

/** Production bundles, then out/<name>-<version>.vsix (dependencies are bundled: no node_modules). */
export function packageVsix() {
	const out = vsixPath();
	mkdirSync(dirname(out), { recursive: true });
	run(process.execPath, ['esbuild.mjs', '--production']);
	const readme = join(root, 'out', 'README.md');
	writeFileSync(readme, packagedReadme(readFileSync(join(root, 'README.md'), 'utf8')));
	run(process.execPath, [
		join(root, 'node_modules', '@vscode', 'vsce', 'vsce'),
		'package',
		'--no-dependencies',
		'--allow-missing-repository',
		'--readme-path',
		// vsce joins this onto the working directory, so it must be relative.
		relative(root, readme),
		'--out',
		out,
	]);
	return out;
}

/** Packages and unzips the .vsix into `dir`; returns its `extension/` folder, exactly what installs. */
export function unpackedVsix(dir) {
	run('unzip', ['-q', packageVsix(), '-d', dir]);
	return join(dir, 'extension');
}
