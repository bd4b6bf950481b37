import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { launchIdentity } from './launchIdentity';
import { MAX_TOOL_NAME, mcpNameMatches, mcpToolName, nameTools, sanitizeName } from './names';
import { readUserServers, readWorkspaceFile, type ServerConfig } from './serverConfig';

describe('MCP tool names', () => {
	it('are Claude Code\'s mcp__server__tool, with what a provider refuses turned into _', () => {
		assert.equal(mcpToolName('github', 'create_issue'), 'mcp__github__create_issue');
		assert.equal(mcpToolName('my server.v2', 'read/file'), 'mcp__my_server_v2__read_file');
		assert.equal(sanitizeName(''), '_');
	});

	it('a name past 64 characters is cut with a hash of the whole, so two long names stay apart', () => {
		const a = mcpToolName('a-very-long-server-name-for-testing', 'an-equally-long-tool-name-that-goes-on-one');
		const b = mcpToolName('a-very-long-server-name-for-testing', 'an-equally-long-tool-name-that-goes-on-two');
		assert.equal(a.length, MAX_TOOL_NAME);
		assert.equal(b.length, MAX_TOOL_NAME);
		assert.notEqual(a, b);
		assert.match(a, /^mcp__a-very-long-server-name-for-testing__an-equally-lo.*_[0-9a-f]{8}$/);
	});

	it('sorts the tools by name and reports the ones that meet after sanitising, offering neither', () => {
		const { named, collisions } = nameTools([
			{ server: 'zeta', tool: 'b', value: 1 },
			{ server: 'alpha', tool: 'read file', value: 2 },
			{ server: 'alpha', tool: 'read_file', value: 3 },
			{ server: 'alpha', tool: 'list', value: 4 },
		]);
		assert.deepEqual(named.map((tool) => tool.name), ['mcp__alpha__list', 'mcp__zeta__b']);
		assert.equal(collisions.length, 1);
		assert.match(collisions[0] ?? '', /"read file" of "alpha", "read_file" of "alpha" would all be named mcp__alpha__read_file; none of them is offered/);
	});

	it('rules and matchers name a tool, a server, or a server\'s every tool', () => {
		assert.equal(mcpNameMatches('mcp__github__create_issue', 'mcp__github__create_issue'), true);
		assert.equal(mcpNameMatches('mcp__github', 'mcp__github__create_issue'), true);
		assert.equal(mcpNameMatches('mcp__github__*', 'mcp__github__create_issue'), true);
		assert.equal(mcpNameMatches('mcp__git', 'mcp__github__create_issue'), false);
		assert.equal(mcpNameMatches('mcp__github', 'mcp__github_enterprise__x'), false);
		assert.equal(mcpNameMatches('Read', 'mcp__github__x'), false);
	});
});

describe('a workspace server\'s launch identity', () => {
	const one = (entry: unknown): ServerConfig => {
		const [server] = readWorkspaceFile('.mcp.json', '/ws/.mcp.json', JSON.stringify({ mcpServers: { s: entry } })).servers;
		assert.ok(server);
		return server;
	};

	it('changes when what runs or what is reached changes, and not for the order of env keys or Aside\'s own fields', () => {
		const base = launchIdentity(one({ command: 'node', args: ['a.js'], env: { A: '1', B: '2' } }));
		assert.equal(launchIdentity(one({ command: 'node', args: ['a.js'], env: { B: '2', A: '1' } })), base);
		assert.equal(launchIdentity(one({ command: 'node', args: ['a.js'], env: { A: '1', B: '2' }, disabledTools: ['x'], timeout: 5000 })), base);
		assert.notEqual(launchIdentity(one({ command: 'node', args: ['b.js'], env: { A: '1', B: '2' } })), base);
		assert.notEqual(launchIdentity(one({ command: 'node', args: ['a.js'], env: { A: '1', B: '3' } })), base);
		assert.notEqual(launchIdentity(one({ command: 'node', args: ['a.js'], env: { A: '1', B: '2' }, cwd: '/elsewhere' })), base);
		assert.notEqual(launchIdentity(one({ url: 'https://a.test/mcp' })), launchIdentity(one({ url: 'https://b.test/mcp' })));
	});

	it('is the configuration as written: an input\'s value is never part of it; the origin is', () => {
		const written = one({ url: 'https://a.test/mcp', headers: { Authorization: 'Bearer ${input:pat}' } });
		assert.equal(launchIdentity(written), launchIdentity(one({ url: 'https://a.test/mcp', headers: { Authorization: 'Bearer ${input:pat}' } })));
		const [user] = readUserServers({ s: { url: 'https://a.test/mcp', headers: { Authorization: 'Bearer ${input:pat}' } } }).servers;
		assert.ok(user);
		assert.notEqual(launchIdentity(user), launchIdentity(written));
	});
});
