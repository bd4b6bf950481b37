import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorMessage } from './errors';

describe('errorMessage', () => {
	it("is an Error's own message, whatever its class, and anything else as text", () => {
		assert.equal(errorMessage(new TypeError('bad input')), 'bad input');
		assert.equal(errorMessage(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })), 'EACCES: permission denied');
		assert.equal(errorMessage('just text'), 'just text');
		assert.equal(errorMessage(42), '42');
		assert.equal(errorMessage(undefined), 'undefined');
	});
});
