// `npm run package`: out/<name>-<version>.vsix (see vsix.mjs).
import { statSync } from 'node:fs';
import { packageVsix } from './vsix.mjs';

try {
	const out = packageVsix();
	console.log(`Packaged ${out} (${(statSync(out).size / 1024).toFixed(0)} KB)`);
} catch (error) {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
}
