import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BUILTIN_REMINDER_TYPES } from './builtin/catalog';
import { BUILTIN_KEYS, KeyRegistry, RESERVED_KEYS } from './keys';
import '../testing/chatFeatures';

/** The rows of the first Markdown table in docs/reminder-keys.md, cells trimmed. */
function documentedRows(): string[][] {
	const text = readFileSync(join(process.cwd(), 'docs', 'reminder-keys.md'), 'utf8');
	const rows = text
		.split('\n')
		.filter((line) => line.startsWith('|'))
		.map((line) =>
			line
				.slice(1, line.endsWith('|') ? -1 : undefined)
				.split('|')
				.map((cell) => cell.trim()),
		);
	assert.deepEqual(rows[0], ['key', 'shown as', 'purpose', 'introduced in'], 'the table header');
	return rows.slice(2);
}

describe('reserved keys', () => {
	it('docs/reminder-keys.md shows exactly the registry, in order', () => {
		const documented = documentedRows();
		const registered = RESERVED_KEYS.map((entry) => [`\`${entry.key}\``, entry.label, entry.purpose, entry.introducedIn]);
		assert.deepEqual(documented, registered);
	});

	it('every built-in reminder type uses a registered key with the registered label', () => {
		for (const type of BUILTIN_REMINDER_TYPES) {
			assert.equal(BUILTIN_KEYS.require(type.key).label, type.label, type.type);
		}
	});

	it('refuses invalid and duplicate keys, and names an unregistered one', () => {
		assert.throws(() => new KeyRegistry([{ key: 'has space', label: 'x', purpose: 'x', introducedIn: '0.1.0' }]), /must match/);
		assert.throws(() => BUILTIN_KEYS.with([{ key: 'steering.user', label: 'x', purpose: 'x', introducedIn: '0.1.0' }]), /registered twice/);
		assert.throws(() => BUILTIN_KEYS.require('files.nope'), /"files\.nope" is not registered/);
		const extended = BUILTIN_KEYS.with([{ key: 'test.extra', label: 'extra', purpose: 'a test key', introducedIn: '0.1.0' }]);
		assert.ok(extended.has('test.extra'));
		assert.ok(!BUILTIN_KEYS.has('test.extra'), 'extending makes a new registry');
	});
});
