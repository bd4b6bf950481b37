// The approval card's answers at the view connection's one entry: "Always allow" saves the host's
// own proposal for the call waiting (never rule text from the view) into the user settings, says
// so in the chat, and allows the call only after the rules are written; Allow and Deny pass on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROTOCOL_VERSION } from '../protocol/messages';
import { MemoryUserRules } from '../testing/memoryUserRules';
import { testConnection } from '../testing/viewConnection';

const APPROVAL = { callId: 'c1', tool: 'Run', kind: 'run', title: 'Run a command?', target: 'npm test', alwaysAllow: ['Run(npm test *)'] } as const;

function setup(userRules?: MemoryUserRules) {
	const t = testConnection(userRules ? { userRules } : {});
	t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
	t.agent.change({ approval: { ...APPROVAL, alwaysAllow: [...APPROVAL.alwaysAllow] } });
	const notices = () => t.posted.flatMap((message) => (message.type === 'notice' ? [`${message.level}: ${message.text}`] : []));
	return { ...t, notices };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the approval card\'s answers', () => {
	it('Always allow writes the proposed rule into the user\'s own rules, then allows the call and says what was saved', async () => {
		const rules = new MemoryUserRules({ deny: ['Run(rm *)'], allow: ['Run(ls *)'] });
		let writtenBeforeAllowed: boolean | undefined;
		const t = setup(rules);
		const approve = t.agent.approve.bind(t.agent);
		t.agent.approve = (callId, granted, note) => {
			writtenBeforeAllowed = rules.writes.length === 1;
			approve(callId, granted, note);
		};
		t.connection.receive({ type: 'approval', callId: 'c1', granted: true, always: true, note: 'ok' });
		await settle();
		assert.deepEqual(rules.writes, [{ deny: ['Run(rm *)'], allow: ['Run(ls *)', 'Run(npm test *)'] }]);
		assert.equal(writtenBeforeAllowed, true, 'the call is allowed once the rule is written, so the next call sees it');
		assert.deepEqual(t.agent.calls, ['approve c1 true ok']);
		assert.deepEqual(t.notices(), ['info: Saved `Run(npm test *)` to "allow" of "aside.permissions.rules" in your user settings: calls it covers now run without asking, in every workspace. Remove it there to be asked again.']);
	});

	it('saves nothing for a call that is not the one waiting, and nothing with Allow or Deny', async () => {
		const rules = new MemoryUserRules();
		const t = setup(rules);
		t.connection.receive({ type: 'approval', callId: 'c1', granted: true });
		t.connection.receive({ type: 'approval', callId: 'c1', granted: false, always: true });
		t.connection.receive({ type: 'approval', callId: 'other', granted: true, always: true });
		await settle();
		assert.deepEqual(rules.writes, []);
		assert.deepEqual(t.agent.calls, ['approve c1 true', 'approve c1 false', 'approve other true']);
		assert.deepEqual(t.notices(), ['warning: No rule was saved: this call was allowed once.']);
	});

	it('says when the rule was there already, and when it could not be written; the call is allowed either way', async () => {
		const present = setup(new MemoryUserRules({ allow: ['Run(npm test *)'] }));
		present.connection.receive({ type: 'approval', callId: 'c1', granted: true, always: true });
		await settle();
		assert.deepEqual(present.notices(), ['info: `Run(npm test *)` is already in "allow" of "aside.permissions.rules" in your user settings.']);
		const failing = setup(new MemoryUserRules(undefined, new Error('the settings file is read-only')));
		failing.connection.receive({ type: 'approval', callId: 'c1', granted: true, always: true });
		await settle();
		assert.deepEqual(failing.notices(), ['error: Could not save `Run(npm test *)` to your user settings: the settings file is read-only. This call was allowed once.']);
		const odd = setup(new MemoryUserRules({ allow: 'Run' }));
		odd.connection.receive({ type: 'approval', callId: 'c1', granted: true, always: true });
		await settle();
		assert.match(odd.notices()[0] ?? '', /^warning: Could not add `Run\(npm test \*\)` to "aside.permissions.rules": its "allow" in your user settings is not a list/);
		assert.deepEqual([present, failing, odd].map((t) => t.agent.calls), [['approve c1 true'], ['approve c1 true'], ['approve c1 true']]);
	});
});
