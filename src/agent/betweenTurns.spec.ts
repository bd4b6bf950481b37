import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { betweenTurnsOf, type BetweenTurnsHost, HeldWork } from './betweenTurns';

/** A promise and its resolver, to hold work open while the spec acts. */
function gate<T>() {
	let open!: (value: T) => void;
	const promise = new Promise<T>((resolve) => {
		open = resolve;
	});
	return { promise, open };
}

function host(current: () => boolean = () => true) {
	const started: string[] = [];
	const givenBack: string[] = [];
	let changes = 0;
	const held = new HeldWork();
	const fake: BetweenTurnsHost = {
		ports: undefined as never,
		observers: () => undefined,
		busy: (doing) => (held.active ? `busy before ${doing}` : undefined),
		rootRequest: () => Promise.reject(new Error('not asked here')),
		startTurn: (text) => {
			started.push(text);
		},
		startUnasked: () => false,
		// As the agent does: the next turn while the chat is current and the work was not stopped; else back to the person.
		continueWith: (texts, stopped) => {
			if (!stopped && current()) {
				started.push(texts.join('\n\n'));
			} else {
				givenBack.push(...texts);
			}
		},
		changed: () => {
			changes++;
		},
		restored: () => undefined,
		compacted: () => undefined,
	};
	return { held, between: betweenTurnsOf(held, fake), started, givenBack, changes: () => changes };
}

describe('work between turns', () => {
	it('holds the messages sent meanwhile and starts one turn with them after it, once', async () => {
		const t = host();
		const open = gate<string>();
		const running = t.between.run(() => open.promise, { stoppable: true, failed: () => 'failed' });
		assert.equal(t.held.active, true);
		assert.equal(t.between.refusal('restoring'), 'busy before restoring', 'nothing else runs beside it');
		assert.equal(t.held.hold('one'), true);
		assert.equal(t.held.hold('two'), true);
		open.open('done');
		assert.equal(await running, 'done');
		assert.deepEqual(t.started, ['one\n\ntwo']);
		assert.equal(t.held.active, false);
		assert.equal(t.held.hold('three'), false, 'no work runs: the message is the caller\'s to send');
		assert.equal(t.changes(), 2, 'the state changed as it started and as it ended');
	});

	it('a Stop aborts stoppable work and gives back what waited; it leaves a restore that cannot be stopped alone', async () => {
		const t = host();
		const stoppable = t.between.run((signal) => new Promise<string>((resolve) => {
			signal.addEventListener('abort', () => {
				resolve('stopped');
			});
		}), { stoppable: true, failed: () => 'failed' });
		t.held.hold('typed meanwhile');
		t.held.stop();
		assert.equal(await stoppable, 'stopped');
		assert.deepEqual(t.started, [], 'nothing is sent after a Stop');
		assert.deepEqual(t.givenBack, ['typed meanwhile'], 'what waited goes back to the person');

		const open = gate<string>();
		let aborted = false;
		const restore = t.between.run((signal) => {
			signal.addEventListener('abort', () => {
				aborted = true;
			});
			return open.promise;
		}, { stoppable: false, failed: () => 'failed' });
		t.held.hold('after the restore');
		t.held.stop();
		open.open('restored');
		assert.equal(await restore, 'restored');
		assert.equal(aborted, false);
		assert.deepEqual(t.started, ['after the restore']);
	});

	it('resolves with its `failed` answer when the work throws, and starts what waited only while its chat is current', async () => {
		let current = true;
		const t = host(() => current);
		const open = gate<undefined>();
		const failing = t.between.run(async () => {
			await open.promise;
			throw new Error('disk full');
		}, { stoppable: false, failed: (error) => `Could not: ${error instanceof Error ? error.message : ''}` });
		t.held.hold('for the old chat');
		current = false;
		open.open(undefined);
		assert.equal(await failing, 'Could not: disk full');
		assert.deepEqual(t.started, [], 'another chat is current: nothing starts in it');
		assert.deepEqual(t.givenBack, ['for the old chat'], 'and the message is not lost');
		assert.equal(t.held.active, false);
	});
});
