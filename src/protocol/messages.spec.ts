import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_MESSAGE_CHARS, parseHostMessage, parseViewMessage, PROTOCOL_VERSION } from './messages';

const state = {
	session: { id: 's1', title: 'New chat', items: [{ kind: 'user', id: 'u1', text: 'hi', at: 1 }] },
	settings: { sendShortcut: 'enter', maxMessageLength: 100000 },
	agent: {
		status: { state: 'unavailable', detail: 'No model is available.' },
		provider: 'vscode-lm',
		model: '',
		models: [{ id: 'm1', name: 'Model one' }],
		mode: 'ask',
		approval: { callId: 'c1', tool: 'Edit', kind: 'write', title: 'Edit a file', target: 'src/a.ts', diff: '-a\n+b' },
		streaming: { requestId: 'r1' },
		steering: ['use pnpm'],
		children: [{ path: 'root/explore#1', detail: 'Answering…', streaming: { requestId: 'r2' } }],
	},
	context: { usedTokens: 1200, limitTokens: 200000, reminders: [{ key: 'session.date', label: 'date', deliveries: 2, tokens: 40 }] },
	stream: { requestId: 'r1', text: 'Hel' },
	childStreams: [{ requestId: 'r2', text: 'Look' }],
	tasks: { rows: [{ id: '1', title: 'Fix it', status: 'in_progress', owner: 'root' }, { id: '2', title: 'Look', status: 'pending', owner: 'root/explore#1', notes: 'src/' }], open: 2, current: '1' },
	commands: [{ name: '/compact', args: '[what to keep]', summary: 'compact the chat now' }],
};

const items = [
	{ kind: 'assistant', id: 'a1', at: 3, text: 'Done.', stop: 'end', model: 'm1' },
	{ kind: 'tool', id: 't1', at: 4, callId: 'c1', name: 'Read', input: '{"path":"a.ts"}', result: '1\tx', isError: false, durationMs: 3, notices: [{ key: 'read.truncated', body: 'Showing 1–1 of 9.' }] },
	{ kind: 'reminders', id: 'r1', at: 5, phase: 'mid-turn', entries: [{ type: 'permissionVerdict', key: 'permission.verdict', label: 'permission', body: 'PERMISSION DENIED', reason: 'the user denied a Run call' }] },
	{ kind: 'turn-end', id: 'e1', at: 6, outcome: 'interrupted' },
	{ kind: 'agent', id: 'agent-root/explore#1', at: 7, path: 'root/explore#1', profile: 'explore', description: 'Look', steps: 2, status: 'done', result: 'Found it.', isError: false },
	{ kind: 'user', id: 'u3', text: 'look', at: 8, agent: 'root/explore#1' },
];

describe('parseHostMessage', () => {
	it('accepts every host message kind', () => {
		for (const message of [
			{ type: 'snapshot', seq: 0, protocol: PROTOCOL_VERSION, state },
			{ type: 'items.appended', seq: 1, sessionId: 's1', items: [{ kind: 'user', id: 'u2', text: 'x', at: 2 }] },
			{ type: 'session.retitled', seq: 2, sessionId: 's1', title: 'Fix the build' },
			{ type: 'settings.changed', seq: 2, settings: { sendShortcut: 'ctrlEnter', maxMessageLength: 5000 } },
			{ type: 'notice', seq: 3, level: 'error', text: 'Refused.' },
			{ type: 'composer.focus', seq: 4 },
			{ type: 'items.appended', seq: 5, sessionId: 's1', items },
			{ type: 'agent.changed', seq: 6, agent: state.agent },
			{ type: 'text.streamed', seq: 7, requestId: 'r1', text: 'lo' },
			{ type: 'snapshot', seq: 8, protocol: PROTOCOL_VERSION, state: { ...state, setup: { detected: [{ id: 'ollama', label: 'Use Ollama on localhost:11434 (3 models)' }] } } },
			{ type: 'setup.changed', seq: 9, setup: { detected: [], keyNeeded: { provider: 'Anthropic', origin: 'http://127.0.0.1:4000' } } },
			{ type: 'items.updated', seq: 11, sessionId: 's1', items: [{ kind: 'agent', id: 'agent-root/general#1/explore#3', at: 7, path: 'root/general#1/explore#3', profile: 'explore', description: 'x', steps: 0, status: 'running', agent: 'root/general#1' }] },
			{ type: 'tasks.changed', seq: 12, tasks: { rows: [], open: 0 } },
			{ type: 'composer.restore', seq: 13, text: 'deploy it', reason: 'no deploys on Friday' },
			{ type: 'composer.restore', seq: 15, text: 'fix it', reason: 'The chat was restored.', cause: 'restore' },
			{ type: 'restore.preview', seq: 16, preview: { id: 'p1', to: 'u1', scope: 'both', message: 'fix it', turns: 2, tracked: true, files: [{ shown: 'a.ts', action: 'person-changed', overwrite: 'change', diff: '-a\n+b\n' }] } },
			{ type: 'items.appended', seq: 17, sessionId: 's1', items: [{ kind: 'restore', id: 'r1', at: 9, scope: 'chat', to: 'u1', message: 'fix it', turns: 1, files: [{ shown: 'a.ts', action: 'change', done: true }] }] },
			{
				type: 'items.updated',
				seq: 14,
				sessionId: 's1',
				items: [{ kind: 'user', id: 'u2', text: '@a.ts#L2-3 @problems', at: 2, mentions: [{ kind: 'file', label: 'a.ts#L2-3', path: 'a.ts', range: { start: 2, end: 3 }, state: 'rejected', detail: 'no such file.' }, { kind: 'problems', label: 'problems', state: 'attached' }], hookContext: [{ event: 'SessionStart', text: 'hi' }] }],
			},
			{ type: 'mentions.answer', seq: 18, requestId: 'mention-3', candidates: [], offers: [{ insert: '@mcp:', label: '@mcp:', detail: 'a resource of an MCP server', partial: true }, { insert: '@mcp:"docs/a b.md"', label: 'mcp:docs/a b.md', detail: 'A B' }, { insert: '', label: 'No MCP resources', detail: 'none', inert: true }] },
			{ type: 'items.appended', seq: 19, sessionId: 's1', items: [{ kind: 'user', id: 'u3', text: 'see @mcp:docs/x', at: 3, mentions: [{ kind: 'resource', label: 'mcp:docs/x', state: 'attached' }] }] },
			{ type: 'commands.changed', seq: 20, commands: [{ name: '/mcp.everything.args-prompt', args: '<city> [state]', summary: 'Weather', arguments: [{ name: 'city', required: true }, { name: 'state', required: false }], completes: true }] },
			{ type: 'commands.completed', seq: 21, requestId: 'complete-1', values: ['Sales', 'Support'] },
			{ type: 'composer.restore', seq: 22, text: '/mcp.everything.args-prompt', reason: 'It needs <city>. Nothing was sent.', cause: 'command' },
			{ type: 'items.appended', seq: 23, sessionId: 's1', items: [{ kind: 'user', id: 'u4', text: 'What\'s weather in Paris?', at: 4, command: '/mcp.everything.args-prompt Paris' }] },
			{ type: 'mcp.servers', seq: 24, view: { trusted: true, servers: [{ name: 'docs', state: 'failed', words: 'failed: exited', origin: '.mcp.json', user: false, toolCount: 0, specTokens: 0, stderr: 'boom' }], problems: [] } },
			{ type: 'items.inserted', seq: 10, sessionId: 's1', before: 'u2', items: [{ kind: 'reminders', id: 'r2', at: 2, phase: 'turn-start', entries: [{ type: 'sessionDate', key: 'session.date', label: 'date', body: 'Today.', reason: 'a new day' }] }] },
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
			[{ type: 'items.inserted', seq: 1, sessionId: 's1', items: [{ kind: 'user', id: 'u3', text: 'x', at: 3 }] }, /before/],
			[{ type: 'notice', seq: -1, level: 'error', text: 'x' }, /seq/],
			[{ type: 'mentions.answer', seq: 1, requestId: 'm1', candidates: [], offers: [{ insert: '@mcp:x', detail: 'no label' }] }, /label/],
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
			{ type: 'stop' },
			{ type: 'approval', callId: 'c1', granted: true },
			{ type: 'approval', callId: 'c1', granted: false, note: 'use the other file' },
			{ type: 'model.select', model: 'm2' },
			{ type: 'mode.select', mode: 'auto-edit' },
			{ type: 'provider.choose' },
			{ type: 'provider.useDetected', id: 'ollama' },
			{ type: 'apiKey.store' },
			{ type: 'mention.open', path: 'src/a.ts', range: { start: 10, end: 40 } },
			{ type: 'mention.open', path: 'docs' },
			{ type: 'restore.preview', to: 'u1', scope: 'files' },
			{ type: 'restore.apply', previewId: 'p1', overwriteChanged: false },
			{ type: 'restore.cancel', previewId: 'p1' },
			{ type: 'commands.complete', requestId: 'complete-1', command: '/mcp.everything.completable-prompt', argument: 'name', value: 'K', context: { department: 'Support' } },
			{ type: 'mcp.restart', server: 'docs' },
			{ type: 'mcp.showOutput', server: 'docs' },
			{ type: 'mcp.setDisabled', server: 'docs', disabled: true },
		]) {
			assert.ok(parseViewMessage(message).ok, JSON.stringify(message));
		}
	});

	it('takes a chat deletion by id, and refuses one without an id or with an oversized one', () => {
		assert.ok(parseViewMessage({ type: 'session.delete', id: 's1' }).ok);
		assert.equal(parseViewMessage({ type: 'session.delete' }).ok, false);
		assert.equal(parseViewMessage({ type: 'session.delete', id: '' }).ok, false);
		assert.equal(parseViewMessage({ type: 'session.delete', id: 'x'.repeat(201) }).ok, false);
	});

	it('takes a Fork from here by the message it names, and a fork row', () => {
		assert.ok(parseViewMessage({ type: 'fork.create', from: 'u1' }).ok);
		assert.ok(parseViewMessage({ type: 'fork.create', from: 'u1', worktree: true }).ok);
		assert.equal(parseViewMessage({ type: 'fork.create', from: '' }).ok, false);
		assert.equal(parseViewMessage({ type: 'fork.create' }).ok, false);
		assert.equal(parseViewMessage({ type: 'fork.create', from: 'u1', worktree: 'yes' }).ok, false);
		const item = { kind: 'fork', id: 'f1', at: 1, source: { id: 's0', title: 'Parent' }, worktree: { folder: '/w', branch: 'b', base: 'abc' } };
		assert.ok(parseHostMessage({ type: 'items.appended', seq: 1, sessionId: 's1', items: [item] }).ok);
		assert.equal(parseHostMessage({ type: 'items.appended', seq: 1, sessionId: 's1', items: [{ ...item, source: { id: '', title: 'x' } }] }).ok, false);
		assert.ok(parseHostMessage({ type: 'sessions.listed', seq: 1, sessions: [{ id: 's1', title: 'Fork', at: 1, current: true, forkOf: { id: 's0', title: 'Parent' } }] }).ok);
	});

	it('rejects a setup action without what it names', () => {
		assert.equal(parseViewMessage({ type: 'provider.useDetected' }).ok, false);
		assert.equal(parseViewMessage({ type: 'provider.useDetected', id: '' }).ok, false);
		// The view names a server the host found; it can never hand the host a URL to write.
		const parsed = parseViewMessage({ type: 'provider.useDetected', id: 'ollama', baseUrl: 'http://evil.example' });
		assert.ok(parsed.ok);
		assert.equal('baseUrl' in parsed.message, false);
	});

	it('rejects an unknown permission mode and an approval without a call', () => {
		assert.equal(parseViewMessage({ type: 'mode.select', mode: 'yolo' }).ok, false);
		assert.equal(parseViewMessage({ type: 'approval', callId: '', granted: true }).ok, false);
		assert.equal(parseViewMessage({ type: 'approval', callId: 'c1', granted: 'yes' }).ok, false);
	});

	it('rejects empty and oversized submissions', () => {
		assert.equal(parseViewMessage({ type: 'submit', text: '' }).ok, false);
		assert.equal(parseViewMessage({ type: 'submit', text: 'x'.repeat(MAX_MESSAGE_CHARS + 1) }).ok, false);
		assert.equal(parseViewMessage({ type: 'submit', text: 42 }).ok, false);
		assert.equal(parseViewMessage({ type: 'submit', text: '', images: [{ name: 'shot.png', data: 'iVBORw0KGgo=' }] }).ok, true, 'images alone are a message');
		assert.equal(parseViewMessage({ type: 'submit', text: 'x', images: [] }).ok, false);
	});
});
