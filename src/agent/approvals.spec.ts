// The permission gate holds several waiting calls (children ask side by side): one card at a
// time, in the order they asked; a verdict for any waiting call; Stop denies them all.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecordingLogger } from '../testing/recordingLogger';
import { Approvals, type PermissionRequest } from './approvals';

const request = (callId: string, agent?: string): PermissionRequest => ({
	callId,
	tool: 'Change',
	kind: 'write',
	confirmation: { title: `Change ${callId}?`, target: callId },
	...(agent === undefined ? {} : { agent }),
});

describe('Approvals', () => {
	it('shows the first waiting call, then the next, in the order they asked', async () => {
		let changes = 0;
		const approvals = new Approvals(() => changes++, new RecordingLogger());
		const signal = new AbortController().signal;
		const a = approvals.ask(request('a', 'root/general#1'), signal);
		const b = approvals.ask(request('b', 'root/general#2'), signal);
		const c = approvals.ask(request('c'), signal);
		// A getter each time: what the card shows now.
		const shown = () => approvals.request;
		assert.equal(shown()?.callId, 'a');
		assert.equal(shown()?.agent, 'root/general#1', 'the card says which agent asks');
		assert.equal(approvals.waitingCount, 3);
		approvals.answer('b', false, ' no ');
		assert.deepEqual(await b, { granted: false, note: 'no' }, 'a verdict for a call that is not first still reaches it');
		assert.equal(shown()?.callId, 'a');
		approvals.answer('a', true, undefined);
		assert.deepEqual(await a, { granted: true });
		assert.equal(shown()?.callId, 'c');
		approvals.answer('c', true, undefined);
		await c;
		assert.equal(shown(), null);
		assert.equal(changes, 6, 'each ask and each answer changes the state');
	});

	it('Stop denies every waiting call; an aborted call leaves the others waiting', async () => {
		const log = new RecordingLogger();
		const approvals = new Approvals(() => undefined, log);
		const one = new AbortController();
		const first = approvals.ask(request('a'), one.signal);
		const second = approvals.ask(request('b'), new AbortController().signal);
		const third = approvals.ask(request('c'), new AbortController().signal);
		one.abort();
		assert.deepEqual(await first, { granted: false });
		assert.equal(approvals.request?.callId, 'b', 'the aborted call left; the next is shown');
		approvals.deny();
		assert.deepEqual(await Promise.all([second, third]), [{ granted: false }, { granted: false }]);
		assert.equal(approvals.request, null);
		approvals.answer('b', true, undefined);
		assert.deepEqual(log.at('warn'), ['Aside: an approval for b arrived, but no call is waiting for it.']);
	});
});
