// An image attached in the real chat webview: a workspace PNG taken from the composer's `@` list
// (an image file becomes an attachment, not a mention), read and checked by the host, sent with the
// message; the request the scripted model server (OpenAI-compatible) received carries it as an
// image_url data URL after the text, byte for byte, and the transcript keeps it out of line.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { waitForEvent } from '../../src/base/event';
import type { TranscriptItem } from '../../src/protocol/messages';
import { pngImage } from '../../src/testing/imageFixtures';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, driver, hasDriver, useScriptedServer, workspaceFile } from './support';

describe('an image attached in the composer', function () {
	this.timeout(120_000);
	let server: ModelServer;
	let restore: () => Promise<void>;
	const shot = () => workspaceFile('diagram.png').fsPath;

	before(async () => {
		writeFileSync(shot(), pngImage(7, 5));
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'ask' });
	});

	after(async () => {
		rmSync(shot(), { force: true });
		await restore();
		await server.close();
	});

	it('@ an image file: sent as an image_url part after the text, byte for byte, and kept beside the transcript', async function () {
		if (!hasDriver) {
			this.skip();
		}
		const { hooks } = await activeAside();
		await vscode.commands.executeCommand('aside.newChat');
		await vscode.commands.executeCommand('aside.focusChat');
		server.script({ text: 'Five rows of seven red pixels.' });
		const ended = waitForEvent(hooks.onDidAppend, (items: readonly TranscriptItem[]) => items.some((item) => item.kind === 'turn-end'), 60_000, 'the end of the turn');
		const sent = await driver<{ value: string }>('attachImageInChat', { typed: 'What is in this? @diagr', pick: 'diagram.png' });
		await ended;
		assert.equal(sent.value, 'What is in this? ', 'the @ word went: the file is an attachment, not a mention');
		const body = chatRequests(server).at(-1)?.body as { messages: { role: string; content: unknown }[] };
		const user = body.messages.filter((message) => message.role === 'user').at(0);
		assert.deepEqual(user?.content, [
			{ type: 'text', text: 'What is in this? ' },
			{ type: 'image_url', image_url: { url: `data:image/png;base64,${pngImage(7, 5).toString('base64')}` } },
		]);
		const files = join(hooks.sessionsDir, `${hooks.currentSessionId()}.files`);
		const stored = readdirSync(files).filter((name) => name.endsWith('.png'));
		assert.equal(stored.length, 1);
		assert.equal(readFileSync(join(files, stored[0] ?? '')).equals(pngImage(7, 5)), true, 'the bytes beside the transcript');
		const row = hooks.currentSessionItems().find((item) => item.kind === 'user');
		assert.equal(row?.kind === 'user' ? row.images?.length : undefined, 1, 'the user row has its thumbnail');
		await vscode.commands.executeCommand('aside.newChat');
	});
});
