import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Files under `dir` (relative to `root`) whose names end with `suffix`, sorted; skips node_modules. */
export function findFiles(root, dir, suffix) {
	const found = [];
	const walk = (abs) => {
		for (const entry of readdirSync(abs, { withFileTypes: true })) {
			if (entry.name === 'node_modules' || entry.name.startsWith('.')) {
				continue;
			}
			const path = join(abs, entry.name);
			if (entry.isDirectory()) {
				walk(path);
			} else if (entry.name.endsWith(suffix)) {
				found.push(relative(root, path));
			}
		}
	};
	walk(join(root, dir));
	return found.sort();
}
