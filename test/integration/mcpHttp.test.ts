// An MCP server over Streamable HTTP in the real workbench: server-everything (a pinned dev
// dependency) started by the test on a loopback port and configured in the user settings as an
// `http` server. A long-running tool that reports progress outlives a request timeout shorter than
// the whole call (each progress notification starts it again) and shows a bar on its row; Stop
// (the aside.stop command) ends a long call at once; a result past the bound reaches the model
// bounded, with its whole text kept in a file the model then opens with Read.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { httpEverything } from '../../src/testing/everything';
import { unusedPort } from '../../src/testing/loopbackPort';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, driver, hasDriver, lastUserText, until, useScriptedServer } from './support';

type Request = ModelServer['requests'][number];

function messagesRequests(server: ModelServer): Request[] {
	return server.requests.filter((request) => request.path === '/v1/messages');
}

describe('an MCP server over Streamable HTTP in the real workbench', function () {
	this.timeout(120_000);
	let server: ModelServer;
	let restore: () => Promise<void>;
	let everything: ChildProcess | undefined;
	const mcp = () => vscode.workspace.getConfiguration('aside.mcp');
	/** The calls approved so far. */
	const approved = new Set<string>();
	/** Approves each card of these calls as it comes, until the returned function is called. */
	const approving = async (...ids: string[]) => {
		const { hooks } = await activeAside();
		const timer = setInterval(() => {
			const pending = hooks.pendingApproval();
			if (pending !== undefined && ids.includes(pending)) {
				hooks.approve(pending, true);
				approved.add(pending);
			}
		}, 50);
		return () => {
			clearInterval(timer);
		};
	};

	before(async () => {
		const port = await unusedPort();
		everything = await httpEverything(port);
		server = await startModelServer({ models: ['claude-scripted'] });
		restore = await useScriptedServer(server, { provider: 'anthropic', model: 'claude-scripted', mode: 'ask', apiKey: 'sk-test-mcp-http' });
		await mcp().update('servers', { web: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } }, vscode.ConfigurationTarget.Global);
		// Shorter than the long calls below: only their progress keeps them alive.
		await mcp().update('requestTimeoutMs', 1500, vscode.ConfigurationTarget.Global);
		await vscode.commands.executeCommand('aside.newChat');
		if (hasDriver) {
			await vscode.commands.executeCommand('aside.focusChat');
			await driver('readChat');
		}
	});

	after(async () => {
		await mcp().update('requestTimeoutMs', undefined, vscode.ConfigurationTarget.Global);
		await mcp().update('servers', undefined, vscode.ConfigurationTarget.Global);
		await restore();
		await server.close();
		everything?.kill();
	});

	it('a long call with progress outlives a shorter request timeout, with a bar on its row while it runs', async () => {
		const { api } = await activeAside();
		const call = { id: 'toolu_long', name: 'mcp__web__trigger-long-running-operation', input: { duration: 4, steps: 8 } };
		server.script({ toolCalls: [call] }, { text: 'It finished.' });
		const before = messagesRequests(server).length;
		const stop = await approving('toolu_long');
		try {
			const sent = api.sendMessage('Run the long operation over HTTP.');
			if (hasDriver) {
				const { valueNow, label } = await driver<{ valueNow: number; label: string }>('readProgress');
				assert.equal(label, 'mcp__web__trigger-long-running-operation progress');
				assert.ok(valueNow > 0 && valueNow <= 100, `the bar at ${valueNow}%`);
			}
			const result = await sent;
			assert.equal(result.outcome, 'done', result.error);
		} finally {
			stop();
		}
		const requests = messagesRequests(server).slice(before);
		assert.match(lastUserText(requests[1]), /Long running operation completed\. Duration: 4 seconds, Steps: 8\./, '4 s of calls under a 1.5 s timeout');
	});

	it('Stop ends a long call at once, and the chat can go on', async () => {
		const { api, hooks } = await activeAside();
		server.script({ toolCalls: [{ id: 'toolu_endless', name: 'mcp__web__trigger-long-running-operation', input: { duration: 60, steps: 60 } }] });
		const stop = await approving('toolu_endless');
		try {
			const sent = api.sendMessage('Run a very long operation.');
			await until(() => approved.has('toolu_endless'), (yes) => yes, 'the call to be allowed', 60_000);
			// A progress notification or two: the call is running on the server.
			await new Promise((resolve) => setTimeout(resolve, 2500));
			const stoppedAt = Date.now();
			await vscode.commands.executeCommand('aside.stop');
			const result = await sent;
			assert.equal(result.outcome, 'interrupted');
			assert.ok(Date.now() - stoppedAt < 10_000, `stopped after ${Date.now() - stoppedAt} ms, not the call's 60 s`);
		} finally {
			stop();
		}
		assert.equal(hooks.agentBusy(), false);
		server.script({ text: 'Still here.' });
		assert.equal((await api.sendMessage('Are you there?')).outcome, 'done');
	});

	it('a result past the bound reaches the model bounded, and Read opens the whole of it from the file it names', async () => {
		const { api } = await activeAside();
		const message = Array.from({ length: 6000 }, (_, n) => `line ${n + 1} of a long echo`).join('\n');
		server.script({ toolCalls: [{ id: 'toolu_big', name: 'mcp__web__echo', input: { message } }] }, { text: 'Long.' });
		const before = messagesRequests(server).length;
		const stop = await approving('toolu_big');
		try {
			assert.equal((await api.sendMessage('Echo something long.')).outcome, 'done');
		} finally {
			stop();
		}
		const bounded = lastUserText(messagesRequests(server).slice(before)[1]);
		assert.ok(bounded.length < message.length, `bounded: ${bounded.length} of ${message.length}: ${bounded.slice(0, 200)} … ${bounded.slice(-300)}`);
		const path = /The whole result \([^)]+\) is kept in (\S+): read it with Read/.exec(bounded)?.[1];
		assert.ok(path !== undefined && existsSync(path), bounded.slice(-400));
		assert.equal(readFileSync(path, 'utf8'), `Echo: ${message}`);
		// Read of a file outside the workspace folders: no card in ask mode, as Read never asks.
		server.script({ toolCalls: [{ id: 'toolu_rest', name: 'Read', input: { path, offset: 3000, limit: 2 } }] }, { text: 'Read the rest.' });
		const next = messagesRequests(server).length;
		assert.equal((await api.sendMessage('Read the middle.')).outcome, 'done');
		assert.match(lastUserText(messagesRequests(server).slice(next)[1]), /3000\tline 3000 of a long echo\n\s*3001\tline 3001 of a long echo/);
	});
});
