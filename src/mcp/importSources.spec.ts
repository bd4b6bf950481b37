import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importCandidates } from './importSources';

describe('importing MCP servers from other tools', () => {
	it('reads VS Code\'s servers, Claude Code\'s user and project servers, Cline\'s and Claude Desktop\'s, in VS Code\'s shape', () => {
		const { candidates, problems } = importCandidates(
			[
				{ source: 'vscode', path: '/u/mcp.json', text: '{ // mine\n "servers": { "gh": { "type": "http", "url": "https://api.example.test/mcp" } }, "inputs": [] }' },
				{
					source: 'claude-code',
					path: '/h/.claude.json',
					text: JSON.stringify({ mcpServers: { files: { type: 'stdio', command: 'npx', args: ['-y', 'files-mcp'] } }, projects: { '/ws': { mcpServers: { db: { command: 'db-mcp' } } }, '/other': { mcpServers: { no: { command: 'x' } } } } }),
				},
				{ source: 'cline', path: '/u/cline.json', text: JSON.stringify({ mcpServers: { web: { type: 'streamableHttp', url: 'https://web.example.test/mcp', timeout: 60, disabled: true, autoApprove: ['fetch'] } } }) },
				{ source: 'claude-desktop', path: '/h/claude_desktop_config.json', text: JSON.stringify({ mcpServers: { old: { type: 'sse', url: 'http://localhost:3001/sse' } } }) },
			],
			'/ws',
		);
		assert.deepEqual(problems, []);
		assert.deepEqual(
			candidates.map((candidate) => [candidate.source, candidate.name, candidate.entry, candidate.summary]),
			[
				['vscode', 'gh', { type: 'http', url: 'https://api.example.test/mcp' }, 'HTTP https://api.example.test/mcp'],
				['claude-code', 'files', { command: 'npx', args: ['-y', 'files-mcp'] }, 'npx -y files-mcp'],
				['claude-code', 'db', { command: 'db-mcp' }, 'db-mcp'],
				['cline', 'web', { type: 'http', url: 'https://web.example.test/mcp', disabled: true, timeout: 60_000 }, 'HTTP https://web.example.test/mcp'],
				['claude-desktop', 'old', { type: 'sse', url: 'http://localhost:3001/sse' }, 'SSE http://localhost:3001/sse'],
			],
		);
	});

	it('moves a secret-looking env or header value into an ${input:…} kept apart; plain values and variables stay', () => {
		const { candidates } = importCandidates([
			{
				source: 'claude-code',
				path: '/h/.claude.json',
				text: JSON.stringify({
					mcpServers: {
						github: { command: 'gh-mcp', env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_secret', LOG_LEVEL: 'warn', API_KEY: '${MY_KEY}' } },
						api: { type: 'http', url: 'https://api.example.test/mcp', headers: { Authorization: 'Bearer abc', 'X-Team': 'core' } },
					},
				}),
			},
		]);
		const [github, api] = candidates;
		assert.ok(github && api);
		assert.deepEqual(github.entry, { command: 'gh-mcp', env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${input:github-GITHUB_PERSONAL_ACCESS_TOKEN}', LOG_LEVEL: 'warn', API_KEY: '${MY_KEY}' } });
		assert.deepEqual(github.secrets, { 'github-GITHUB_PERSONAL_ACCESS_TOKEN': 'ghp_secret' });
		assert.deepEqual(api.entry.headers, { Authorization: '${input:api-Authorization}', 'X-Team': 'core' });
		assert.deepEqual(api.secrets, { 'api-Authorization': 'Bearer abc' });
	});

	it('a file that is not JSON and a server Aside cannot run are named; the rest is offered', () => {
		const { candidates, problems } = importCandidates([
			{ source: 'claude-desktop', path: '/h/claude_desktop_config.json', text: '{ "mcpServers": ' },
			{ source: 'cline', path: '/u/cline.json', text: JSON.stringify({ mcpServers: { broken: { args: ['x'] }, fine: { command: 'ok' } } }) },
		]);
		assert.deepEqual(candidates.map((candidate) => candidate.name), ['fine']);
		assert.equal(problems.length, 2);
		assert.match(problems[0] ?? '', /^\/h\/claude_desktop_config\.json is not valid JSON/);
		assert.match(problems[1] ?? '', /^Cline: MCP server "broken": it has neither a command/);
	});
});
