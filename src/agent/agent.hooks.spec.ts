// The Agent's wiring of a chat's prompt hooks (the protocol itself: src/hooks/*.spec.ts over real
// processes): SessionStart runs with `startup` at a new chat's first message, `compact` at the
// first message after a manual compaction, `resume` at the first message in a reopened chat —
// each chat its own pending context — and never when a chat is merely created or opened.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { Emitter } from '../base/event';
import type { PromptHooks, SessionStartSource } from '../hooks/toolHooks';
import { compactChat, scriptedModels, testFeatures, testPorts } from '../testing/agentPorts';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { MemoryLibrary, testEnvironment } from '../testing/sessions';
import type { ChatMessage } from '../providers/messages';
import { Agent } from './agent';
import { ChatSessions } from './sessions';

/** The person's message as it went out: the last user message that is not a reminder. */
function prompt(messages: readonly ChatMessage[] | undefined): string | undefined {
	const texts = (messages ?? []).filter((message) => message.role === 'user').map((message) => message.content.map((part) => ('text' in part ? part.text : '')).join(''));
	return texts.filter((text) => !text.startsWith('<system-reminder')).at(-1);
}

function chat(t: TestContext) {
	const sources: SessionStartSource[] = [];
	const hooks: PromptHooks = {
		sessionStart: (source) => {
			sources.push(source);
			return Promise.resolve([{ event: 'SessionStart', text: `source ${source}` }]);
		},
		userPromptSubmit: () => Promise.resolve({ context: [] }),
		stop: () => Promise.resolve(undefined),
	};
	const provider = new ScriptedProvider();
	const models = { ...scriptedModels(provider), contextWindow: () => 100_000 };
	const sessions = new ChatSessions(new MemoryLibrary(), testEnvironment());
	const agent = new Agent(
		{ features: testFeatures(), sessions, models, settings: { current: { maxOutputTokens: 1000, maxSteps: 10, permissionMode: 'full-access' }, onDidChange: new Emitter<unknown>().event }, system: () => 'You are Aside.', prompt: hooks },
		testPorts(models),
	);
	t.after(() => {
		agent.dispose();
	});
	const send = async (text: string) => {
		provider.script({ text: 'ok' });
		const outcome = await agent.startTurn(text);
		assert.equal(outcome.outcome, 'done', outcome.error);
		return prompt(provider.requests.at(-1)?.messages);
	};
	return { sources, provider, sessions, agent, send };
}

const block = (source: string) => `<hook-context>\n<hook-event name="SessionStart">\nsource ${source}\n</hook-event>\n</hook-context>\n\n`;

describe('the Agent runs SessionStart when it is due', () => {
	it('startup at the first message, nothing at the second, compact after a manual compaction', async (t) => {
		const { sources, provider, agent, sessions, send } = chat(t);
		assert.deepEqual(sources, [], 'not when the chat is created');
		assert.equal(await send('one'), `${block('startup')}one`);
		assert.equal(await send('two'), 'two');
		provider.script({ text: 'We said one and two.' });
		assert.equal(await compactChat(agent, sessions.current), undefined);
		assert.deepEqual(sources, ['startup'], 'not at the compaction itself');
		assert.equal(await send('three'), `${block('compact')}three`);
		assert.deepEqual(sources, ['startup', 'compact']);
	});

	it('resume at the first message in a chat reopened from the history', async (t) => {
		const { sources, sessions, send } = chat(t);
		await send('one');
		const id = sessions.current.id;
		sessions.newSession();
		sessions.open(id);
		assert.deepEqual(sources, ['startup'], 'not when it is opened');
		assert.equal(await send('again'), `${block('resume')}again`);
		assert.deepEqual(sources, ['startup', 'resume']);
	});
});
