// Deferred MCP tools in the real workbench (docs/mcp.md, "Context budget"): with aside.mcp.deferAt
// at 0 the request carries McpDescribe, McpCall and McpReadResource instead of the mcp__ tools and an
// mcp.catalog reminder listing them; McpCall asks on the card as the MCP tool it names and its
// result reaches the model; a server whose list changed (a tool disabled, the server restarted)
// leaves the request's tool array byte-identical and mcp.catalog is told again.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { parseReminders } from '../../src/reminders/envelope';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, lastUserText, until, useScriptedServer } from './support';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

type Request = ModelServer['requests'][number];

function messagesRequests(server: ModelServer): Request[] {
	return server.requests.filter((request) => request.path === '/v1/messages');
}

function catalogOf(request: Request | undefined): string[] {
	return parseReminders(lastUserText(request)).flatMap((block) => (block.key === 'mcp.catalog' ? [block.body] : []));
}

function toolsOf(request: Request | undefined): unknown[] {
	return (request?.body as { tools?: unknown[] } | undefined)?.tools ?? [];
}

describe('deferred MCP tools in the real workbench', function () {
	this.timeout(120_000);
	let server: ModelServer;
	let restore: () => Promise<void>;
	const mcp = () => vscode.workspace.getConfiguration('aside.mcp');
	const everything = (extra: Record<string, unknown> = {}) => ({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], ...extra } });

	before(async () => {
		server = await startModelServer({ models: ['claude-scripted'] });
		restore = await useScriptedServer(server, { provider: 'anthropic', model: 'claude-scripted', mode: 'ask', apiKey: 'sk-test-mcp-deferred' });
		await mcp().update('deferAt', 0, vscode.ConfigurationTarget.Global);
		await mcp().update('servers', everything(), vscode.ConfigurationTarget.Global);
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await mcp().update('servers', undefined, vscode.ConfigurationTarget.Global);
		await mcp().update('deferAt', undefined, vscode.ConfigurationTarget.Global);
		await restore();
		await server.close();
	});

	it('offers three stable tools and a catalog; McpCall asks as the MCP tool; a changed list keeps the tool array\'s bytes', async () => {
		const { api, hooks } = await activeAside();
		assert.ok(hooks.mcp);
		server.script(
			{ toolCalls: [{ id: 'toolu_deferred', name: 'McpCall', input: { server: 'everything', tool: 'echo', arguments: { message: 'deferred hello' } } }] },
			{ text: 'It echoed.' },
		);
		const before = messagesRequests(server).length;
		const sent = api.sendMessage('Echo something through the deferred MCP tools.');
		await until(() => hooks.pendingApproval(), (id) => id === 'toolu_deferred', 'the approval card of the MCP call', 60_000);
		hooks.approve('toolu_deferred', true);
		const result = await sent;
		assert.equal(result.outcome, 'done', result.error);
		const [first, second] = messagesRequests(server).slice(before);
		const names = toolsOf(first).map((tool) => (tool as { name: string }).name);
		assert.deepEqual(names.filter((name) => name.startsWith('Mcp')), ['McpDescribe', 'McpCall', 'McpReadResource']);
		assert.equal(names.some((name) => name.startsWith('mcp__')), false, `no mcp__ tool is offered: ${names.join(', ')}`);
		const [catalog] = catalogOf(first);
		assert.match(catalog ?? '', /^The MCP servers' tools are not offered one by one \(the MCP tools' schemas take about \d+ tokens, more than aside\.mcp\.deferAt allows: 0\)/);
		assert.match(catalog ?? '', /\n## everything \(\d+ tools\)\n/);
		assert.match(catalog ?? '', /\n- echo: Echoes back the input string\n/);
		assert.match(lastUserText(second), /Echo: deferred hello/);
		const verdict = parseReminders(lastUserText(second)).find((block) => block.key === 'permission.verdict');
		assert.match(verdict?.body ?? '', /mcp__everything__echo/, 'the person was asked about the MCP tool itself, not McpCall');
		assert.deepEqual(catalogOf(second), [], 'told once');

		await mcp().update('servers', everything({ disabledTools: ['echo'] }), vscode.ConfigurationTarget.Global);
		await until(() => hooks.mcp?.tools() ?? [], (tools) => tools.length > 0 && !tools.includes('mcp__everything__echo'), 'the server listed again without echo', 60_000);
		server.script({ text: 'Noted.' });
		const again = messagesRequests(server).length;
		assert.equal((await api.sendMessage('And now?')).outcome, 'done');
		const third = messagesRequests(server)[again];
		assert.equal(JSON.stringify(toolsOf(third)), JSON.stringify(toolsOf(first)), 'the tool array is byte-identical');
		const [changed] = catalogOf(third);
		assert.ok(changed !== undefined, 'mcp.catalog is told again after the list changed');
		assert.doesNotMatch(changed, /\n- echo: /);
	});
});
