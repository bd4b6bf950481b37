// MCP servers in the real workbench, through the scripted model server (the Anthropic API): the
// reference server (server-everything, a pinned dev dependency) configured in the user settings
// over stdio. Its tool is offered as mcp__everything__echo, asks on the approval card in ask mode
// (a click in the chat where the browser driver runs), and its result reaches the model; the first
// request carries mcp.servers and mcp.instructions and no mcp.tools-changed; a killed server comes
// back, and the next request says so once (mcp.server-state) with the tool working again.
// The chat's server list (clicked in the chat) restarts the server, and Disable / Enable write its
// user settings entry and stop and start it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { parseReminders } from '../../src/reminders/envelope';
import { type ModelServer } from '../harness/modelServer.mjs';
import { activeAside, driver, hasDriver, lastUserText, transcriptLines, until, useMcpChat, workspaceFile } from './support';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

type Request = ModelServer['requests'][number];

function messagesRequests(server: ModelServer): Request[] {
	return server.requests.filter((request) => request.path === '/v1/messages');
}

function keysOf(request: Request | undefined): string[] {
	return parseReminders(lastUserText(request)).flatMap((block) => (block.key === null ? [] : [block.key]));
}

function toolNames(request: Request | undefined): string[] {
	return ((request?.body as { tools?: { name: string }[] } | undefined)?.tools ?? []).map((tool) => tool.name);
}

describe('MCP servers in the real workbench', function () {
	this.timeout(120_000);
	let server: ModelServer;
	let close: () => Promise<void>;
	const mcp = () => vscode.workspace.getConfiguration('aside.mcp');

	before(async () => {
		({ server, close } = await useMcpChat({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { ASIDE_MCP_TEST: 'set', ASIDE_TEST_HOOKS: null } } }, 'sk-test-mcp'));
	});

	after(async () => {
		rmSync(workspaceFile('.mcp.json').fsPath, { force: true });
		(await activeAside()).hooks.mcp?.answerApprovals(undefined);
		await close();
	});

	it('offers the server\'s tools to the chat, asks on the card, and the result and the servers reach the model', async () => {
		const { api, hooks } = await activeAside();
		assert.ok(hooks.mcp);
		// Earlier files' chats may have started the servers already (then this one starts at once); the
		// first request waits for it either way. That nothing starts before a chat sends is src/mcp/servers.spec.ts's.
		server.script({ toolCalls: [{ id: 'toolu_echo', name: 'mcp__everything__echo', input: { message: 'hello over MCP' } }] }, { text: 'It echoed.' });
		const before = messagesRequests(server).length;
		const sent = api.sendMessage('Echo something through the MCP server.');
		await until(() => hooks.pendingApproval(), (id) => id === 'toolu_echo', 'the approval card of the MCP call', 60_000);
		if (hasDriver) {
			await driver('screenshot', { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/mcp-approval.png` });
			await driver('clickInChat', { name: 'Allow' });
		} else {
			hooks.approve('toolu_echo', true);
		}
		const result = await sent;
		assert.equal(result.outcome, 'done', result.error);
		const requests = messagesRequests(server).slice(before);
		assert.equal(requests.length, 2);
		assert.ok(toolNames(requests[0]).includes('mcp__everything__echo'), `offered: ${toolNames(requests[0]).join(', ')}`);
		const names = toolNames(requests[0]).filter((name) => name.startsWith('mcp__'));
		assert.deepEqual(names, [...names].sort(), 'sorted, so the tool list stays stable');
		const first = parseReminders(lastUserText(requests[0]));
		assert.match(first.find((block) => block.key === 'mcp.servers')?.body ?? '', /- everything: connected, \d+ tools/);
		assert.match(first.find((block) => block.key === 'mcp.instructions')?.body ?? '', /## everything\n\n/);
		assert.equal(first.some((block) => block.key === 'mcp.tools-changed'), false, 'not for the listing right after connecting');
		assert.match(lastUserText(requests[1]), /Echo: hello over MCP/);
		assert.deepEqual(keysOf(requests[1]).filter((key) => key.startsWith('mcp.')), [], 'said once');
		const tool = hooks.currentSessionItems().find((item) => item.kind === 'tool' && item.callId === 'toolu_echo');
		assert.equal(tool?.kind === 'tool' ? tool.verdict : undefined, 'granted');
	});

	it('the server gets the extension host\'s environment with its env added and a null entry removed', async () => {
		const { api, hooks } = await activeAside();
		server.script({ toolCalls: [{ id: 'toolu_env', name: 'mcp__everything__get-env', input: {} }] }, { text: 'Read it.' });
		const before = messagesRequests(server).length;
		const sent = api.sendMessage('What environment does the server see?');
		await until(() => hooks.pendingApproval(), (id) => id === 'toolu_env', 'the approval card', 60_000);
		hooks.approve('toolu_env', true);
		assert.equal((await sent).outcome, 'done');
		const text = lastUserText(messagesRequests(server).slice(before)[1]);
		assert.match(text, /"ASIDE_MCP_TEST": "set"/);
		assert.match(text, /"PATH": "/, 'the host\'s environment, not a short allow-list');
		assert.doesNotMatch(text, /ASIDE_TEST_HOOKS/, 'null removed it');
	});

	it('a killed server comes back: the next request says so once, and its tool works again', async () => {
		const { api, hooks } = await activeAside();
		assert.ok(hooks.mcp);
		const pid = hooks.mcp.pids().everything;
		assert.ok(pid !== undefined);
		process.kill(pid, 'SIGKILL');
		await until(() => hooks.mcp?.pids().everything, (now) => now !== undefined && now !== pid, 'the restarted server', 60_000);
		await until(() => hooks.mcp?.servers()[0]?.state, (state) => state === 'connected', 'the reconnect', 60_000);
		server.script({ toolCalls: [{ id: 'toolu_again', name: 'mcp__everything__echo', input: { message: 'back again' } }] }, { text: 'Works.' });
		const before = messagesRequests(server).length;
		const sent = api.sendMessage('Echo once more.');
		await until(() => hooks.pendingApproval(), (id) => id === 'toolu_again', 'the approval card', 60_000);
		hooks.approve('toolu_again', true);
		assert.equal((await sent).outcome, 'done');
		const requests = messagesRequests(server).slice(before);
		const state = parseReminders(lastUserText(requests[0])).filter((block) => block.key === 'mcp.server-state');
		assert.equal(state.length, 1);
		assert.match(state[0]?.body ?? '', /everything: disconnected[^]*everything: reconnected; its tools were listed again\. Changes while it was disconnected were not delivered/);
		assert.match(lastUserText(requests[1]), /Echo: back again/);
		assert.equal(keysOf(requests[1]).includes('mcp.server-state'), false);
	});

	it('the chat\'s server list restarts a server, and Disable / Enable write its user settings entry and stop and start it', async function () {
		if (!hasDriver) {
			this.skip();
		}
		const { hooks } = await activeAside();
		assert.ok(hooks.mcp);
		const state = () => hooks.mcp?.servers().find((entry) => entry.name === 'everything')?.state;
		const pid = hooks.mcp.pids().everything;
		assert.ok(pid !== undefined);
		await driver('clickInChat', { prefix: 'MCP servers: ' });
		await driver('clickInChat', { name: 'Restart everything' });
		await until(() => hooks.mcp?.pids().everything, (now) => now !== undefined && now !== pid, 'a new server process', 60_000);
		await until(state, (now) => now === 'connected', 'connected after the restart', 60_000);
		await driver('clickInChat', { name: 'Disable everything' });
		await until(state, (now) => now === 'disabled', 'the disabled server', 60_000);
		const entry = () => (mcp().inspect<Record<string, { disabled?: boolean }>>('servers')?.globalValue ?? {}).everything;
		assert.equal(entry()?.disabled, true, 'written to the user settings');
		assert.equal(hooks.mcp.pids().everything, undefined, 'its process ended');
		assert.equal(hooks.mcp.tools().some((name) => name.startsWith('mcp__everything__')), false, 'no tool of it offered');
		await driver('clickInChat', { name: 'Enable everything' });
		await until(state, (now) => now === 'connected', 'connected again after Enable', 60_000);
		assert.notEqual(entry()?.disabled, true);
		assert.ok(hooks.mcp.tools().includes('mcp__everything__echo'));
		await driver('clickInChat', { prefix: 'MCP servers: ' });
	});

	it('a resource read in the chat and updated twice during one slow answer gives one mcp.resources-updated with the count, and none after', async function () {
		this.timeout(90_000);
		const { api, hooks } = await activeAside();
		const uri = 'demo://resource/static/document/features.md';
		// The server sends an update of every subscribed resource when its toggle goes on and each 5 s
		// after: the second answer takes 11 s, so two arrive during it; the third call turns them off.
		server.script(
			{ toolCalls: [{ id: 'toolu_read', name: 'McpReadResource', input: { server: 'everything', uri } }, { id: 'toolu_on', name: 'mcp__everything__toggle-subscriber-updates', input: {} }] },
			{ delayMs: 11_000, toolCalls: [{ id: 'toolu_off', name: 'mcp__everything__toggle-subscriber-updates', input: {} }] },
			{ text: 'Read it.' },
		);
		const approving = setInterval(() => {
			const pending = hooks.pendingApproval();
			if (pending === 'toolu_on' || pending === 'toolu_off') {
				hooks.approve(pending, true);
			}
		}, 50);
		const before = messagesRequests(server).length;
		const result = await api.sendMessage('Read the features document, with updates on.').finally(() => {
			clearInterval(approving);
		});
		assert.equal(result.outcome, 'done');
		const { sessionId } = result;
		const requests = messagesRequests(server).slice(before);
		assert.equal(requests.length, 3);
		assert.match(lastUserText(requests[1]), /Resource demo:\/\/resource\/static\/document\/features\.md \(text\/markdown\):/, 'the resource reached the model');
		const updated = (request: Request | undefined) => parseReminders(lastUserText(request)).filter((block) => block.key === 'mcp.resources-updated');
		// The toggle sends one update at once, before the slow answer: the request right after carries that one.
		assert.ok(updated(requests[1]).length <= 1);
		assert.equal(updated(requests[2]).length, 1);
		assert.match(updated(requests[2])[0]?.body ?? '', /- everything: demo:\/\/resource\/static\/document\/features\.md — updated 2 times, last at \d\d:\d\d:\d\d UTC$/);
		// Its ◇ row names the server: the label is recorded with the delivery, and the row shows the recorded label.
		const delivered = transcriptLines(hooks.sessionsDir, sessionId).flatMap((line) =>
			line.kind === 'injected-reminders' ? (line.entries as { key: string; label: string }[]).filter((entry) => entry.key === 'mcp.resources-updated') : [],
		);
		assert.deepEqual([...new Set(delivered.map((entry) => entry.label))], ['MCP resources updated: everything']);
		server.script({ text: 'Nothing new.' });
		const after = messagesRequests(server).length;
		assert.equal((await api.sendMessage('Anything else?')).outcome, 'done');
		assert.deepEqual(updated(messagesRequests(server)[after]), [], 'none in the request after');
	});

	it('a workspace\'s .mcp.json server starts once approved, is asked about again when its args change, and a declined one offers nothing', async () => {
		const { hooks } = await activeAside();
		assert.ok(hooks.mcp);
		const file = workspaceFile('.mcp.json').fsPath;
		const write = (args: string[]) => {
			writeFileSync(file, JSON.stringify({ mcpServers: { repo: { command: process.execPath, args: [EVERYTHING, ...args] } } }));
		};
		hooks.mcp.answerApprovals(true);
		write(['stdio']);
		await until(() => hooks.mcp?.tools() ?? [], (tools) => tools.includes('mcp__repo__echo'), 'the approved workspace server\'s tools', 60_000);
		assert.deepEqual(hooks.mcp.asked(), ['repo']);
		write(['stdio', '--changed']);
		await until(() => hooks.mcp?.asked() ?? [], (asked) => asked.length === 2, 'the question again after its args changed', 60_000);
		await until(() => hooks.mcp?.servers().find((entry) => entry.name === 'repo')?.state, (state) => state === 'connected', 'the server started again', 60_000);
		hooks.mcp.answerApprovals(false);
		write(['stdio', '--changed', '--again']);
		await until(() => hooks.mcp?.servers().find((entry) => entry.name === 'repo')?.state, (state) => state === 'declined', 'the declined server', 60_000);
		assert.equal(hooks.mcp.tools().some((name) => name.startsWith('mcp__repo__')), false);
		assert.equal(hooks.mcp.pids().repo, undefined, 'no process');
		if (hasDriver) {
			// Aside: Show MCP Servers offers what the chat's list does: a declined server is approved again, not "restarted".
			const shown = vscode.commands.executeCommand('aside.mcp.showServers');
			await driver('answerQuickInput', { title: 'Aside: MCP Servers', pick: 'repo' });
			const rows = (await driver<{ rows: string[] }>('readQuickInput', { waitForTexts: ['Approve…'] })).rows;
			assert.ok(rows.some((row) => row.includes('Approve…')) && rows.some((row) => row.includes('Show Output')), rows.join(' | '));
			assert.equal(rows.some((row) => row.includes('Restart')), false, rows.join(' | '));
			await shown;
		}
	});

	it('Import MCP Servers copies the other tools\' servers from a scratch home into the user settings, their secrets into SecretStorage', async () => {
		const { hooks } = await activeAside();
		assert.ok(hooks.mcp);
		const home = mkdtempSync(join(tmpdir(), 'aside-mcp-import-'));
		const userDir = join(home, 'User');
		mkdirSync(join(userDir, 'globalStorage', 'saoudrizwan.claude-dev', 'settings'), { recursive: true });
		mkdirSync(join(home, '.config', 'Claude'), { recursive: true });
		writeFileSync(join(userDir, 'mcp.json'), '{ "servers": { "from-vscode": { "type": "http", "url": "https://vscode.example.test/mcp" } } }');
		writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { 'from-claude': { command: 'claude-mcp', env: { API_TOKEN: 'tok-123' } }, everything: { command: 'x' } } }));
		writeFileSync(join(userDir, 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'), JSON.stringify({ mcpServers: { 'from-cline': { command: 'cline-mcp', disabled: true } } }));
		writeFileSync(join(home, '.config', 'Claude', 'claude_desktop_config.json'), JSON.stringify({ mcpServers: { 'from-desktop': { command: 'desktop-mcp' } } }));
		const before = mcp().inspect<Record<string, unknown>>('servers')?.globalValue ?? {};
		try {
			const said = await hooks.mcp.importServers(home, userDir);
			assert.match(said, /^Imported 4 MCP servers from-vscode, from-claude, from-cline, from-desktop into aside\.mcp\.servers in your user settings\./);
			assert.match(said, /already in aside\.mcp\.servers, kept as they are: everything/);
			const servers = mcp().inspect<Record<string, unknown>>('servers')?.globalValue ?? {};
			assert.deepEqual(servers.everything, before.everything, 'the person\'s own entry is kept as it was');
			assert.deepEqual(servers['from-claude'], { command: 'claude-mcp', env: { API_TOKEN: '${input:from-claude-API_TOKEN}' } });
			assert.deepEqual(servers['from-cline'], { command: 'cline-mcp', disabled: true });
			assert.equal(await hooks.mcp.inputSecret('from-claude-API_TOKEN'), 'tok-123');
		} finally {
			await mcp().update('servers', before, vscode.ConfigurationTarget.Global);
			rmSync(home, { recursive: true, force: true });
		}
	});
});
