// The request cards' messages at the door: each kind of card and answer is accepted, and what the
// card could not show or the host must not take (an unknown field kind, an unknown action, a form
// entry of another shape) is refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHostMessage, parseViewMessage } from './messages';

const FORM = {
	kind: 'form',
	id: 'mcp-request-2',
	server: 'everything',
	message: 'Who are you?',
	fields: [
		{ kind: 'text', name: 'email', title: 'Email', required: true, format: 'email' },
		{ kind: 'number', name: 'age', title: 'Age', required: false, integer: true, minimum: 0, default: 30 },
		{ kind: 'boolean', name: 'ok', title: 'OK', required: false, default: true },
		{ kind: 'choice', name: 'color', title: 'Colour', required: false, options: [{ value: 'red', label: 'Red' }], default: 'red' },
		{ kind: 'multi', name: 'pets', title: 'Pets', required: false, options: [{ value: 'cat', label: 'Cat' }], maxItems: 1, default: ['cat'] },
	],
};

describe('the MCP request cards\' messages', () => {
	it('accepts each card and each answer', () => {
		const requests = [
			{ kind: 'sampling', id: 'mcp-request-1', server: 'everything', systemPrompt: 'Be brief.', messages: [{ role: 'user', text: 'Hi' }], maxTokens: 100, model: 'anthropic claude' },
			FORM,
			{ kind: 'url', id: 'mcp-request-3', server: 'billing', message: 'Pay', url: 'https://pay.example.com/x', origin: 'https://pay.example.com' },
		];
		const host = parseHostMessage({ type: 'mcp.requests', seq: 3, requests });
		assert.ok(host.ok, host.ok ? '' : host.error);
		for (const answer of [
			{ type: 'mcp.answer', id: 'mcp-request-1', action: 'accept' },
			{ type: 'mcp.answer', id: 'mcp-request-2', action: 'accept', entries: { email: 'a@b.c', age: '30', ok: true, pets: ['cat'] } },
			{ type: 'mcp.answer', id: 'mcp-request-3', action: 'decline' },
			{ type: 'mcp.answer', id: 'mcp-request-3', action: 'cancel' },
		]) {
			const parsed = parseViewMessage(answer);
			assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
		}
	});

	it('refuses a field it cannot show, an unknown action and entries of another shape', () => {
		assert.equal(parseHostMessage({ type: 'mcp.requests', seq: 3, requests: [{ ...FORM, fields: [{ kind: 'object', name: 'x', title: 'X', required: false }] }] }).ok, false);
		assert.equal(parseViewMessage({ type: 'mcp.answer', id: 'mcp-request-1', action: 'open' }).ok, false);
		assert.equal(parseViewMessage({ type: 'mcp.answer', id: 'mcp-request-2', action: 'accept', entries: { age: 30 } }).ok, false);
		assert.equal(parseViewMessage({ type: 'mcp.answer', id: '', action: 'accept' }).ok, false);
	});
});
