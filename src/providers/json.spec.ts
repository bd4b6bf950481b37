import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { parseJson, type JsonProblem } from './json';
import { ProviderError } from './provider';

const Point = z.object({ x: z.number() });

function problemOf(text: string | undefined): JsonProblem {
	let seen: JsonProblem | undefined;
	assert.throws(
		() =>
			parseJson(text, Point, (problem) => {
				seen = problem;
				return new ProviderError('stream', `worded by the caller: ${problem.kind}`);
			}),
		(error: unknown) => error instanceof ProviderError && error.message === `worded by the caller: ${seen?.kind ?? '?'}`,
	);
	assert.ok(seen);
	return seen;
}

describe('parseJson: JSON.parse, then the schema, else the caller\'s ProviderError', () => {
	it('gives the parsed value of the schema\'s shape', () => {
		assert.deepEqual(parseJson('{"x":1,"extra":true}', Point, () => assert.fail('no problem')), { x: 1 });
	});

	it('says "json" for text that is not JSON, or no text at all, with the parser\'s error as the cause', () => {
		for (const text of ['{"x":', '<html>', '', undefined]) {
			const problem = problemOf(text);
			assert.equal(problem.kind, 'json', String(text));
			assert.ok(problem.cause instanceof SyntaxError);
		}
	});

	it('says "shape" for JSON of another shape, with the JSON and zod\'s error', () => {
		const problem = problemOf('{"x":"one"}');
		assert.ok(problem.kind === 'shape', problem.kind);
		assert.ok(problem.cause instanceof z.ZodError);
		assert.deepEqual(problem.json, { x: 'one' });
	});
});
