// Builds the production bundles and packages them as out/aside-<version>.vsix with vsce.
// Dependencies are bundled by esbuild, so the .vsix carries no node_modules.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function run(cmd, args) {
	const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
	if (result.status !== 0) {
		process.exit(result.status ?? 1);
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
console.log(`Packaged ${out} (${(statSync(out).size / 1024).toFixed(0)} KB)`);
