import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorMessageOf, parseRetryAfter } from './http';

describe('HTTP failure details', () => {
	it('parses retry-after as seconds or an HTTP date, preferring retry-after-ms', () => {
		const now = Date.UTC(2026, 10, 30, 9, 0, 0);
		const parse = (headers: Record<string, string>) => parseRetryAfter(new Headers(headers), now);
		assert.equal(parse({ 'retry-after': '7' }), 7000);
		assert.equal(parse({ 'retry-after': '0.5' }), 500);
		assert.equal(parse({ 'retry-after': new Date(now + 12_000).toUTCString() }), 12_000);
		assert.equal(parse({ 'retry-after': new Date(now - 12_000).toUTCString() }), 0, 'a date in the past means now');
		assert.equal(parse({ 'retry-after': '7', 'retry-after-ms': '1234' }), 1234);
		assert.equal(parse({ 'retry-after': 'soon' }), undefined);
		assert.equal(parse({ 'retry-after': '-3' }), undefined);
		assert.equal(parse({}), undefined);
	});

	it('finds the server\'s message in each error body format', () => {
		assert.equal(errorMessageOf('{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}'), 'slow down');
		assert.equal(errorMessageOf('{"error":{"message":"bad key","type":"invalid_request_error"}}'), 'bad key');
		assert.equal(errorMessageOf('{"error":"model \\"x\\" not found"}'), 'model "x" not found');
		assert.equal(errorMessageOf('{"message":"plain"}'), 'plain');
		assert.equal(errorMessageOf('<html>\n  <h1>502 Bad Gateway</h1>\n</html>'), '<html> <h1>502 Bad Gateway</h1> </html>');
		assert.equal(errorMessageOf('x'.repeat(1000)).length, 301);
		assert.equal(errorMessageOf(''), '');
	});
});
