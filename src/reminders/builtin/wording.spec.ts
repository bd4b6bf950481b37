// The generated texts that name a tool, a type or a count: the article and the number agree with
// the word ("an Edit call", "1 turn"), in what the chat shows and in what the model is sent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReminderFormatError, wrap } from '../envelope';
import { checkInjectionPoint } from '../injector';
import { isDue } from '../policy';
import { unstageableBody } from '../staging';
import { hookOutcome } from './hookOutcome';
import { permissionVerdict } from './permissionVerdict';
import { planReferenceBody } from './planReference';

describe('generated wording', () => {
	it('a verdict on one call says "an" before a tool that starts with a vowel', () => {
		assert.equal(permissionVerdict({ granted: true, tool: 'Edit', target: 'a.ts' }).reason, 'the user granted an Edit call');
		assert.equal(permissionVerdict({ granted: false, tool: 'ApplyPatch' }).reason, 'the user denied an ApplyPatch call');
		assert.equal(permissionVerdict({ granted: true, tool: 'Read' }).reason, 'the user granted a Read call');
	});

	it('a hook outcome on one call says "an" before such a tool too', () => {
		assert.equal(hookOutcome({ event: 'PreToolUse', tool: 'Edit', kind: 'blocked', text: 'no' }).reason, 'a PreToolUse hook blocked an Edit call');
		assert.equal(hookOutcome({ event: 'PostToolUse', tool: 'Run', kind: 'context', text: 'ok' }).reason, 'a PostToolUse hook added context to a Run call');
	});

	it('names an object as "an object" when it is not text', () => {
		assert.equal(unstageableBody({}), 'its body is an object, not text');
		assert.equal(unstageableBody(5), 'its body is a number, not text');
		assert.throws(() => wrap('k', {} as unknown as string), (error: unknown) => error instanceof ReminderFormatError && /must be a string, not an object\./.test(error.message));
	});

	it('says "an assistant message" when a turn-start WAIT follows one', () => {
		assert.throws(() => {
			checkInjectionPoint([{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'text', text: 'hello' }] }] as never, 'turn-start');
		}, /not an assistant message\./);
	});

	it('counts one turn as "1 turn"', () => {
		const decision = isDue({ kind: 'interval', turns: 1 }, { lastTurn: 4, fired: false }, 5);
		assert.deepEqual(decision, { due: true, reason: 'interval 1 reached (last delivered 1 turn ago)' });
	});

	it('the plan reference says "1 character (1 line)" when that much is cut', () => {
		const body = planReferenceBody({ file: '/p/plan-1.md', text: `${'x'.repeat(300)}y`, approvedAt: 0 }, 300);
		assert.match(body, /\[Cut: the last 1 character \(1 line\) of the plan/);
	});
});
