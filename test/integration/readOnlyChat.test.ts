// A chat another window is writing (two windows on one workspace share its storage): opened from
// the chat list it is read-only and says so; a message continues it in a copy. The other window
// is played by a transcript and a lock file naming a live process (this host's parent), as a
// second extension host would leave them. Runs before session.test.ts (file order), which
// leaves its chat current for the reload phase.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startModelServer } from '../harness/modelServer.mjs';
import { activeAside, type ChatReading, driver, hasDriver, until, useScriptedServer } from './support';

interface OpenAIMessage {
	readonly role: string;
	readonly content?: string | null;
}

describe('a chat another window is writing', function () {
	before(function () {
		if (!hasDriver) {
			// The chat list is in the webview, which only the code-server tier can drive.
			this.skip();
		}
	});

	it('opens read-only from the chat list, says so, and a message continues it in a copy', async () => {
		const { api, hooks } = await activeAside();
		const id = `other-window-${Date.now()}`;
		const title = `Chat of the other window ${Date.now()}`;
		const transcript = join(hooks.sessionsDir, `${id}.jsonl`);
		const lock = join(hooks.sessionsDir, `${id}.lock`);
		const at = Date.now() - 60_000;
		const lines = [
			{ kind: 'session', v: 1, id, createdAt: at },
			{ kind: 'user', id: 'u1', turnId: 't1', at, text: 'Question from the other window' },
			{ kind: 'meta', at, title },
			{ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'r1', at: at + 1, text: 'Answer in the other window.', toolCalls: [], stop: 'end' },
			{ kind: 'turn-end', turnId: 't1', at: at + 2, outcome: 'done' },
		];
		writeFileSync(transcript, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
		writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: hostname(), token: 'the-other-window', since: at }));
		const written = readFileSync(transcript);
		const server = await startModelServer({ models: ['scripted-model'] });
		const restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model' });
		try {
			await vscode.commands.executeCommand('aside.focusChat');
			await driver('openFromChatList', { title });
			await until(() => hooks.currentSessionId(), (current) => current === id, 'the chat opened from the list');
			const shown = await driver<ChatReading>('readChat', { waitForText: 'Question from the other window' });
			assert.equal(shown.title, title);
			assert.match(shown.access ?? '', /^This chat is open in another VS Code window, so it is read-only here\. Sending a message continues it in a copy/);

			server.script({ text: 'Continuing in the copy.' });
			const result = await api.sendMessage('Go on here.');
			assert.equal(result.outcome, 'done', result.error);
			assert.notEqual(result.sessionId, id, 'the message went into a new session');
			assert.deepEqual(readFileSync(transcript), written, 'the other window\'s transcript is untouched');
			assert.equal((JSON.parse(readFileSync(lock, 'utf8')) as { token: string }).token, 'the-other-window', 'and its lock is still its own');

			const request = server.requests.find((received) => received.path.endsWith('/chat/completions'));
			const messages = ((request?.body ?? {}) as { messages?: OpenAIMessage[] }).messages ?? [];
			assert.deepEqual(messages.slice(1, 4).map((message) => [message.role, message.content]), [
				['user', 'Question from the other window'],
				['assistant', 'Answer in the other window.'],
				['user', 'Go on here.'],
			], 'the copy carries the history shown');
			assert.match(messages[4]?.content ?? '', /<system-reminder key="session\.resume">\nThis session is a copy of a session that is open in another VS Code window; the copy holds its history up to /);

			const copy = await driver<ChatReading>('readChat', { waitForText: 'Go on here.' });
			assert.equal(copy.title, `${title} (copy)`);
			assert.match(copy.access ?? '', /^This chat is a copy of “Chat of the other window \d+”, which is open in another VS Code window/);
			assert.deepEqual(copy.userTexts, ['Question from the other window', 'Go on here.']);
			const copied = readFileSync(join(hooks.sessionsDir, `${result.sessionId}.jsonl`), 'utf8');
			assert.match(copied, /"text":"Question from the other window"[\s\S]*"text":"Go on here\."/);
		} finally {
			await restore();
			await server.close();
			rmSync(lock, { force: true });
			await vscode.commands.executeCommand('aside.newChat');
		}
	});
});
