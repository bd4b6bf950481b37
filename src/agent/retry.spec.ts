// Retry after a failed turn: the same message goes out again as a new message that names the
// turn it retries; a failed turn that never reached the model is not replayed, so the model reads
// the message once; only the chat's last turn, when it failed, and never while the agent works.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProviderError } from '../providers/provider';
import { scriptedModels, testAgent } from '../testing/agentPorts';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { testSessions } from '../testing/sessions';

function userTexts(request: { readonly messages: readonly { readonly role: string; readonly content: unknown }[] } | undefined): string[] {
	return (request?.messages ?? []).flatMap((message) =>
		message.role === 'user' && Array.isArray(message.content) ? (message.content as { type: string; text?: string }[]).flatMap((part) => (part.type === 'text' && part.text !== undefined && !part.text.startsWith('<system-reminder') ? [part.text] : [])) : [],
	);
}

const until = async (done: () => boolean): Promise<void> => {
	for (let i = 0; i < 100 && !done(); i++) {
		await new Promise((resolve) => setImmediate(resolve));
	}
};

describe('Retry after a failed turn', () => {
	it('sends the same message again; the model reads it once when the failed turn never reached it', async () => {
		const provider = new ScriptedProvider({ failBefore: new ProviderError('auth', 'The key was refused (401).') }, { text: 'Renamed.' });
		const agent = testAgent(scriptedModels(provider));
		const failed = await agent.startTurn('Rename greet to welcome @src/greeting.ts');
		assert.equal(failed.outcome, 'failed');
		assert.equal(agent.retry(failed.turnId), undefined);
		await until(() => !agent.isRunning && provider.requests.length === 2);
		assert.equal(provider.requests.length, 2);
		assert.deepEqual(userTexts(provider.requests[1]), ['Rename greet to welcome @src/greeting.ts'], 'once, not twice');
		assert.deepEqual(provider.requests[1]?.messages.filter((message) => message.role === 'assistant'), []);
	});

	it('a message a slash command made (an MCP prompt) is retried with its command, so its row still names it', async () => {
		const provider = new ScriptedProvider({ failBefore: new ProviderError('network', 'The connection was refused.') }, { text: 'Reviewed.' });
		const sessions = testSessions(new FakeClock(), new SequentialIds('s'));
		const agent = testAgent(scriptedModels(provider), sessions);
		const failed = await agent.startTurn('Review this code: let x = 1', { command: '/mcp.everything.simple-prompt' });
		assert.equal(failed.outcome, 'failed');
		assert.equal(agent.retry(failed.turnId), undefined);
		await until(() => !agent.isRunning && provider.requests.length === 2);
		const users = sessions.current.records.filter((record) => record.kind === 'user');
		assert.deepEqual(users.map((record) => [record.text, record.command, record.retryOf]), [
			['Review this code: let x = 1', '/mcp.everything.simple-prompt', undefined],
			['Review this code: let x = 1', '/mcp.everything.simple-prompt', failed.turnId],
		]);
	});

	it('keeps both messages when the failed turn got part of the way (its work is in the history)', async () => {
		const provider = new ScriptedProvider({ failAfter: new ProviderError('network', 'The connection was cut.'), partial: 'I will start by' }, { text: 'Done now.' });
		const agent = testAgent(scriptedModels(provider));
		const failed = await agent.startTurn('Do the thing');
		assert.equal(failed.outcome, 'failed');
		assert.equal(agent.retry(failed.turnId), undefined);
		await until(() => !agent.isRunning && provider.requests.length === 2);
		assert.deepEqual(userTexts(provider.requests[1]), ['Do the thing', 'Do the thing']);
	});

	it('refuses a turn that did not fail, one that is not the last, and while the agent works', async () => {
		const provider = new ScriptedProvider({ text: 'Fine.' }, { failBefore: new ProviderError('server', 'Bad gateway.', { status: 400 }) }, { hang: 'Working' });
		const agent = testAgent(scriptedModels(provider));
		const done = await agent.startTurn('first');
		assert.match(agent.retry(done.turnId) ?? '', /Only a turn that failed/);
		const failed = await agent.startTurn('second');
		assert.equal(failed.outcome, 'failed');
		assert.match(agent.retry('no-such-turn') ?? '', /no longer in this chat/);
		const running = agent.startTurn('third');
		assert.match(agent.retry(failed.turnId) ?? '', /The agent is working/);
		agent.stop();
		await running;
		assert.match(agent.retry(failed.turnId) ?? '', /Only the chat's last turn/);
	});
});
