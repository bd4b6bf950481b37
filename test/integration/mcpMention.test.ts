// `@mcp:<server>/<uri>` in the real workbench, through the scripted model server (the Anthropic API):
// the reference server (server-everything, a pinned dev dependency) configured in the user settings
// over stdio. A message naming one of its static documents carries exactly one mention.mcp-resource
// block with the document's contents; typing `@mcp:` in the composer lists its resources and the
// chosen one is sent as typed, its chip settled; a resource or server that does not exist is said
// in its block and the message still goes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { waitForEvent } from '../../src/base/event';
import type { TranscriptItem } from '../../src/protocol/messages';
import { parseReminders } from '../../src/reminders/envelope';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, driver, hasDriver, lastUserText, useScriptedServer } from './support';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const ARCHITECTURE = 'demo://resource/static/document/architecture.md';

type Request = ModelServer['requests'][number];

function messagesRequests(server: ModelServer): Request[] {
	return server.requests.filter((request) => request.path === '/v1/messages');
}

function mentionBlocks(request: Request | undefined): string[] {
	return parseReminders(lastUserText(request)).flatMap((block) => (block.key === 'mention.mcp-resource' ? [block.body] : []));
}

describe('@mcp: mentions in the real workbench', function () {
	this.timeout(180_000);
	let server: ModelServer;
	let restore: () => Promise<void>;
	const mcp = () => vscode.workspace.getConfiguration('aside.mcp');
	const document = readFileSync(join(EVERYTHING, '..', 'docs', 'architecture.md'), 'utf8');
	const lines = document.split('\n').filter((line) => line.trim() !== '');

	before(async () => {
		server = await startModelServer({ models: ['claude-scripted'] });
		restore = await useScriptedServer(server, { provider: 'anthropic', model: 'claude-scripted', mode: 'ask', apiKey: 'sk-test-mcp-mention' });
		await mcp().update('servers', { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }, vscode.ConfigurationTarget.Global);
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await mcp().update('servers', undefined, vscode.ConfigurationTarget.Global);
		await restore();
		await server.close();
	});

	it('a message naming a resource carries exactly one mention.mcp-resource block with its contents, after the message as typed', async () => {
		const { api } = await activeAside();
		server.script({ text: 'It describes the architecture.' });
		const text = `Summarise @mcp:everything/${ARCHITECTURE} for me.`;
		assert.equal((await api.sendMessage(text)).outcome, 'done');
		const request = messagesRequests(server).at(-1);
		const blocks = mentionBlocks(request);
		assert.equal(blocks.length, 1, 'one mention.mcp-resource block');
		assert.match(blocks[0] ?? '', new RegExp(`^The user mentioned @mcp:everything/demo://resource/static/document/architecture\\.md: the resource ${ARCHITECTURE.replace(/[./]/gu, '\\$&')} of the MCP server everything \\(text/markdown, lines 1–\\d+ of \\d+\\)\\. Its contents, as of this message:`, 'u'));
		for (const line of lines) {
			assert.ok((blocks[0] ?? '').includes(line), `the contents, whole: ${line}`);
		}
		const raw = JSON.stringify(request?.body);
		assert.ok(raw.includes(JSON.stringify(lines[0]).slice(1, -1)), 'in the request body the model server received');
		const messages = (request?.body as { messages: { role: string; content: { type: string; text?: string }[] }[] }).messages;
		assert.ok(messages.some((message) => message.role === 'user' && message.content.some((block) => block.text === text)), 'the message itself as typed');
	});

	it('a resource or server that does not exist is said in its block; the message still goes, and a real one beside it is attached', async () => {
		const { api } = await activeAside();
		server.script({ text: 'Noted.' });
		const sent = await api.sendMessage('Compare @mcp:everything/demo://resource/static/document/nope.md with @mcp:nobody/x://y and @mcp:everything/demo://resource/static/document/startup.md');
		assert.equal(sent.outcome, 'done');
		const blocks = mentionBlocks(messagesRequests(server).at(-1));
		assert.equal(blocks.length, 3);
		assert.match(blocks[0] ?? '', /^The user mentioned @mcp:everything\/demo:\/\/resource\/static\/document\/nope\.md, which is not attached: the MCP server "everything" could not read it: /);
		assert.equal(blocks[1], 'The user mentioned @mcp:nobody/x://y, which is not attached: there is no MCP server named "nobody" (configured: everything).');
		assert.match(blocks[2] ?? '', /Its contents, as of this message:/);
	});

	it('typing @mcp: in the composer lists the server\'s resources; the chosen one is sent as typed and its chip says it was attached', async function () {
		if (!hasDriver) {
			this.skip();
		}
		const { hooks } = await activeAside();
		await vscode.commands.executeCommand('aside.newChat');
		await vscode.commands.executeCommand('aside.focusChat');
		server.script({ text: 'Picked.' });
		const ended = waitForEvent(hooks.onDidAppend, (items: readonly TranscriptItem[]) => items.some((item) => item.kind === 'turn-end'), 90_000, 'the end of the turn');
		const label = `mcp:everything/${ARCHITECTURE}`;
		const picked = await driver<{ options: string[]; value: string }>('mentionInChat', { typed: 'Explain @mcp:everything/arch', pick: label });
		await ended;
		assert.ok(picked.options.includes(label), picked.options.join(', '));
		assert.equal(picked.value, `Explain @${label} `, 'the chosen resource is inserted as its mention');
		assert.equal(mentionBlocks(messagesRequests(server).at(-1)).length, 1);
		const row = await driver<{ text: string; chips: { label: string; state: string; name: string; tag: string }[] }>('readUserRow', { waitForState: 'attached' });
		assert.equal(row.text, `Explain @${label} `);
		assert.deepEqual(row.chips, [{ label, state: 'attached', name: `Resource ${label}: attached`, tag: 'span' }]);
		await vscode.commands.executeCommand('aside.newChat');
	});
});
