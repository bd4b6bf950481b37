import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goalCommand, parseTokens } from './goalCommand';

describe('/goal', () => {
	it('tells the forms apart', () => {
		assert.deepEqual(goalCommand('/goal'), { kind: 'show' });
		assert.deepEqual(goalCommand('  /goal  '), { kind: 'show' });
		assert.deepEqual(goalCommand('/goal Ship the parser\nwith tests'), { kind: 'objective', objective: 'Ship the parser\nwith tests' });
		assert.deepEqual(goalCommand('/goal done'), { kind: 'end', how: 'completed' });
		assert.deepEqual(goalCommand('/goal complete'), { kind: 'end', how: 'completed' });
		assert.deepEqual(goalCommand('/goal clear'), { kind: 'end', how: 'cleared' });
		assert.deepEqual(goalCommand('/goal budget 200k'), { kind: 'budget', budget: 200_000 });
		assert.deepEqual(goalCommand('/goal budget none'), { kind: 'budget', budget: null });
		assert.equal(goalCommand('/goal budget lots')?.kind, 'invalid');
		assert.equal(goalCommand('/goal budget')?.kind, 'invalid');
		assert.equal(goalCommand('/goals are nice'), undefined);
		assert.equal(goalCommand('my /goal'), undefined);
	});

	it('reads token counts as people write them', () => {
		assert.equal(parseTokens('200000'), 200_000);
		assert.equal(parseTokens('200,000'), 200_000);
		assert.equal(parseTokens('200k'), 200_000);
		assert.equal(parseTokens('1.5M'), 1_500_000);
		assert.equal(parseTokens('0'), undefined);
		assert.equal(parseTokens('1.5'), undefined);
		assert.equal(parseTokens('-5'), undefined);
		assert.equal(parseTokens('12 tokens'), undefined);
	});
});
