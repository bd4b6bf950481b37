// Deferred MCP tools against the real reference server (server-everything over stdio): past
// aside.mcp.deferAt the model gets McpDescribe, McpCall and McpReadResource, the same array whatever
// the server does afterwards (a restart with a tool disabled), and mcp.catalog lists the tools in
// one line each, following the change.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Emitter } from '../../base/event';
import { launchOf } from '../../mcp/launch';
import { readUserServers } from '../../mcp/serverConfig';
import { sdkConnector } from '../../mcp/sdkConnector';
import { McpServers } from '../../mcp/servers';
import type { DeferAt, ToolOffer } from '../../mcp/deferral';
import { toolSpecs } from '../../tools/registry';
import { catalogBody } from './catalogSection';
import { serversBody } from './serverSections';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const opened: McpServers[] = [];
after(() => {
	for (const servers of opened) {
		servers.dispose();
	}
});

function serversOf(setting: Record<string, unknown>, deferAt: DeferAt) {
	const changed = new Emitter<void>();
	let current = readUserServers(setting);
	const servers = new McpServers({
		source: { read: () => current, onDidChange: changed.event },
		connector: sdkConnector,
		launch: (config) => launchOf(config, { env: process.env, workspaceFolder: process.cwd(), readFile: () => Promise.reject(new Error('no env files')) }),
		startupTimeoutMs: () => 20_000,
		requestTimeoutMs: () => 20_000,
		deferAt: () => deferAt,
		approve: () => Promise.resolve(true),
	});
	opened.push(servers);
	return {
		servers,
		set: (next: Record<string, unknown>) => {
			current = readUserServers(next);
			changed.fire();
		},
	};
}

const everything = (extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [EVERYTHING, 'stdio'], ...extra });
const offer: ToolOffer = { providerId: 'anthropic', contextWindow: 200_000, otherTools: 12 };

describe('deferred MCP tools (server-everything over stdio)', () => {
	it('past the budget: three stable tools, byte-identical across a restart that changed the list; mcp.catalog follows', async () => {
		const { servers, set } = serversOf({ everything: everything() }, { kind: 'tokens', tokens: 100 });
		await servers.ready(new AbortController().signal);
		const first = servers.tools(offer);
		assert.deepEqual(first.map((tool) => tool.name), ['McpDescribe', 'McpCall', 'McpReadResource']);
		assert.match(servers.deferred ?? '', /schemas take about \d+ tokens, more than aside\.mcp\.deferAt allows: 100$/);
		const catalog = catalogBody(servers) ?? '';
		assert.match(catalog, /^The MCP servers' tools are not offered one by one \(/);
		assert.match(catalog, /\n## everything \(\d+ tools\)\n/);
		assert.match(catalog, /\n- echo: Echoes back the input string\.?/);
		assert.match(serversBody(servers) ?? '', /listed in mcp\.catalog and called with McpCall/);
		const bytes = JSON.stringify(toolSpecs(first));

		set({ everything: everything({ disabledTools: ['echo'] }) });
		await servers.ready(new AbortController().signal);
		assert.equal(servers.entries()[0]?.state.kind, 'connected');
		const second = servers.tools(offer);
		assert.equal(second, first, 'the same array, so the same specs');
		assert.equal(JSON.stringify(toolSpecs(second)), bytes);
		assert.ok(!servers.mcpTools().some((tool) => tool.tool.name === 'echo'));
		const after = catalogBody(servers) ?? '';
		assert.notEqual(after, catalog);
		assert.doesNotMatch(after, /\n- echo:/);

		// Once deferred, a budget the tools would now fit does not bring them back one by one.
		assert.equal(servers.tools({ ...offer, contextWindow: 10_000_000 }), first);
	});

	it('within the budget the tools are offered one by one, and no catalog is told', async () => {
		const { servers } = serversOf({ everything: everything() }, { kind: 'share', percent: 10 });
		await servers.ready(new AbortController().signal);
		const names = servers.tools(offer).map((tool) => tool.name);
		assert.ok(names.includes('mcp__everything__echo'));
		assert.equal(servers.deferred, undefined);
		assert.equal(catalogBody(servers), undefined);
		const lm = servers.tools({ providerId: 'vscode-lm', contextWindow: 200_000, otherTools: 127 });
		assert.deepEqual(lm.map((tool) => tool.name), ['McpDescribe', 'McpCall', 'McpReadResource'], 'vscode-lm would get more than 128 tools');
	});
});
