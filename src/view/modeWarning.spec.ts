import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { type PermissionMode, PROTOCOL_VERSION } from '../protocol/messages';
import { appendUser } from '../testing/sessions';
import { testConnection as setup } from '../testing/viewConnection';
import { ViewConnection } from './connection';
import { FULL_ACCESS_NOTICE, sayWhatFullAccessMeans } from './modeWarning';

describe('Full access, said once per chat', () => {
	let t: ReturnType<typeof setup>;
	const notices = () => t.posted.flatMap((message) => (message.type === 'notice' ? [`${message.level}: ${message.text}`] : []));
	/** The toolbar's choice, and the agent's answer: the chat's mode is now `mode`. */
	const choose = (mode: PermissionMode) => {
		t.connection.receive({ type: 'mode.select', mode });
		t.agent.change({ mode });
	};
	beforeEach(() => {
		t = setup();
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
	});

	it('says what it means the first time a chat enters it, and not when it goes back to it', () => {
		choose('auto-edit');
		assert.deepEqual(notices(), [], 'no other mode is warned of');
		choose('full-access');
		assert.deepEqual(notices(), [`warning: ${FULL_ACCESS_NOTICE}`]);
		assert.match(FULL_ACCESS_NOTICE, /^Full access: the agent changes files and runs commands without asking, except what a rule or a protected path still refuses or asks for\./);
		choose('ask');
		choose('full-access');
		assert.equal(notices().length, 1, 'said once for this chat');
		assert.deepEqual(t.agent.calls, ['mode auto-edit', 'mode full-access', 'mode ask', 'mode full-access'], 'the choice is made either way');

		// Another chat is told for itself.
		appendUser(t.sessions.current, 'something, so New Chat makes another');
		const first = t.sessions.current.id;
		t.sessions.newSession();
		assert.notEqual(t.sessions.current.id, first);
		t.agent.change({ mode: 'ask' });
		choose('full-access');
		assert.equal(notices().length, 2);
	});

	it('survives the view reloading and the view being made again over the same window', () => {
		choose('full-access');
		choose('ask');
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		choose('full-access');
		choose('ask');
		const posted: string[] = [];
		const again = new ViewConnection({
			sessions: t.sessions,
			projections: t.projections,
			workbench: t.workbench,
			settings: t.settings,
			agent: t.agent,
			log: t.log,
			post: (message) => {
				posted.push(message.type === 'notice' ? message.text : message.type);
				return Promise.resolve(true);
			},
		});
		again.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		again.receive({ type: 'mode.select', mode: 'full-access' });
		assert.deepEqual(notices(), [`warning: ${FULL_ACCESS_NOTICE}`], 'the reloaded view was not told again');
		assert.ok(!posted.includes(FULL_ACCESS_NOTICE), 'nor the new one');
		again.dispose();
	});

	it('a one-message override into Full access is the chat entering it too', () => {
		t.connection.receive({ type: 'submit', text: 'just this once', mode: 'full-access' });
		assert.deepEqual(notices(), [`warning: ${FULL_ACCESS_NOTICE}`]);
		assert.deepEqual(t.agent.calls, ['submit just this once (full-access for this message)']);
		t.connection.receive({ type: 'submit', text: 'and again', mode: 'full-access' });
		choose('full-access');
		assert.equal(notices().length, 1);
	});

	it('a chat already in Full access (its records said so, or the setting) was told before: nothing to say', () => {
		t.agent.change({ mode: 'full-access' });
		choose('ask');
		choose('full-access');
		assert.deepEqual(notices(), []);
	});

	it('keeps one set per window: another window\'s chats are their own', () => {
		const said: string[] = [];
		const windowA = { current: { id: 'chat-1' } };
		const windowB = { current: { id: 'chat-1' } };
		sayWhatFullAccessMeans(windowA, 'ask', 'full-access', (text) => said.push(`A ${text}`));
		sayWhatFullAccessMeans(windowA, 'ask', 'full-access', (text) => said.push(`A ${text}`));
		sayWhatFullAccessMeans(windowB, 'ask', 'full-access', (text) => said.push(`B ${text}`));
		sayWhatFullAccessMeans(windowB, 'ask', undefined, (text) => said.push(`B ${text}`));
		assert.deepEqual(said, [`A ${FULL_ACCESS_NOTICE}`, `B ${FULL_ACCESS_NOTICE}`]);
	});
});
