// AskUserQuestion in the real workbench with the scripted model: in Plan mode the model asks two
// questions, the card in the chat view is answered there (an option, several options and words of
// the person's own), and the next request carries the answers as the call's tool_result; Stop ends a
// waiting question: the call answers that it was cancelled and the card's record says so.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelServer } from '../harness/modelServer.mjs';
import { activeAside, driver, hasDriver, lastUserText, transcriptLines, until, useScriptedChat } from './support';

type Request = ModelServer['requests'][number];

const QUESTIONS = [
	{ question: 'Which database?', header: 'Database', options: [{ label: 'Postgres', description: 'What production runs.' }, { label: 'SQLite', description: 'One file, no server.' }] },
	{ question: 'Which features first?', header: 'Scope', multiSelect: true, options: [{ label: 'Sign-in', description: 'Accounts.' }, { label: 'Search', description: 'Full text.' }, { label: 'Export', description: 'CSV.' }] },
];

function messagesRequests(server: ModelServer): Request[] {
	return server.requests.filter((request) => request.path === '/v1/messages');
}

function toolNames(request: Request | undefined): string[] {
	return ((request?.body as { tools?: { name: string }[] } | undefined)?.tools ?? []).map((tool) => tool.name);
}

describe('AskUserQuestion in the real workbench', function () {
	this.timeout(120_000);
	let server: ModelServer;
	let close: () => Promise<void>;

	before(async () => {
		({ server, close } = await useScriptedChat('plan', 'sk-test-questions'));
	});

	after(async () => {
		await close();
	});

	it('in Plan mode the model asks, the card is answered in the chat, and the next request carries the answers as the tool result', async function () {
		if (!hasDriver) {
			this.skip();
		}
		const { api } = await activeAside();
		server.script({ toolCalls: [{ id: 'toolu_ask', name: 'AskUserQuestion', input: { questions: QUESTIONS } }] }, { text: 'SQLite, with sign-in and search first.' });
		const before = messagesRequests(server).length;
		const sent = api.sendMessage('Plan the storage for the notes service.');
		// The person, in the chat view: an option, two options, and words of their own.
		await driver('checkInChat', { role: 'radio', name: 'SQLite' });
		await driver('checkInChat', { role: 'checkbox', name: 'Sign-in' });
		await driver('checkInChat', { role: 'checkbox', name: 'Search' });
		await driver('checkInChat', { role: 'textbox', name: 'Your own answer to question 2', value: 'tags, later' });
		await driver('clickInChat', { name: 'Submit answers' });
		const result = await sent;
		assert.equal(result.outcome, 'done', result.error);
		const requests = messagesRequests(server).slice(before);
		assert.equal(requests.length, 2);
		assert.ok(toolNames(requests[0]).includes('AskUserQuestion'), `offered in Plan mode: ${toolNames(requests[0]).join(', ')}`);
		assert.ok(!toolNames(requests[0]).includes('Edit'), 'Plan mode indeed');
		const body = requests[1]?.body as { messages: { role: string; content: { type: string; tool_use_id?: string; content?: unknown }[] }[] };
		const answered = body.messages.at(-1)?.content.find((block) => block.type === 'tool_result' && block.tool_use_id === 'toolu_ask');
		assert.ok(answered, 'the answers are the call\'s tool_result');
		assert.equal(
			lastUserText(requests[1]).split('\n\n')[0],
			[
				'The user answered your questions (each answer is an option label you gave, or the user\'s own words):',
				'1. [Database] "Which database?" → "SQLite"',
				'2. [Scope] "Which features first?" → "Sign-in", "Search", in their own words: "tags, later"',
			].join('\n'),
		);
	});

	it('Stop cancels a waiting question: the card goes, and the call answers that it was cancelled', async () => {
		const { api, hooks } = await activeAside();
		server.script({ toolCalls: [{ id: 'toolu_stopped', name: 'AskUserQuestion', input: { questions: [QUESTIONS[0]] } }] });
		const sent = api.sendMessage('Ask me, then I stop.');
		// The chat's `question` records, as the transcript holds them (none before its file exists).
		const changes = () => {
			try {
				return transcriptLines(hooks.sessionsDir, hooks.currentSessionId()).filter((line) => line.kind === 'question').map((line) => line.change);
			} catch {
				return [];
			}
		};
		const asked = (lines: readonly unknown[]) => lines.filter((change) => change === 'asked').length;
		await until(changes, (lines) => asked(lines) >= (hasDriver ? 2 : 1) && lines.at(-1) === 'asked', 'the question to wait', 60_000);
		await vscode.commands.executeCommand('aside.stop');
		assert.equal((await sent).outcome, 'interrupted');
		await until(changes, (lines) => lines.at(-1) === 'cancelled', 'the card to be cancelled', 20_000);
		const result = transcriptLines(hooks.sessionsDir, hooks.currentSessionId()).find((line) => line.kind === 'tool-result' && line.callId === 'toolu_stopped');
		assert.equal(result?.content, 'AskUserQuestion was cancelled before it finished.');
	});
});
