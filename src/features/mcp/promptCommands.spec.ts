// MCP prompts as slash commands, through the view connection the chat view uses, over the window's
// servers running real ones (server-everything, and the small paged server of
// src/testing/mcpPromptServer.ts): the names and what is left out, the composer told of commands
// as they come, a command run (its arguments, the server's prompt, the message the person sends),
// what refuses it, and the completion of an argument.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { waitForEvent } from '../../base/event';
import { launchOf } from '../../mcp/launch';
import { McpPrompts } from '../../mcp/prompts';
import { sdkConnector } from '../../mcp/sdkConnector';
import { readUserServers } from '../../mcp/serverConfig';
import { McpServers } from '../../mcp/servers';
import type { HostMessage, SlashCommandView } from '../../protocol/messages';
import { PROTOCOL_VERSION } from '../../protocol/messages';
import { everythingServer, LONG_RESOURCE_CHARS, pagedPromptServer } from '../../testing/mcpPromptServer';
import { RecordingLogger } from '../../testing/recordingLogger';
import { testConnection } from '../../testing/viewConnection';
import { commandWord, type PromptCatalog, promptCommandName, promptCommands } from './promptCommands';
import { PROMPT_RESOURCE_CHARS } from './promptMessage';
import { McpPromptsPart } from './promptsPart';

const opened: { dispose(): void }[] = [];
after(() => {
	for (const one of opened.reverse()) {
		one.dispose();
	}
});

/** The chat view's host side over the window's servers configured as `setting`, its composer connected. */
async function chatWith(setting: Record<string, unknown>) {
	const servers = new McpServers({
		source: { read: () => readUserServers(setting), onDidChange: () => ({ dispose: () => undefined }) },
		connector: sdkConnector,
		launch: (config) => launchOf(config, { env: process.env, workspaceFolder: process.cwd(), readFile: () => Promise.reject(new Error('no env files here')) }),
		startupTimeoutMs: () => 20_000,
		requestTimeoutMs: () => 20_000,
		approve: () => Promise.resolve(true),
	});
	const prompts = new McpPrompts(servers, { requestTimeoutMs: () => 20_000 });
	const part = new McpPromptsPart(prompts, new RecordingLogger());
	const chat = testConnection({ features: () => [part] });
	opened.push(servers, prompts, part, chat.connection);
	chat.settings.current = { ...chat.settings.current, maxMessageLength: 100_000 };
	chat.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
	const expected = Object.keys(setting).length;
	const listed = waitForEvent(prompts.onDidChange, () => prompts.servers().length === expected, 20_000, 'the prompts');
	await servers.ready(new AbortController().signal);
	await listed;
	/** The last list of commands the composer was told. */
	const commands = (): SlashCommandView[] => chat.posted.findLast((message) => message.type === 'commands.changed')?.commands ?? [];
	/** Sends `text` from the composer and waits for what it led to: a message the agent got, or a message back in the composer. */
	const send = async (text: string): Promise<{ readonly submitted?: string; readonly restored?: Extract<HostMessage, { type: 'composer.restore' }> }> => {
		const calls = chat.agent.calls.length;
		const posted = chat.posted.length;
		chat.connection.receive({ type: 'submit', text });
		for (let waited = 0; waited < 20_000; waited += 20) {
			const submitted = chat.agent.calls.slice(calls).find((call) => call.startsWith('submit '));
			const restored = chat.posted.slice(posted).find((message) => message.type === 'composer.restore');
			if (submitted !== undefined || restored !== undefined) {
				return { ...(submitted === undefined ? {} : { submitted }), ...(restored === undefined ? {} : { restored }) };
			}
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		assert.fail(`${text} led to nothing`);
	};
	return { ...chat, servers, prompts, commands, send };
}

describe('MCP prompts as slash commands: names', () => {
	it('make each name one command word: lowercase, accents dropped, - for every run of other characters', () => {
		assert.equal(commandWord('args-prompt'), 'args-prompt');
		assert.equal(commandWord('My Server'), 'my-server');
		assert.equal(commandWord('Café_Ünïcode!!'), 'cafe-unicode');
		assert.equal(commandWord('--a__b..c--'), 'a-b-c');
		assert.equal(commandWord('日本語'), '');
		assert.equal(promptCommandName('GitHub', 'Review PR'), '/mcp.github.review-pr');
		assert.equal(promptCommandName('日本', 'review'), undefined);
		assert.equal(commandWord('x'.repeat(100)).length, 60);
	});

	it('leave out every prompt of a name that comes out twice, and say which; and one with no name left', () => {
		const prompt = (name: string) => ({ name, arguments: [] });
		const catalog: PromptCatalog = {
			servers: () => [
				{ server: 'docs', prompts: [prompt('Summarise'), prompt('summarise!'), prompt('ask')], completions: false },
				{ server: 'Docs', prompts: [prompt('draft')], completions: false },
				{ server: 'tools', prompts: [prompt('日本')], completions: false },
			],
			onDidChange: () => ({ dispose: () => undefined }),
			get: () => Promise.reject(new Error('not asked')),
			complete: () => Promise.reject(new Error('not asked')),
		};
		const { commands, problems } = promptCommands(catalog, new AbortController().signal);
		assert.deepEqual(commands.map((command) => command.name), ['/mcp.docs.ask', '/mcp.docs.draft']);
		assert.deepEqual(problems, [
			'The prompt "日本" of the MCP server "tools" is not a slash command: no letter or digit of its names is left for one.',
			'The MCP prompts "Summarise" of "docs", "summarise!" of "docs" would all be /mcp.docs.summarise: none of them is a slash command. Rename one (or its server) to use them.',
		]);
	});
});

describe('MCP prompts as slash commands, in the chat', () => {
	it('are offered to the composer once the server is connected, with the prompt\'s description and its arguments as the hint', async () => {
		const { commands } = await chatWith({ everything: everythingServer() });
		const byName = new Map(commands().map((command) => [command.name, command]));
		assert.deepEqual(byName.get('/mcp.everything.args-prompt'), {
			name: '/mcp.everything.args-prompt',
			args: '<city> [state]',
			summary: 'A prompt with two arguments, one required and one optional (prompt of the MCP server everything)',
			arguments: [{ name: 'city', required: true }, { name: 'state', required: false }],
			completes: true,
		});
		assert.deepEqual(byName.get('/mcp.everything.simple-prompt'), { name: '/mcp.everything.simple-prompt', args: '', summary: 'A prompt with no arguments (prompt of the MCP server everything)' });
		assert.ok(byName.has('/mcp.everything.completable-prompt'));
		assert.ok(byName.has('/mcp.everything.resource-prompt'));
	});

	it('send the prompt\'s text as the person\'s message, labelled with the command; a missing argument or the server\'s error sends nothing', async () => {
		const { send, posted, agent } = await chatWith({ everything: everythingServer() });
		const typed = '/mcp.everything.args-prompt "New York" state=NY';
		assert.equal((await send(typed)).submitted, `submit What's weather in New York, NY? [from ${typed}]`);
		const row = posted.flatMap((message) => (message.type === 'items.appended' ? message.items : [])).findLast((item) => item.kind === 'user');
		assert.deepEqual(row?.kind === 'user' ? [row.text, row.command] : [], ['What\'s weather in New York, NY?', typed], 'the user row shows the command above the text');

		const missing = await send('/mcp.everything.args-prompt state=NY');
		assert.equal(missing.submitted, undefined);
		assert.deepEqual(missing.restored, {
			type: 'composer.restore',
			seq: missing.restored?.seq,
			text: '/mcp.everything.args-prompt state=NY',
			reason: '/mcp.everything.args-prompt needs <city>: /mcp.everything.args-prompt <city> [state] (quote a value with spaces). Nothing was sent.',
			cause: 'command',
		});
		const failed = await send('/mcp.everything.resource-prompt Nope 1');
		assert.match(failed.restored?.reason ?? '', /^The MCP server "everything" did not give its prompt resource-prompt: .*Invalid resourceType: Nope\. Must be Text or Blob\. Nothing was sent\.$/);
		const extra = await send('/mcp.everything.simple-prompt please');
		assert.equal(extra.restored?.reason, '/mcp.everything.simple-prompt takes no arguments. Nothing was sent.');

		const resource = await send('/mcp.everything.resource-prompt Text 1');
		assert.match(resource.submitted ?? '', /^submit This prompt includes the Text resource with id: 1\. Please analyze the following resource:\n\nResource demo:\/\/resource\/dynamic\/text\/1 \(text\/plain\):\nResource 1: This is a plaintext resource/);
		const blob = await send('/mcp.everything.resource-prompt Blob 2');
		assert.match(blob.submitted ?? '', /Resource demo:\/\/resource\/dynamic\/blob\/2 \(text\/plain\):\nResource 2: This is a base64 blob/, 'a binary resource of a text type, decoded');

		agent.change({ status: { state: 'running', detail: 'Working.' } });
		const busy = await send('/mcp.everything.simple-prompt');
		assert.equal(busy.restored?.reason, '/mcp.everything.simple-prompt sends a message of its own: wait for the agent to finish, or stop it, and send it again. Nothing was sent.');
		assert.equal(agent.calls.filter((call) => call.includes('[from /mcp.everything.simple-prompt')).length, 0, 'never steering: it would become a reminder');
	});

	it('complete an argument with the values the server gives for what was typed before it; a newer question cancels the older', async () => {
		const { connection, posted } = await chatWith({ everything: everythingServer() });
		const answer = async (requestId: string) => {
			for (let waited = 0; waited < 20_000; waited += 20) {
				const found = posted.find((message) => message.type === 'commands.completed' && message.requestId === requestId);
				if (found?.type === 'commands.completed') {
					return found.values;
				}
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
			return assert.fail(`no answer to ${requestId}`);
		};
		const command = '/mcp.everything.completable-prompt';
		connection.receive({ type: 'commands.complete', requestId: 'c1', command, argument: 'department', value: 'S', context: {} });
		assert.deepEqual(await answer('c1'), ['Sales', 'Support']);
		connection.receive({ type: 'commands.complete', requestId: 'c2', command, argument: 'name', value: '', context: { department: 'Support' } });
		connection.receive({ type: 'commands.complete', requestId: 'c3', command, argument: 'name', value: 'K', context: { department: 'Support' } });
		assert.deepEqual(await answer('c3'), ['Kim']);
		assert.equal(posted.some((message) => message.type === 'commands.completed' && message.requestId === 'c2'), false, 'the older question is not answered');
		connection.receive({ type: 'commands.complete', requestId: 'c4', command: '/mcp.everything.simple-prompt', argument: 'x', value: '', context: {} });
		assert.deepEqual(await answer('c4'), [], 'a command with no such argument completes nothing');
	});

	it('build the message from every kind of content: the assistant\'s words quoted, a resource bounded, images and binaries named', async () => {
		const { send, settings } = await chatWith({ paged: pagedPromptServer() });
		const { submitted } = await send('/mcp.paged.review');
		const text = submitted?.replace(/^submit /u, '').replace(/ \[from \/mcp\.paged\.review\]$/u, '') ?? '';
		const parts = text.split('\n\n');
		assert.deepEqual(parts.slice(0, 3), ['Review the parser.', 'The prompt gives the assistant these words:\n> Which part first?\n>\n> The tokenizer.', '[An image from the prompt (image/png, 16 bytes): not included, Aside sends a prompt\'s text only.]']);
		assert.ok(parts[3]?.startsWith(`Resource file:///notes.txt (text/plain):\n${'n'.repeat(PROMPT_RESOURCE_CHARS)}\n[… ${(LONG_RESOURCE_CHARS - PROMPT_RESOURCE_CHARS).toLocaleString('en-US')} more characters of this resource were left out.]`));
		assert.deepEqual(parts.slice(4), ['[The resource file:///data.bin (application/octet-stream): 8 bytes of binary content, not included.]', '[A link to the resource README (file:///README.md): the readme]']);

		settings.current = { ...settings.current, maxMessageLength: 1000 };
		const { restored } = await send('/mcp.paged.review');
		assert.match(restored?.reason ?? '', /^\/mcp\.paged\.review makes a message of 32,\d{3} characters; the limit is 1,000 \(setting aside\.chat\.maxMessageLength\)\. Nothing was sent\.$/);
	});

	it('two servers whose names come out the same give no command of either, and the chat says so once', async () => {
		const { commands, posted } = await chatWith({ everything: everythingServer(), EVERYTHING: everythingServer() });
		assert.deepEqual(commands().filter((command) => command.name.startsWith('/mcp.')), []);
		const notices = posted.flatMap((message) => (message.type === 'notice' ? [message.text] : []));
		assert.ok(notices.includes('The MCP prompts "args-prompt" of "everything", "args-prompt" of "EVERYTHING" would all be /mcp.everything.args-prompt: none of them is a slash command. Rename one (or its server) to use them.'), notices.join('\n'));
		assert.equal(notices.filter((notice) => notice.includes('/mcp.everything.args-prompt')).length, 1);
	});
});
