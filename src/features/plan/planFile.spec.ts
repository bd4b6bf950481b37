import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseViewMessage, PROTOCOL_VERSION } from '../../protocol/messages';
import { testConnection } from '../../testing/viewConnection';

const flush = () => new Promise((resolve) => setImmediate(resolve));
const FILE = '/storage/sessions/s1.plans/plan-1.md';

describe('a plan-decision row\'s plan file', () => {
	it('plan.open names the approval; the host opens the file that approval of the current chat saved', async () => {
		assert.ok(parseViewMessage({ type: 'plan.open', decision: 'd1' }).ok);
		assert.equal(parseViewMessage({ type: 'plan.open', decision: '' }).ok, false);
		const t = testConnection();
		t.sessions.current.append({ kind: 'plan-decision', id: 'd1', at: 1, proposal: 'a1', decision: 'approved', mode: 'ask', file: FILE });
		t.sessions.current.append({ kind: 'plan-decision', id: 'd2', at: 2, proposal: 'a2', decision: 'rejected' });
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'plan.open', decision: 'd1' });
		await flush();
		assert.deepEqual(t.workbench.opened, [`plan ${FILE}`]);
	});

	it('opens nothing for a decision that saved no file, or one this chat does not have, and says so', async () => {
		const t = testConnection();
		t.sessions.current.append({ kind: 'plan-decision', id: 'd2', at: 2, proposal: 'a2', decision: 'rejected' });
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		for (const decision of ['d2', 'elsewhere']) {
			t.connection.receive({ type: 'plan.open', decision });
		}
		await flush();
		assert.deepEqual(t.workbench.opened, []);
		assert.equal(t.posted.filter((message) => message.type === 'notice' && message.text === 'That plan file is not part of this chat.').length, 2);
	});
});
