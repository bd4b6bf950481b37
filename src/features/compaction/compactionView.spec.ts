import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROTOCOL_VERSION } from '../../protocol/messages';
import { testConnection } from '../../testing/viewConnection';
import { CompactionPart } from './compactionView';

/** A view connection with the compaction part over a stand-in compaction that records into the agent's calls. */
function connection() {
	let refusal: string | undefined;
	const t = testConnection({
		features: () => [
			new CompactionPart(() => ({
				compact: (instructions?: string) => {
					t.agent.calls.push(`compact${instructions === undefined ? '' : ` ${instructions}`}`);
					return Promise.resolve(refusal);
				},
			})),
		],
	});
	return {
		...t,
		refuse: (why: string) => {
			refusal = why;
		},
	};
}

describe('the compaction part of the view', () => {
	it('compacts on the button\'s message and on a typed /compact, and says in the chat why it did not', async () => {
		const t = connection();
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'compaction.run' });
		t.connection.receive({ type: 'submit', text: '/compact keep APIs' });
		t.connection.receive({ type: 'submit', text: '/compacted' });
		assert.deepEqual(t.agent.calls, ['compact', 'compact keep APIs', 'submit /compacted']);
		t.refuse('There is nothing to compact yet.');
		t.connection.receive({ type: 'compaction.run', instructions: 'x' });
		await new Promise((resolve) => setImmediate(resolve));
		const notices = t.posted.flatMap((message) => (message.type === 'notice' ? [`${message.level}: ${message.text}`] : []));
		assert.deepEqual(notices, ['warning: There is nothing to compact yet.']);
	});

	it('puts /compact in the composer\'s hint list, from the registry', () => {
		const t = connection();
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		const snapshot = t.posted[0];
		assert.ok(snapshot?.type === 'snapshot');
		assert.deepEqual(snapshot.state.commands, [{ name: '/compact', args: '[what to keep]', summary: 'compact the chat now' }]);
	});
});
