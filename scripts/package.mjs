// Builds the production bundles and packages them as out/aside-<version>.vsix with vsce.
// Dependencies are bundled by esbuild, so the .vsix carries no node_modules.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

const out = vsixPath();
mkdirSync(dirname(out), { recursive: true });
run(process.execPath, ['esbuild.mjs', '--production']);
run(process.execPath, [
	join(root, 'node_modules', '@vscode', 'vsce', 'vsce'),
	'package',
	'--no-dependencies',
	'--allow-missing-repository',
	'--out',
	out,
]);
console.log(`Packaged ${out} (${(statSync(out).size / 1024).toFixed(0)} KB)`);
