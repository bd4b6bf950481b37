// A slash command's arguments as the host runs them and the composer completes them: positional in
// declared order, quoted values, `name=value`, the last argument taking the rest, and the argument
// under the caret with the ones before it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { argumentAt, argumentsHint, parseArguments, quoteArgument } from './commandArguments';

const CITY = [{ name: 'city', required: true }, { name: 'state', required: false }];
const TEAM = [{ name: 'department', required: true }, { name: 'name', required: true }];

describe('slash command arguments', () => {
	it('fill the declared arguments in order; a quoted value keeps its spaces', () => {
		assert.deepEqual(parseArguments(' Paris', CITY), { values: { city: 'Paris' }, missing: [], surplus: [] });
		assert.deepEqual(parseArguments(' "New York" NY', CITY).values, { city: 'New York', state: 'NY' });
		assert.deepEqual(parseArguments(' \'New York\' NY', CITY).values, { city: 'New York', state: 'NY' });
		assert.deepEqual(parseArguments(' "say \\"hi\\" \\\\ there" x', CITY).values, { city: 'say "hi" \\ there', state: 'x' });
		assert.deepEqual(parseArguments(' don\'t stop', CITY).values, { city: 'don\'t', state: 'stop' }, 'a quote inside a word is the word\'s');
	});

	it('take name=value for a declared argument anywhere; another name=value is a plain word', () => {
		assert.deepEqual(parseArguments(' state=CA city="Los Angeles"', CITY).values, { state: 'CA', city: 'Los Angeles' });
		assert.deepEqual(parseArguments(' state=CA Fresno', CITY).values, { state: 'CA', city: 'Fresno' }, 'the words fill the arguments not named');
		assert.deepEqual(parseArguments(' x=1', CITY).values, { city: 'x=1' });
		assert.deepEqual(parseArguments(' city=a city=b', CITY).values, { city: 'b' }, 'named twice: the last counts');
	});

	it('give the last argument the rest of the line', () => {
		assert.deepEqual(parseArguments(' Springfield in Illinois', CITY).values, { city: 'Springfield', state: 'in Illinois' });
		const one = [{ name: 'topic', required: true }];
		assert.deepEqual(parseArguments(' how do  the tests run', one).values, { topic: 'how do the tests run' });
	});

	it('say which required arguments are missing (an empty value counts as none) and which words nothing takes', () => {
		assert.deepEqual(parseArguments('', CITY), { values: {}, missing: ['city'], surplus: [] });
		assert.deepEqual(parseArguments(' "" NY', CITY), { values: { state: 'NY' }, missing: ['city'], surplus: [] });
		assert.deepEqual(parseArguments(' Sales', TEAM).missing, ['name']);
		assert.deepEqual(parseArguments(' stray words', []).surplus, ['stray', 'words']);
		assert.deepEqual(parseArguments(' department=Sales name=Eve extra', TEAM).surplus, ['extra']);
		assert.deepEqual(parseArguments(' "New York', CITY).values, { city: 'New York' }, 'an open quote runs to the end');
	});

	it('find the argument under the caret, its value so far and the arguments before it', () => {
		assert.deepEqual(argumentAt(' ', TEAM), { name: 'department', value: '', start: 1, context: {} });
		assert.deepEqual(argumentAt(' Sa', TEAM), { name: 'department', value: 'Sa', start: 1, context: {} });
		assert.deepEqual(argumentAt(' Sales E', TEAM), { name: 'name', value: 'E', start: 7, context: { department: 'Sales' } });
		assert.deepEqual(argumentAt(' name=E', TEAM), { name: 'name', value: 'E', start: 6, context: {} });
		assert.deepEqual(argumentAt(' name=Eve ', TEAM), { name: 'department', value: '', start: 10, context: { name: 'Eve' } });
		assert.deepEqual(argumentAt(' "New Yo', CITY), { name: 'city', value: 'New Yo', start: 1, context: {} });
		assert.equal(argumentAt(' Sales Eve more', TEAM), undefined, 'past the last argument: the rest of the line');
		assert.equal(argumentAt(' x', []), undefined);
	});

	it('quote a value only when it must be, so it reads back the same', () => {
		for (const value of ['Sales', 'New York', '', 'say "hi"', 'a=b', 'back\\slash', '\'quoted\'']) {
			const written = quoteArgument(value);
			assert.deepEqual(parseArguments(` ${written} tail`, CITY).values.city ?? '', value, written);
		}
		assert.equal(quoteArgument('Sales'), 'Sales');
		assert.equal(quoteArgument('New York'), '"New York"');
		assert.equal(argumentsHint(CITY), '<city> [state]');
	});
});
