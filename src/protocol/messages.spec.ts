import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_MESSAGE_CHARS, parseHostMessage, parseViewMessage, PROTOCOL_VERSION } from './messages';

const state = {
	session: { id: 's1', title: 'New chat', items: [{ kind: 'user', id: 'u1', text: 'hi', at: 1 }] },
	settings: { sendShortcut: 'enter', maxMessageLength: 100000 },
	agent: { state: 'unavailable', detail: 'No agent yet.' },
};

describe('parseHostMessage', () => {
	it('accepts every host message kind', () => {
		for (const message of [
			{ type: 'snapshot', seq: 0, protocol: PROTOCOL_VERSION, state },
			{ type: 'items.appended', seq: 1, sessionId: 's1', items: [{ kind: 'user', id: 'u2', text: 'x', at: 2 }] },
			{ type: 'session.retitled', seq: 2, sessionId: 's1', title: 'Fix the build' },
			{ type: 'settings.changed', seq: 2, settings: { sendShortcut: 'ctrlEnter', maxMessageLength: 5000 } },
			{ type: 'notice', seq: 3, level: 'error', text: 'Refused.' },
			{ type: 'composer.focus', seq: 4 },
		]) {
			const parsed = parseHostMessage(message);
			assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
			assert.deepEqual(parsed.message, message);
		}
	});

	it('rejects unknown types, missing fields and wrong shapes with a readable reason', () => {
		const cases: [unknown, RegExp][] = [
			[{ type: 'explode' }, /"explode"/],
			[{ type: 'snapshot', seq: 0, protocol: 1 }, /state/],
			[{ type: 'items.appended', seq: 1, sessionId: 's1', items: [] }, /items/],
			[{ type: 'items.appended', seq: 1, sessionId: 's1', items: [{ kind: 'assistant-from-the-future', id: 'x' }] }, /items/],
			[{ type: 'notice', seq: -1, level: 'error', text: 'x' }, /seq/],
			[null, /without a type/],
			['snapshot', /without a type/],
			[{ seq: 0 }, /without a type/],
		];
		for (const [data, reason] of cases) {
			const parsed = parseHostMessage(data);
			if (parsed.ok) {
				assert.fail(`accepted ${JSON.stringify(data)}`);
			}
			assert.match(parsed.error, reason);
		}
	});

	it('drops unknown extra fields instead of passing them on', () => {
		const parsed = parseHostMessage({ type: 'notice', seq: 0, level: 'info', text: 'x', html: '<img onerror=alert(1)>' });
		assert.ok(parsed.ok);
		assert.equal('html' in parsed.message, false);
	});
});

describe('parseViewMessage', () => {
	it('accepts the webview messages', () => {
		for (const message of [
			{ type: 'ready', protocol: 1, reason: 'load' },
			{ type: 'submit', text: 'hello' },
			{ type: 'log', level: 'warning', message: 'dropped something' },
		]) {
			assert.ok(parseViewMessage(message).ok, JSON.stringify(message));
		}
	});

	it('rejects empty and oversized submissions', () => {
		assert.equal(parseViewMessage({ type: 'submit', text: '' }).ok, false);
		assert.equal(parseViewMessage({ type: 'submit', text: 'x'.repeat(MAX_MESSAGE_CHARS + 1) }).ok, false);
		assert.equal(parseViewMessage({ type: 'submit', text: 42 }).ok, false);
	});
});
