// Agent profiles in Restricted Mode (the untrusted window, test/harness/integration.mjs): a
// workspace's `.aside/agents/` files are not read — a cloned repository must not hand the agent
// its role prompts before the person trusts it — while the user's own folder still is.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activeAside, workspaceFile } from './support';

const profile = (name: string) => `---\nname: ${name}\ndescription: The ${name} agent.\n---\nYou are ${name}.\n`;

describe('agent profiles in Restricted Mode', () => {
	after(() => {
		rmSync(workspaceFile('.aside').fsPath, { recursive: true, force: true });
		rmSync(join(homedir(), '.aside'), { recursive: true, force: true });
	});

	it('the workspace\'s profile files are not read; the user\'s are', async () => {
		const { hooks } = await activeAside();
		assert.equal(vscode.workspace.isTrusted, false);
		const workspaceAgents = workspaceFile('.aside/agents').fsPath;
		mkdirSync(workspaceAgents, { recursive: true });
		writeFileSync(join(workspaceAgents, 'repo-helper.md'), profile('repo-helper'));
		const userAgents = join(homedir(), '.aside', 'agents');
		mkdirSync(userAgents, { recursive: true });
		writeFileSync(join(userAgents, 'my-helper.md'), profile('my-helper'));
		hooks.reloadAgentProfiles();
		assert.deepEqual(hooks.agentProfiles().names, ['explore', 'general', 'verify', 'my-helper']);
	});
});
