import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { readSettings, SETTINGS } from './settings';

interface ContributedProperty {
	type?: string;
	enum?: unknown[];
	minimum?: number;
	maximum?: number;
	default?: unknown;
	markdownDescription?: string;
	description?: string;
}

const manifest = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as {
	contributes: { configuration: { title: string; properties: Record<string, ContributedProperty> } };
};
const contributed = manifest.contributes.configuration.properties;

describe('settings', () => {
	it('package.json contributes exactly the settings defined in code', () => {
		assert.deepEqual(Object.keys(contributed).sort(), Object.values(SETTINGS).map((s) => s.key).sort());
		assert.equal(manifest.contributes.configuration.title, 'Aside');
	});

	for (const definition of Object.values(SETTINGS)) {
		it(`${definition.key}: type, bounds, enum and default match the zod schema`, () => {
			const property = contributed[definition.key];
			assert.ok(property, `${definition.key} is not in package.json`);
			const schema = z.toJSONSchema(definition.schema as z.ZodType) as ContributedProperty;
			assert.equal(property.type, schema.type);
			assert.deepEqual(property.enum, schema.enum);
			assert.equal(property.minimum, schema.minimum);
			assert.equal(property.maximum, schema.maximum);
			assert.deepEqual(property.default, definition.default);
			assert.ok(definition.schema.safeParse(definition.default).success, 'the default must be valid');
			assert.ok((property.markdownDescription ?? property.description ?? '').length > 20, 'every setting needs a real description');
		});
	}

	it('reads valid values and uses defaults for unset ones', () => {
		const values: Record<string, unknown> = { 'aside.chat.sendShortcut': 'ctrlEnter' };
		const { settings, problems } = readSettings((key) => values[key]);
		assert.deepEqual(settings, { sendShortcut: 'ctrlEnter', maxMessageLength: 100_000 });
		assert.deepEqual(problems, []);
	});

	it('falls back to the default for a bad value and names the setting, value and default', () => {
		const values: Record<string, unknown> = {
			'aside.chat.sendShortcut': 'shift',
			'aside.chat.maxMessageLength': '5000',
		};
		const { settings, problems } = readSettings((key) => values[key]);
		assert.deepEqual(settings, { sendShortcut: 'enter', maxMessageLength: 100_000 });
		assert.equal(problems.length, 2);
		assert.match(problems[0]?.message ?? '', /"aside\.chat\.sendShortcut" has an invalid value "shift" \(Invalid option.*\); using the default, "enter"\./);
		assert.match(problems[1]?.message ?? '', /"aside\.chat\.maxMessageLength" has an invalid value "5000" .*using the default, 100000\./);
	});

	it('rejects out-of-range and fractional numbers', () => {
		for (const bad of [999, 1_000_001, 1500.5, -1, Number.NaN]) {
			const { problems } = readSettings((key) => (key === 'aside.chat.maxMessageLength' ? bad : undefined));
			assert.equal(problems.length, 1, String(bad));
		}
	});
});
