import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readServer, readUserServers, readWorkspaceFile, stripJsonComments, type ServerConfig } from './serverConfig';

const USER = { kind: 'user' } as const;

describe('MCP server configurations', () => {
	it('reads VS Code\'s servers shape from the user settings: stdio, Streamable HTTP and SSE, with Aside\'s own fields', () => {
		const read = readUserServers({
			files: { command: 'npx', args: ['-y', 'server-files', '${workspaceFolder}'], env: { TOKEN: 'x', DEBUG: null, PORT: 8080 }, envFile: '.env', cwd: '/tmp' },
			remote: {
				type: 'http', url: 'https://mcp.example.test/mcp', headers: { Authorization: 'Bearer ${input:token}' }, disabledTools: ['delete'], timeout: 120_000, trustAnnotations: true,
			},
			legacy: { type: 'sse', url: 'http://localhost:3001/sse', disabled: true },
		});
		assert.deepEqual(read.problems, []);
		const [files, remote, legacy] = read.servers as [ServerConfig, ServerConfig, ServerConfig];
		assert.deepEqual(files, {
			name: 'files', origin: USER, disabled: false, disabledTools: [], trustAnnotations: false, transport: 'stdio', command: 'npx',
			args: ['-y', 'server-files', '${workspaceFolder}'], env: { TOKEN: 'x', DEBUG: null, PORT: '8080' }, cwd: '/tmp', envFile: '.env',
		});
		assert.deepEqual(remote, {
			name: 'remote', origin: USER, disabled: false, disabledTools: ['delete'], timeoutMs: 120_000, trustAnnotations: true, transport: 'http',
			url: 'https://mcp.example.test/mcp', headers: { Authorization: 'Bearer ${input:token}' },
		});
		assert.equal(legacy.transport, 'sse');
		assert.equal(legacy.disabled, true);
	});

	it('a broken server fails alone, named with its place and why; the others are read', () => {
		const read = readUserServers({
			good: { command: 'node', args: ['server.js'] },
			nothing: { args: ['x'] },
			badUrl: { url: 'ftp://example.test' },
			badArgs: { command: 'node', args: 'server.js' },
			notObject: 'node server.js',
			emptyCommand: { command: '' },
		});
		assert.deepEqual(read.servers.map((server) => server.name), ['good']);
		const messages = read.problems.map((problem) => problem.message);
		assert.equal(messages.length, 5);
		assert.match(messages[0] ?? '', /^MCP server "nothing" \(aside\.mcp\.servers in your user settings\): it has neither a command \(a stdio server\) nor a url/);
		assert.match(messages[1] ?? '', /"badUrl".*url: the url must be an http or https URL/);
		assert.match(messages[2] ?? '', /"badArgs".*args:/);
		assert.match(messages[3] ?? '', /"notObject".*its entry is not an object/);
		assert.match(messages[4] ?? '', /"emptyCommand".*a stdio server needs a command/);
	});

	it('a setting that is not an object of servers says so and starts none', () => {
		const read = readUserServers(['files']);
		assert.deepEqual(read.servers, []);
		assert.match(read.problems[0]?.message ?? '', /"aside\.mcp\.servers" is not an object of servers/);
		assert.deepEqual(readUserServers(undefined), { servers: [], inputs: [], problems: [] });
	});

	it('reads Claude Code\'s .mcp.json (mcpServers; a url without a type is Streamable HTTP)', () => {
		const text = JSON.stringify({ mcpServers: { db: { command: 'db-mcp', env: { URL: '${DB_URL:-postgres://localhost}' } }, api: { url: 'https://api.example.test/mcp' }, old: { type: 'sse', url: 'https://old.example.test/sse' } } });
		const read = readWorkspaceFile('.mcp.json', '/ws/.mcp.json', text);
		assert.deepEqual(read.problems, []);
		assert.deepEqual(read.servers.map((server) => [server.name, server.transport, server.origin]), [
			['db', 'stdio', { kind: 'workspace', file: '.mcp.json', path: '/ws/.mcp.json' }],
			['api', 'http', { kind: 'workspace', file: '.mcp.json', path: '/ws/.mcp.json' }],
			['old', 'sse', { kind: 'workspace', file: '.mcp.json', path: '/ws/.mcp.json' }],
		]);
	});

	it('a workspace file cannot make its own servers\' annotations trusted', () => {
		const text = JSON.stringify({ mcpServers: { db: { command: 'db-mcp', trustAnnotations: true } } });
		const [db] = readWorkspaceFile('.mcp.json', '/ws/.mcp.json', text).servers;
		assert.equal(db?.trustAnnotations, false);
		assert.equal(readUserServers({ db: { command: 'db-mcp', trustAnnotations: true } }).servers[0]?.trustAnnotations, true);
	});

	it('reads VS Code\'s .vscode/mcp.json with comments, trailing commas and inputs; a malformed input is skipped and named', () => {
		const text = `{
			// the servers of this workspace
			"servers": {
				"github": { "type": "http", "url": "https://api.githubcopilot.test/mcp/", "headers": { "Authorization": "Bearer \${input:pat}" }, },
				/* a local one */
				"local": { "type": "stdio", "command": "node", "args": ["a // not a comment", "b /* nor this */"] },
			},
			"inputs": [
				{ "type": "promptString", "id": "pat", "description": "GitHub token", "password": true },
				{ "type": "promptString", "description": "no id" },
			],
		}`;
		const read = readWorkspaceFile('.vscode/mcp.json', '/ws/.vscode/mcp.json', text);
		assert.deepEqual(read.servers.map((server) => server.name), ['github', 'local']);
		const local = read.servers[1];
		assert.deepEqual(local?.transport === 'stdio' ? local.args : [], ['a // not a comment', 'b /* nor this */'], 'strings are left as they are');
		assert.deepEqual(read.inputs, [{ id: 'pat', description: 'GitHub token', password: true }]);
		assert.match(read.problems[0]?.message ?? '', /^\.vscode\/mcp\.json: an input is malformed/);
	});

	it('a workspace file that is not JSON, or not an object, names itself and starts nothing', () => {
		const broken = readWorkspaceFile('.mcp.json', '/ws/.mcp.json', '{ "mcpServers": { "a": { "command": "x" } ');
		assert.deepEqual(broken.servers, []);
		assert.match(broken.problems[0]?.message ?? '', /^\.mcp\.json is not valid JSON \(.+\); none of its servers start\.$/);
		assert.match(readWorkspaceFile('.mcp.json', '/ws/.mcp.json', '[1, 2]').problems[0]?.message ?? '', /is not a JSON object/);
	});

	it('strips JSONC without touching strings', () => {
		assert.deepEqual(JSON.parse(stripJsonComments('{"a": "x, ]", // c\n "b": [1, 2, /* c */ ], }')), { a: 'x, ]', b: [1, 2] });
		assert.deepEqual(JSON.parse(stripJsonComments('{"url": "http://a/b", "s": "\\"//\\"", }')), { url: 'http://a/b', s: '"//"' });
	});

	it('reads one entry on its own, for the import command', () => {
		const read = readServer('x', { command: 'run', args: [] }, USER);
		assert.ok(!('message' in read) && read.transport === 'stdio' && read.command === 'run');
	});
});
