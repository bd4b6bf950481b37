// The policy's inputs as of now: the rules follow the setting's value (parsed again only when it
// changed), trust is read at every call, and a bad rule is dropped while the others apply.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { permissionContextOf } from './context';

describe('the permission context', () => {
	it('follows the setting and trust as they are now, keeping the valid rules of a setting with a bad one', () => {
		let value: unknown = { allow: ['Run(npm test*)', 'Run(npm test'] };
		let trusted = true;
		const context = permissionContextOf({ rules: () => value, trusted: () => trusted, storage: ['/storage'] });
		const first = context();
		assert.deepEqual(first.rules.allow.map((rule) => rule.text), ['Run(npm test*)'], 'the bad rule is dropped, the good one applies');
		assert.equal(context().rules, first.rules, 'an unchanged value is not parsed again');
		value = { deny: ['Edit(**/*.lock)'] };
		trusted = false;
		const second = context();
		assert.deepEqual([second.rules.allow.length, second.rules.deny.map((rule) => rule.text), second.trusted, second.storage], [0, ['Edit(**/*.lock)'], false, ['/storage']]);
		value = undefined;
		assert.deepEqual(context().rules, { deny: [], ask: [], allow: [] }, 'unset: no rules');
	});
});
