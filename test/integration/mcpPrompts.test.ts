// MCP prompts as slash commands in the real workbench, through the scripted model server (the
// Anthropic API): the reference server (server-everything, a pinned dev dependency) configured in
// the user settings over stdio. Once it is connected its prompts are in the composer's `/` hint with
// their arguments, the server completes an argument as it is typed, a missing argument sends
// nothing and says why, and `/mcp.everything.args-prompt "New York" NY` sends the prompt's text —
// not the command — as the person's message in the request, the command shown above it.
import assert from 'node:assert/strict';
import { type ModelServer } from '../harness/modelServer.mjs';
import { activeAside, driver, hasDriver, lastUserText, until, useMcpChat } from './support';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

interface SlashReading {
	readonly hint: string | null;
	readonly options: readonly string[];
	readonly value: string;
}

describe('MCP prompts as slash commands in the real workbench', function () {
	this.timeout(180_000);
	let server: ModelServer;
	let close: () => Promise<void>;
	const requests = () => server.requests.filter((request) => request.path === '/v1/messages');

	before(async () => {
		({ server, close } = await useMcpChat({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }, 'sk-test-mcp-prompts'));
	});

	after(async () => {
		await close();
	});

	it('a connected server\'s prompt is a command with its arguments, completed by the server, and sends the prompt\'s text as the person\'s message', async function () {
		if (!hasDriver) {
			this.skip();
		}
		const { api, hooks } = await activeAside();
		// The servers start with a chat's first message.
		server.script({ text: 'Ready.' });
		assert.equal((await api.sendMessage('Start the servers.')).outcome, 'done');
		await until(() => hooks.mcp?.prompts() ?? [], (names) => names.includes('everything/args-prompt'), 'the server\'s prompts', 60_000);

		const hinted = await driver<SlashReading>('slashInChat', { typed: '/mcp.everything.args', waitForHint: '/mcp.everything.args-prompt <city> [state]' });
		assert.match(hinted.hint ?? '', /A prompt with two arguments, one required and one optional \(prompt of the MCP server everything\)/);
		const completed = await driver<SlashReading>('slashInChat', { typed: '/mcp.everything.completable-prompt Su', waitForOption: 'Support', then: 'Tab' });
		assert.deepEqual(completed.options, ['Support'], 'the server\'s values for what was typed');
		assert.equal(completed.value, '/mcp.everything.completable-prompt Support ');

		const before = requests().length;
		await driver('typeInChat', { text: '/mcp.everything.args-prompt' });
		const refused = await driver<{ value: string; notices: string[] }>('readComposer', { waitForValue: '/mcp.everything.args-prompt' });
		assert.ok(refused.notices.some((notice) => notice.includes('/mcp.everything.args-prompt needs <city>')), refused.notices.join('\n'));
		assert.equal(requests().length, before, 'nothing was sent');

		server.script({ text: 'It is sunny in New York.' });
		const typed = '/mcp.everything.args-prompt "New York" NY';
		await driver('typeInChat', { text: typed });
		await until(() => requests().length, (count) => count > before, 'the request the prompt made', 60_000);
		const sent = lastUserText(requests().at(-1));
		assert.match(sent, /What's weather in New York, NY\?/);
		assert.doesNotMatch(sent, /\/mcp\.everything|<system-reminder key="[^"]*prompt/, 'the prompt\'s text, not the command, and no reminder of it');
		const row = await driver<{ text: string; command: string | null }>('readUserRow');
		assert.equal(row.command, typed);
		assert.equal(row.text, 'What\'s weather in New York, NY?');
		await until(() => hooks.agentBusy(), (busy) => !busy, 'the turn\'s end', 60_000);
		const item = hooks.currentSessionItems().findLast((candidate) => candidate.kind === 'user');
		assert.equal(item?.kind === 'user' ? item.command : undefined, typed, 'the transcript keeps the command with the message');
	});
});
