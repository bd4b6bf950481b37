import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readUserServers, type ServerConfig } from './serverConfig';
import { inputsUsed, resolveVariables, type VariableContext } from './variables';

function server(entry: unknown): ServerConfig {
	const [read] = readUserServers({ s: entry }).servers;
	assert.ok(read);
	return read;
}

const context: VariableContext = { workspaceFolder: '/ws', userHome: '/home/me', env: { HOME: '/home/me', TOKEN: 't0k', EMPTY: '' } };

describe('MCP configuration variables', () => {
	it('resolves every kind in command, args, cwd, env, envFile', async () => {
		const resolved = await resolveVariables(server({
			command: '${userHome}/bin/srv',
			args: ['${workspaceFolder}/src', '--token=${env:TOKEN}', '--missing=${env:NOPE}', '${TOKEN}', '${NOPE:-fallback}', '${EMPTY:-unused}'],
			cwd: '${workspaceFolder}',
			env: { A: '${TOKEN}-x', B: null },
			envFile: '${workspaceFolder}/.env',
		}), context);
		assert.ok(!('message' in resolved) && resolved.transport === 'stdio');
		assert.equal(resolved.command, '/home/me/bin/srv');
		assert.deepEqual(resolved.args, ['/ws/src', '--token=t0k', '--missing=', 't0k', 'fallback', '']);
		assert.equal(resolved.cwd, '/ws');
		assert.deepEqual(resolved.env, { A: 't0k-x', B: null }, 'null still removes the variable');
		assert.equal(resolved.envFile, '/ws/.env');
	});

	it('resolves the url and the headers of an HTTP server, asking for an input once per id', async () => {
		const asked: string[] = [];
		const withInput: VariableContext = { ...context, input: (id) => (asked.push(id), Promise.resolve(`secret-${id}`)) };
		const http = server({ url: 'https://${env:TOKEN}.example.test/mcp', headers: { Authorization: 'Bearer ${input:pat}', X: '${input:pat}' } });
		assert.deepEqual(inputsUsed(http), ['pat']);
		const resolved = await resolveVariables(http, withInput);
		assert.ok(!('message' in resolved) && resolved.transport === 'http');
		assert.equal(resolved.url, 'https://t0k.example.test/mcp');
		assert.deepEqual(resolved.headers, { Authorization: 'Bearer secret-pat', X: 'secret-pat' });
	});

	it('a variable that cannot be resolved fails that server with what was missing', async () => {
		const cases: [unknown, VariableContext, RegExp][] = [
			[{ command: 'x', args: ['${NOPE}'] }, context, /the environment variable NOPE is not set and \$\{NOPE\} gives no default/],
			[{ command: 'x', cwd: '${workspaceFolder}' }, { userHome: context.userHome, env: context.env }, /\$\{workspaceFolder\} is used, but no folder is open/],
			[{ url: 'https://a.test/${input:host}' }, context, /\$\{input:host\} was not given/],
			[{ command: 'x', args: ['${config:editor.fontSize}'] }, context, /\$\{config:editor\.fontSize\} is not a variable Aside knows/],
			[{ url: '${env:EMPTY}/mcp' }, context, /its url is not an http or https URL once its variables are resolved \(\/mcp\)/],
		];
		for (const [entry, given, expected] of cases) {
			const resolved = await resolveVariables(server(entry), given);
			assert.ok('message' in resolved, JSON.stringify(entry));
			assert.match(resolved.message, /^MCP server "s" \(aside\.mcp\.servers in your user settings\): /);
			assert.match(resolved.message, expected);
		}
	});

	it('a value the person declined leaves the server unresolved', async () => {
		const resolved = await resolveVariables(server({ command: 'x', env: { K: '${input:key}' } }), { ...context, input: () => Promise.resolve(undefined) });
		assert.ok('message' in resolved && /\$\{input:key\} was not given/.test(resolved.message));
	});
});
