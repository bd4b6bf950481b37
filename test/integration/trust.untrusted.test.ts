// Restricted Mode for real: a second code-server with workspace trust on opens the workspace
// untrusted (test/harness/integration.mjs, phase 'untrusted'). The user settings point Aside at
// the harness's server `user`, the workspace's .vscode/settings.json at `workspace`, and the
// local-server probe at `local`. Until the person acts, none of them hears from Aside; then
// only `user` does: VS Code ignores the workspace's provider settings in Restricted Mode.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { RESTRICTED_DETAIL } from '../../src/agent/networkGate';
import { activeAside, driver, workspaceFile } from './support';

interface OriginRequest {
	readonly method: string;
	readonly path: string;
	/** The tools a chat request offered, by name. */
	readonly tools: readonly string[] | null;
}

async function requestsAt(which: 'user' | 'workspace' | 'local'): Promise<OriginRequest[]> {
	return (await driver<{ requests: OriginRequest[] }>('originRequests', { which })).requests;
}

describe('Restricted Mode: an untrusted workspace', () => {
	it('opens untrusted, and the workspace\'s own provider settings are ignored', () => {
		assert.equal(vscode.workspace.isTrusted, false);
		const written = JSON.parse(readFileSync(workspaceFile('.vscode/settings.json').fsPath, 'utf8')) as Record<string, string>;
		assert.match(written['aside.baseUrl'] ?? '', /^http:\/\/127\.0\.0\.1:\d+\/v1$/, 'the workspace does set one');
		const baseUrl = vscode.workspace.getConfiguration('aside').inspect<string>('baseUrl');
		assert.equal(baseUrl?.workspaceValue, undefined, 'restricted: VS Code does not apply it');
		assert.notEqual(baseUrl?.globalValue, written['aside.baseUrl']);
		assert.equal(vscode.workspace.getConfiguration('aside').get('baseUrl'), baseUrl?.globalValue, 'the user\'s applies');
	});

	it('Aside contacts no server at activation, nor when the chat opens', async () => {
		const { hooks } = await activeAside();
		await vscode.commands.executeCommand('aside.focusChat');
		// Settled: the model list was answered by the gate (or, were it open, a server was asked).
		const deadline = Date.now() + 60_000;
		const all = async () => [...(await requestsAt('user')), ...(await requestsAt('workspace')), ...(await requestsAt('local'))];
		while (hooks.agentStatus().detail !== RESTRICTED_DETAIL && (await all()).length === 0 && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		await driver('readChat');
		for (const which of ['user', 'workspace', 'local'] as const) {
			assert.deepEqual(await requestsAt(which), [], `nothing reached the ${which} server`);
		}
		assert.equal(hooks.agentStatus().detail, RESTRICTED_DETAIL, 'the chat says why nothing answers yet');
		assert.equal(hooks.networkAllowed(), false);
	});

	it('a message the person sends goes out, to the user\'s server only', async () => {
		const { api, hooks } = await activeAside();
		const result = await api.sendMessage('Hello from Restricted Mode.');
		assert.equal(result.outcome, 'done', result.error);
		assert.equal(hooks.networkAllowed(), true);
		const chat = (await requestsAt('user')).find((request) => request.path === '/v1/chat/completions');
		assert.ok(chat);
		// Only the tools that read: no Run, none of its background processes' (RunOutput, RunStop), no WebFetch.
		assert.ok(chat.tools?.includes('Read'), `the request offered ${JSON.stringify(chat.tools)}`);
		assert.deepEqual((chat.tools ?? []).filter((name) => /^(Run|RunOutput|RunStop|Edit|Write|ApplyPatch|WebFetch)$/.test(name)), []);
		assert.deepEqual(await requestsAt('workspace'), [], 'the workspace\'s URL is never used');
	});
});
