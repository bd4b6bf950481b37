// After the window reload: a fresh extension host activated with the user settings (and a key)
// for the harness's server A and the workspace's settings pointing at its server B, as
// origins.test.ts left them. At activation Aside lists B's models: without A's key.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeAside, driver, hasDriver } from './support';

interface OriginRequest {
	readonly method: string;
	readonly path: string;
	readonly authorization: string | null;
	readonly apiKey: string | null;
}

async function requestsAt(which: 'a' | 'b'): Promise<OriginRequest[]> {
	return (await driver<{ requests: OriginRequest[] }>('originRequests', { which })).requests;
}

async function requestsUntil(which: 'a' | 'b', done: (requests: OriginRequest[]) => boolean, what: string): Promise<OriginRequest[]> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const requests = await requestsAt(which);
		if (done(requests)) {
			return requests;
		}
		if (Date.now() > deadline) {
			throw new Error(`timed out waiting for ${what}; server ${which} got ${JSON.stringify(requests)}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

describe('after the reload, a workspace pointing Aside at another server', function () {
	before(function () {
		if (!hasDriver) {
			this.skip();
		}
	});

	after(async () => {
		const aside = vscode.workspace.getConfiguration('aside');
		await aside.update('baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
		for (const key of ['provider', 'baseUrl', 'model']) {
			await aside.update(key, undefined, vscode.ConfigurationTarget.Global);
		}
		const servers = JSON.parse(process.env.ASIDE_ORIGIN_SERVERS ?? '{}') as { a?: string };
		if (servers.a) {
			const { hooks } = await activeAside();
			await hooks.storeApiKey('openai-compatible', servers.a, undefined);
		}
	});

	it('gets no key at activation; the key stored for A is still there, and goes to A only', async () => {
		const servers = JSON.parse(process.env.ASIDE_ORIGIN_SERVERS ?? '{}') as { a?: string; b?: string };
		assert.ok(servers.a && servers.b, 'the harness runs the origin servers');
		assert.equal(vscode.workspace.getConfiguration('aside').inspect('baseUrl')?.workspaceValue, `${servers.b}/v1`, 'the workspace setting survived the reload');
		await activeAside();
		const atB = await requestsUntil('b', (requests) => requests.some((request) => request.path === '/v1/models'), 'the model list at activation');
		assert.deepEqual(atB.filter((request) => request.authorization !== null || request.apiKey !== null), [], 'B never saw a key');

		// The key was there all along: with the workspace setting gone, A gets it.
		const before = (await requestsAt('a')).length;
		await vscode.workspace.getConfiguration('aside').update('baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
		const atA = await requestsUntil('a', (requests) => requests.length > before, 'the refresh at A');
		assert.equal(atA.at(-1)?.authorization, 'Bearer sk-reload-a');
	});
});
