// The version a person reads agrees everywhere: package.json, the README's status line, the
// CHANGELOG's newest released section, and the versions the reminder keys say they arrived in.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RESERVED_KEYS } from './reminders/keys';

const root = process.cwd();
const read = (name: string): string => readFileSync(join(root, name), 'utf8');
const version = (JSON.parse(read('package.json')) as { version: string }).version;

/** -1, 0 or 1 as semantic version `a` is below, equal to or above `b` (release versions only). */
function compare(a: string, b: string): number {
	const x = a.split('.').map(Number);
	const y = b.split('.').map(Number);
	for (let index = 0; index < 3; index++) {
		const [left, right] = [x[index] ?? 0, y[index] ?? 0];
		if (left !== right) {
			return left < right ? -1 : 1;
		}
	}
	return 0;
}

/** The CHANGELOG's `## [...]` headings, in order. */
function sections(): string[] {
	return [...read('CHANGELOG.md').matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((match) => match[1] ?? '');
}

describe('the release version', () => {
	it('is the newest released section of the CHANGELOG, below [Unreleased], newest first', () => {
		const [unreleased, ...released] = sections();
		assert.equal(unreleased, 'Unreleased');
		assert.equal(released[0], version, 'package.json version is the newest CHANGELOG release');
		const sorted = [...released].sort((a, b) => compare(b, a));
		assert.deepEqual(released, sorted, 'released sections newest first');
		for (const heading of read('CHANGELOG.md').match(/^## \[\d[^\]]*\].*$/gm) ?? []) {
			assert.match(heading, / - \d{4}-\d{2}-\d{2}$/, `${heading} has a date`);
		}
	});

	it('is the one the README states', () => {
		const [major, minor] = version.split('.');
		const status = /\*\*Status: (\d+\.\d+)\b/.exec(read('README.md'));
		assert.ok(status, 'the README has a status line');
		assert.equal(status[1], `${major}.${minor}`);
	});

	it('covers every version a reminder key says it arrived in (or the next, while unreleased)', () => {
		const released = new Set(sections().slice(1));
		const [major = 0, minor = 0] = version.split('.').map(Number);
		const next = `${major}.${minor + 1}.0`;
		for (const entry of RESERVED_KEYS) {
			assert.ok(released.has(entry.introducedIn) || entry.introducedIn === next, `${entry.key} arrived in ${entry.introducedIn}, which has no CHANGELOG section and is not the next version ${next}`);
		}
	});
});
