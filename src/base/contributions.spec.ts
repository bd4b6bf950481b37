import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type Contribution, runContributions } from './contributions';
import { toDisposable } from './lifecycle';
import { RecordingLogger } from '../testing/recordingLogger';

/** A contribution that says when it starts and when what it registered is disposed. */
function recorded(name: string, events: string[], fail?: string): Contribution<undefined> {
	return {
		name,
		contribute: (_context, store) => {
			events.push(`start ${name}`);
			store.add(toDisposable(() => {
				events.push(`dispose ${name}`);
			}));
			if (fail !== undefined) {
				throw new Error(fail);
			}
		},
	};
}

describe('runContributions', () => {
	it('logs a contribution that throws by its name, and still starts the next', () => {
		const events: string[] = [];
		const log = new RecordingLogger();
		runContributions([recorded('notices', events, 'no folder'), recorded('commands', events)], undefined, log);
		assert.deepEqual(log.at('error'), ['Contribution "notices" failed to start: no folder']);
		assert.ok(events.includes('start commands'));
	});

	it('disposes what a failed contribution registered at once, not again at the end', () => {
		const events: string[] = [];
		const disposable = runContributions([recorded('notices', events, 'no folder'), recorded('commands', events)], undefined, new RecordingLogger());
		assert.deepEqual(events, ['start notices', 'dispose notices', 'start commands']);
		disposable.dispose();
		assert.deepEqual(events, ['start notices', 'dispose notices', 'start commands', 'dispose commands']);
	});

	it('disposes the contributions in reverse order', () => {
		const events: string[] = [];
		const disposable = runContributions(['core', 'chat view', 'commands'].map((name) => recorded(name, events)), undefined, new RecordingLogger());
		disposable.dispose();
		assert.deepEqual(events.filter((event) => event.startsWith('dispose')), ['dispose commands', 'dispose chat view', 'dispose core']);
	});

	it('passes each contribution the same context, in order', () => {
		const seen: string[] = [];
		const context = { said: 'hello' };
		const contribution = (name: string): Contribution<typeof context> => ({ name, contribute: ({ said }) => { seen.push(`${name}: ${said}`); } });
		runContributions([contribution('first'), contribution('second')], context, new RecordingLogger());
		assert.deepEqual(seen, ['first: hello', 'second: hello']);
	});
});
