// The deferred MCP tools: when they are deferred (the budget, vscode-lm's tool limit), what
// McpDescribe says of a server and of a tool, and how McpCall resolves to the tool it names —
// narrowed for plan mode and a profile, with a clear message for every bad call.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServerConfig } from './serverConfig';
import type { McpToolInfo } from './session';
import { mcpTools, type McpTool } from './mcpTools';
import { CALL_TOOL, catalogTools, type CatalogReader, summaryOf } from './catalogTools';
import { budgetOf, deferralReason, readDeferAt, specTokens } from './deferral';
import { keepTools, type Tool } from '../tools/tool';

function config(name: string, trustAnnotations = false): ServerConfig {
	return { name, transport: 'stdio', command: 'x', args: [], env: {}, origin: { kind: 'user' }, disabled: false, disabledTools: [], trustAnnotations } as unknown as ServerConfig;
}

function info(name: string, description: string, readOnly = false): McpToolInfo {
	return { name, description, inputSchema: { type: 'object', properties: { q: { type: 'string' } } }, annotations: readOnly ? { readOnlyHint: true } : {} };
}

const listed = [
	{ config: config('docs', true), tools: [info('search', 'Searches the docs. Returns the best pages.', true), info('publish', 'Publishes a page.')] },
	{ config: config('git'), tools: [info('log', '')] },
];
const { tools } = mcpTools(listed, () => Promise.resolve({ content: [{ type: 'text', text: 'done' }], isError: false }), 1000);

const reader: CatalogReader = {
	mcpTools: () => tools,
	connected: () => ['docs', 'git'],
	withResources: () => ['docs'],
	listResources: () => Promise.resolve([{ uri: 'docs://index', name: 'Index', mimeType: 'text/markdown' }]),
};
/** What a stand-in said instead of resolving, or 'resolved'. */
const refusal = (target: ReturnType<NonNullable<Tool['standsFor']>['resolve']> | undefined): string => (typeof target === 'string' ? target : 'resolved');
const context = { signal: new AbortController().signal } as never;

describe('MCP tool deferral', () => {
	it('reads aside.mcp.deferAt as tokens or a share, and nothing else', () => {
		assert.deepEqual(readDeferAt(8000), { kind: 'tokens', tokens: 8000 });
		assert.deepEqual(readDeferAt('10%'), { kind: 'share', percent: 10 });
		assert.deepEqual(readDeferAt(' 2.5 % '), { kind: 'share', percent: 2.5 });
		assert.equal(readDeferAt('150%'), undefined);
		assert.equal(readDeferAt('ten'), undefined);
		assert.equal(readDeferAt(-1), undefined);
		assert.equal(budgetOf({ kind: 'share', percent: 10 }, 200_000), 20_000);
		assert.equal(budgetOf({ kind: 'share', percent: 10 }, undefined), 12_800, 'an unknown window counts as 128k');
	});

	it('defers past the budget or vscode-lm\'s 128 tools, not before, and never with no tool', () => {
		const cost = tools.reduce((sum, tool) => sum + specTokens(tool), 0);
		assert.equal(deferralReason(tools, { kind: 'tokens', tokens: cost }, { providerId: 'anthropic', otherTools: 10 }), undefined);
		assert.match(deferralReason(tools, { kind: 'tokens', tokens: cost - 1 }, { providerId: 'anthropic', otherTools: 10 }) ?? '', new RegExp(`take about ${cost} tokens, more than aside\\.mcp\\.deferAt allows: ${cost - 1}`));
		assert.equal(deferralReason(tools, { kind: 'share', percent: 10 }, { providerId: 'vscode-lm', contextWindow: 1_000_000, otherTools: 125 }), undefined);
		assert.match(deferralReason(tools, { kind: 'share', percent: 10 }, { providerId: 'vscode-lm', contextWindow: 1_000_000, otherTools: 126 }) ?? '', /vscode-lm provider takes at most 128 tools/);
		assert.equal(deferralReason([], { kind: 'tokens', tokens: 0 }, { providerId: 'anthropic', otherTools: 10 }), undefined);
	});

	it('McpDescribe lists a server\'s tools and resources in one line each, and gives one tool\'s schema', async () => {
		const { describe: describeTool } = catalogTools(reader);
		const server = await describeTool.run({ server: 'docs' }, context);
		assert.equal(server.content, [
			'docs: 2 tools (McpDescribe with "tool" gives one\'s schema; McpCall calls it)',
			'- publish: Publishes a page.',
			'- search: Searches the docs.',
			'',
			'Resources: 1 (read one with McpReadResource)',
			'- docs://index — Index (text/markdown)',
		].join('\n'));
		const one = await describeTool.run({ server: 'docs', tool: 'search' }, context);
		assert.match(one.content, /^mcp__docs__search: the tool "search" of the MCP server "docs"\. Call it with McpCall \{"server": "docs", "tool": "search"/);
		assert.match(one.content, /runs without asking/);
		assert.match(one.content, /Input schema:\n\{\n {2}"type": "object"/);
		await assert.rejects(describeTool.run({ server: 'nope' }, context), /No connected MCP server is named "nope" \(connected: docs, git\)/);
		await assert.rejects(describeTool.run({ server: 'git', tool: 'blame' }, context), /has no tool named "blame" \(its tools: log\)/);
		assert.equal(summaryOf(tools.find((tool) => tool.tool.name === 'log') as McpTool), '(no description)');
	});

	it('McpCall resolves to the mcp__ tool it names with its arguments, and says why when it cannot', () => {
		const { call } = catalogTools(reader);
		assert.equal(call.name, CALL_TOOL);
		const target = call.standsFor?.resolve({ server: 'docs', tool: 'publish', arguments: { q: 'x' } });
		assert.ok(target !== undefined && typeof target !== 'string');
		assert.equal(target.tool.name, 'mcp__docs__publish');
		assert.deepEqual(target.input, { q: 'x' });
		const byFullName = call.standsFor?.resolve({ server: 'git', tool: 'mcp__git__log' });
		assert.ok(byFullName !== undefined && typeof byFullName !== 'string');
		assert.deepEqual(byFullName.input, {}, 'no arguments: an empty object');
		assert.match(refusal(call.standsFor?.resolve({ server: 'docs' })), /^Invalid input for McpCall: tool: /);
		assert.match(refusal(call.standsFor?.resolve({ server: 'docs', tool: 'delete' })), /has no tool named "delete" \(its tools: publish, search\)/);
		assert.match(refusal(call.standsFor?.resolve({ server: 'jira', tool: 'x' })), /No connected MCP server is named "jira"/);
	});

	it('is narrowed like the tools it stands for: plan mode reaches only read tools, a profile only the tools it names', () => {
		const { describe: describeTool, call } = catalogTools(reader);
		const plan = keepTools([describeTool, call], (tool: Tool) => tool.kind === 'read');
		assert.deepEqual(plan.map((tool) => tool.name), ['McpDescribe', 'McpCall']);
		const narrowed = plan[1];
		const read = narrowed?.standsFor?.resolve({ server: 'docs', tool: 'search' });
		assert.ok(read !== undefined && typeof read !== 'string');
		assert.match(refusal(narrowed?.standsFor?.resolve({ server: 'docs', tool: 'publish' })), /^Not run: mcp__docs__publish is not available here/);
		const profile = keepTools([describeTool, call], (tool: Tool) => ['mcp__git__log'].includes(tool.name));
		assert.deepEqual(profile.map((tool) => tool.name), ['McpCall'], 'McpDescribe is not named; McpCall reaches the one tool named');
		assert.deepEqual(keepTools([call], (tool: Tool) => tool.name === 'Read'), [], 'nothing it stands for is kept: not offered');
	});
});
