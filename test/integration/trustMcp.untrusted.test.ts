// MCP servers in Restricted Mode (the untrusted window, test/harness/integration.mjs): no server
// starts at all — not the workspace's `.mcp.json`, and not the person's own `aside.mcp.servers` —
// so no process is spawned and no MCP tool is offered, even after a message was sent. Sorted after
// trust.untrusted.test.ts on purpose: sending a message opens the network gate, which that file
// checks is still closed.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activeAside, workspaceFile } from './support';

describe('MCP servers in Restricted Mode', () => {
	const dir = mkdtempSync(join(tmpdir(), 'aside-mcp-untrusted-'));
	const mcp = () => vscode.workspace.getConfiguration('aside.mcp');
	/** A server that leaves a file named `name` in `dir` as soon as it is started. */
	const marker = (name: string) => ({ command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(join(dir, name))}, 'ran')`] });

	after(async () => {
		await mcp().update('servers', undefined, vscode.ConfigurationTarget.Global);
		rmSync(workspaceFile('.mcp.json').fsPath, { force: true });
		rmSync(dir, { recursive: true, force: true });
	});

	it('starts neither the workspace\'s servers nor the person\'s own, and offers no MCP tool', async () => {
		const { api, hooks } = await activeAside();
		assert.equal(vscode.workspace.isTrusted, false);
		assert.ok(hooks.mcp);
		writeFileSync(workspaceFile('.mcp.json').fsPath, JSON.stringify({ mcpServers: { repo: marker('workspace-server') } }));
		await mcp().update('servers', { mine: marker('user-server') }, vscode.ConfigurationTarget.Global);
		hooks.mcp.answerApprovals(true);
		await vscode.commands.executeCommand('aside.newChat');
		const result = await api.sendMessage('Hello, MCP.');
		assert.equal(result.outcome, 'done', result.error);
		// Long enough for a spawned server to have written its file.
		await new Promise((resolve) => setTimeout(resolve, 1500));
		assert.deepEqual(readdirSync(dir), [], 'no server process ran');
		assert.deepEqual(hooks.mcp.tools(), []);
		assert.deepEqual(hooks.mcp.asked(), [], 'nothing was even asked');
		assert.deepEqual(hooks.mcp.servers().map((server) => server.name), ['mine'], 'the workspace file is not read');
		hooks.mcp.answerApprovals(undefined);
	});
});
