// An MCP server asking during a tool call in the real workbench: server-everything (a pinned dev
// dependency, over stdio) samples the model and asks for a form; the cards wait in the chat that
// made the call; Allow is clicked on the card in the chat view, the form answered through the test
// hooks (the same router.answer as the card's buttons). The scripted model server gets the sampling
// request with the server's prompt alone (no chat, no reminders, no tools) only after Allow; the
// tool results carry the model's text and the form's values with the schema's defaults; Stop of
// the call ends a waiting card; Deny and Decline clicked on the sampling, form and URL cards tell
// the server no and ask the model nothing; with `aside.mcp.sampling: off` the server gets an error
// and the model is not asked.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { initialEntries } from '../../src/vocabulary/elicitationForm';
import { type ModelServer } from '../harness/modelServer.mjs';
import { activeAside, driver, hasDriver, lastUserText, until, useMcpChat } from './support';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

type Request = ModelServer['requests'][number];

function messagesRequests(server: ModelServer): Request[] {
	return server.requests.filter((request) => request.path === '/v1/messages');
}

describe('an MCP server asks during a tool call in the real workbench', function () {
	this.timeout(120_000);
	let server: ModelServer;
	let close: () => Promise<void>;
	const mcp = () => vscode.workspace.getConfiguration('aside.mcp');
	/** Allows each tool call card of these ids as it comes, until the returned function is called. */
	const approving = async (...ids: string[]) => {
		const { hooks } = await activeAside();
		const timer = setInterval(() => {
			const pending = hooks.pendingApproval();
			if (pending !== undefined && ids.includes(pending)) {
				hooks.approve(pending, true);
			}
		}, 50);
		return () => {
			clearInterval(timer);
		};
	};
	const waitingCard = async () => {
		const { hooks } = await activeAside();
		const [card] = await until(() => hooks.mcp?.requests() ?? [], (cards) => cards.length > 0, 'a request card', 60_000);
		assert.ok(card);
		return card;
	};

	before(async () => {
		({ server, close } = await useMcpChat({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }, 'sk-test-mcp-requests'));
	});

	after(async () => {
		await mcp().update('sampling', undefined, vscode.ConfigurationTarget.Global);
		await close();
	});

	it('sampling waits on a card in the calling chat; after Allow the model answers the server\'s prompt alone, and the result carries its text', async () => {
		const { api, hooks } = await activeAside();
		const call = { id: 'toolu_sample', name: 'mcp__everything__trigger-sampling-request', input: { prompt: 'What is 2+2?', maxTokens: 40 } };
		server.script({ toolCalls: [call] }, { text: 'Four, says the sampled model.' }, { text: 'The server got its answer.' });
		const before = messagesRequests(server).length;
		const stop = await approving('toolu_sample');
		try {
			const sent = api.sendMessage('Ask the server to sample the model.');
			const card = await waitingCard();
			assert.equal(card.chat, hooks.currentSessionId(), 'in the chat that made the call');
			assert.equal(card.view.kind, 'sampling');
			assert.equal(card.view.server, 'everything');
			assert.equal(card.view.request.systemPrompt, 'You are a helpful test server.');
			assert.equal(card.view.request.maxTokens, 40);
			assert.match(card.view.model ?? '', /claude-scripted/);
			assert.equal(messagesRequests(server).length, before + 1, 'the model is not asked before Allow');
			// The person's click on the card's Allow in the chat view, where the browser driver runs.
			if (hasDriver) {
				await driver('clickInChat', { name: 'Allow' });
			} else {
				assert.equal(hooks.mcp?.answerRequest(card.view.id, 'accept'), undefined);
			}
			const result = await sent;
			assert.equal(result.outcome, 'done', result.error);
		} finally {
			stop();
		}
		const requests = messagesRequests(server).slice(before);
		assert.equal(requests.length, 3);
		const sampling = requests[1]?.body as { system?: unknown; messages?: unknown[]; tools?: unknown[]; max_tokens?: number };
		assert.equal(JSON.stringify(sampling.system).includes('You are a helpful test server.'), true, JSON.stringify(sampling.system));
		assert.equal(sampling.messages?.length, 1, JSON.stringify(sampling.messages));
		assert.match(JSON.stringify(sampling.messages), /Resource trigger-sampling-request context: What is 2\+2\?/);
		assert.doesNotMatch(JSON.stringify(sampling), /Ask the server to sample|system-reminder|mcp__everything/, 'nothing of the chat');
		assert.equal(sampling.tools?.length ?? 0, 0, 'no tools');
		assert.equal(sampling.max_tokens, 40);
		assert.match(lastUserText(requests[2]), /Four, says the sampled model\./, 'the tool result carries the model\'s text');
		assert.doesNotMatch(JSON.stringify(requests[2]?.body), /You are a helpful test server/, 'the exchange stays out of the chat');
		assert.deepEqual(hooks.mcp?.requests(), []);
	});

	it('a form opens with the schema\'s defaults, refuses what is incomplete, and the result carries the values', async () => {
		const { api, hooks } = await activeAside();
		server.script({ toolCalls: [{ id: 'toolu_form', name: 'mcp__everything__trigger-elicitation-request', input: {} }] }, { text: 'Thanks for the details.' });
		const before = messagesRequests(server).length;
		const stop = await approving('toolu_form');
		try {
			const sent = api.sendMessage('Ask me for my details.');
			const card = await waitingCard();
			assert.equal(card.view.kind, 'form');
			const opened = initialEntries(card.view.fields);
			assert.equal(opened.firstLine, 'It was a dark and stormy night.');
			assert.equal(opened.integer, '42');
			assert.equal(opened.titledSingleSelectEnum, 'hero-1');
			assert.match(hooks.mcp?.answerRequest(card.view.id, 'accept', opened) ?? '', /^The form is not complete: name: Required\./);
			assert.equal(hooks.mcp?.requests().length, 1, 'still waiting');
			assert.equal(hooks.mcp.answerRequest(card.view.id, 'accept', { ...opened, name: 'Ada Lovelace', email: 'ada@example.com', check: true }), undefined);
			assert.equal((await sent).outcome, 'done');
		} finally {
			stop();
		}
		const result = lastUserText(messagesRequests(server).slice(before)[1]);
		assert.match(result, /User provided the requested information/);
		assert.match(result, /- Name: Ada Lovelace/);
		assert.match(result, /- Email: ada@example\.com/);
		assert.match(result, /- Favorite Integer: 42/, 'the default');
		assert.match(result, /"firstLine": "It was a dark and stormy night\."/);
	});

	/** Runs one scripted call of `tool` and answers its card with the button `label` (`action` without the browser driver). */
	const declineCard = async (id: string, tool: string, input: object, label: string, kind: string) => {
		const { api, hooks } = await activeAside();
		server.script({ toolCalls: [{ id, name: `mcp__everything__${tool}`, input }] }, { text: 'Understood, you said no.' });
		const before = messagesRequests(server).length;
		const stop = await approving(id);
		try {
			const sent = api.sendMessage(`Call ${tool}; I will say no.`);
			const card = await waitingCard();
			assert.equal(card.view.kind, kind);
			if (hasDriver) {
				await driver('clickInChat', { name: label });
			} else {
				assert.equal(hooks.mcp?.answerRequest(card.view.id, 'decline'), undefined);
			}
			const result = await sent;
			assert.equal(result.outcome, 'done', result.error);
		} finally {
			stop();
		}
		assert.deepEqual(hooks.mcp?.requests(), [], 'the card is gone');
		return messagesRequests(server).slice(before);
	};

	it('Deny on a sampling card asks the model nothing, and the server is told the person denied it', async () => {
		const requests = await declineCard('toolu_deny', 'trigger-sampling-request', { prompt: 'Say yes.' }, 'Deny', 'sampling');
		assert.equal(requests.length, 2, 'no sampling request between the call and its result');
		assert.doesNotMatch(JSON.stringify(requests[1]?.body), /Resource trigger-sampling-request context: Say yes\./);
		assert.match(lastUserText(requests[1]), /The person denied the sampling request\./);
	});

	it('Decline on a form sends no values, and the result says the person declined', async () => {
		const requests = await declineCard('toolu_no_form', 'trigger-elicitation-request', {}, 'Decline', 'form');
		const result = lastUserText(requests[1]);
		assert.match(result, /User declined to provide the requested information\./);
		assert.doesNotMatch(result, /User inputs:/);
	});

	it('Decline on a URL card opens nothing, and the result says the person declined to open it', async () => {
		const requests = await declineCard('toolu_no_url', 'trigger-url-elicitation', { url: 'https://example.invalid/consent', message: 'Approve the scopes.' }, 'Decline', 'url');
		assert.match(lastUserText(requests[1]), /User declined to open the URL/);
	});

	it('Stop of the tool call ends its waiting card', async () => {
		const { api, hooks } = await activeAside();
		server.script({ toolCalls: [{ id: 'toolu_stopped', name: 'mcp__everything__trigger-elicitation-request', input: {} }] });
		const stop = await approving('toolu_stopped');
		try {
			const sent = api.sendMessage('Ask me, then I stop.');
			await waitingCard();
			await vscode.commands.executeCommand('aside.stop');
			assert.equal((await sent).outcome, 'interrupted');
		} finally {
			stop();
		}
		await until(() => hooks.mcp?.requests() ?? [], (cards) => cards.length === 0, 'the card to go', 20_000);
	});

	it('with aside.mcp.sampling off the server gets an error, and the model is asked nothing for it', async () => {
		const { api, hooks } = await activeAside();
		await mcp().update('sampling', 'off', vscode.ConfigurationTarget.Global);
		server.script({ toolCalls: [{ id: 'toolu_off', name: 'mcp__everything__trigger-sampling-request', input: { prompt: 'Anyone?' } }] }, { text: 'Sampling is off.' });
		const before = messagesRequests(server).length;
		const stop = await approving('toolu_off');
		try {
			assert.equal((await api.sendMessage('Try sampling again.')).outcome, 'done');
		} finally {
			stop();
		}
		const requests = messagesRequests(server).slice(before);
		assert.equal(requests.length, 2, 'no sampling request');
		assert.match(lastUserText(requests[1]), /Sampling is turned off in Aside \(aside\.mcp\.sampling is "off"\)/);
		assert.deepEqual(hooks.mcp?.requests(), []);
	});
});
