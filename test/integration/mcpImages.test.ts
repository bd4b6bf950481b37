// Images in tool results in the real workbench, through the scripted model server (the Anthropic
// API): server-everything's get-tiny-image tool over stdio, and Read of a PNG in the fixture
// workspace. The next request carries each image as an image block inside the tool_result, with the
// text that names it before it.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { pngImage } from '../../src/testing/imageFixtures';
import { type ModelServer } from '../harness/modelServer.mjs';
import { activeAside, useMcpChat, workspaceFile } from './support';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

type Block = { type: string; tool_use_id?: string; text?: string; content?: string | Block[]; source?: { type: string; media_type: string; data: string } };

function messagesRequests(server: ModelServer): ModelServer['requests'] {
	return server.requests.filter((request) => request.path === '/v1/messages');
}

/** The tool_result block of `callId` in a request's last user message. */
function resultOf(request: ModelServer['requests'][number] | undefined, callId: string): Block {
	const body = request?.body as { messages: { role: string; content: Block[] }[] };
	const last = body.messages.at(-1);
	assert.equal(last?.role, 'user');
	const block = last.content.find((part) => part.type === 'tool_result' && part.tool_use_id === callId);
	assert.ok(block, `the result of ${callId}`);
	return block;
}

describe('images in tool results in the real workbench', function () {
	this.timeout(120_000);
	let server: ModelServer;
	let close: () => Promise<void>;
	let approving: ReturnType<typeof setInterval> | undefined;
	const shot = () => workspaceFile('shot.png').fsPath;

	before(async () => {
		writeFileSync(shot(), pngImage(5, 3));
		({ server, close } = await useMcpChat({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }, 'sk-test-mcp-images'));
		const { hooks } = await activeAside();
		approving = setInterval(() => {
			const pending = hooks.pendingApproval();
			if (pending !== undefined) {
				hooks.approve(pending, true);
			}
		}, 50);
	});

	after(async () => {
		clearInterval(approving);
		rmSync(shot(), { force: true });
		await close();
	});

	it('server-everything\'s tiny image reaches the model as an image block in the tool_result, named in its text', async () => {
		const { api } = await activeAside();
		// Servers start with a chat's first message; that request waits for them.
		server.script({ toolCalls: [{ id: 'toolu_image', name: 'mcp__everything__get-tiny-image', input: {} }] }, { text: 'A logo.' });
		const before = messagesRequests(server).length;
		const result = await api.sendMessage('Show me the tiny image.');
		assert.equal(result.outcome, 'done', result.error);
		const block = resultOf(messagesRequests(server).slice(before)[1], 'toolu_image');
		assert.ok(Array.isArray(block.content), `a content array: ${JSON.stringify(block.content).slice(0, 200)}`);
		const [text, image, ...rest] = block.content;
		assert.equal(text?.type, 'text');
		assert.match(text.text ?? '', /Here's the image you requested:\n\n\[image: image\/png, [\d.,]+ (bytes|KB), 20×20 px — attached\]/);
		assert.deepEqual({ ...image, source: { ...image?.source, data: undefined } }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: undefined } });
		assert.match(image?.source?.data ?? '', /^iVBORw0KGgo/, 'the server\'s PNG, as it sent it');
		assert.deepEqual(rest, []);
	});

	it('Read of a PNG in the workspace sends it as an image block, byte for byte', async () => {
		const { api } = await activeAside();
		server.script({ toolCalls: [{ id: 'toolu_read_png', name: 'Read', input: { path: 'shot.png' } }] }, { text: 'A small red picture.' });
		const before = messagesRequests(server).length;
		const result = await api.sendMessage('What is in shot.png?');
		assert.equal(result.outcome, 'done', result.error);
		const block = resultOf(messagesRequests(server).slice(before)[1], 'toolu_read_png');
		assert.ok(Array.isArray(block.content));
		assert.match(block.content[0]?.text ?? '', /^The image shot\.png \(image\/png, \d+ bytes, 5×3 px\) is attached\.$/);
		const source = block.content[1]?.source;
		assert.equal(source?.media_type, 'image/png');
		assert.equal(Buffer.from(source.data, 'base64').equals(pngImage(5, 3)), true);
	});
});
