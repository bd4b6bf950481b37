// The first run in the real bundle: when nothing can answer, the empty state offers the ways on
// (store the missing key, use a local server the host found, choose a provider) as buttons
// that work by mouse and keyboard and post the host's setup messages.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseViewMessage, type SetupView } from '../../src/protocol/messages';
import { agentView, assertCleanAndClose, openChat, postedOf, useHarness, viewState } from './page';

const unavailable = agentView({ status: { state: 'unavailable', detail: 'No chat model is available in VS Code.' } });

describe('first run: the empty state offers actions', () => {
	const harness = useHarness();

	it('offers "Choose a provider" when nothing can answer, even from a host that sends no setup', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: unavailable }));
		const { page } = chat;
		const actions = page.locator('.empty-state-actions button');
		assert.deepEqual(await actions.allInnerTexts(), ['Choose a provider']);
		await page.getByRole('button', { name: 'Choose a provider' }).click();
		const [posted] = await chat.waitForPosted('provider.choose');
		assert.deepEqual(posted, { type: 'provider.choose' });
		assert.ok(parseViewMessage(posted).ok);
		await assertCleanAndClose(chat);
	});

	it('offers the missing key, then each local server found, then the choice; by keyboard too', async () => {
		const setup: SetupView = {
			keyNeeded: { provider: 'Anthropic', origin: 'http://127.0.0.1:4000' },
			detected: [
				{ id: 'ollama', label: 'Use Ollama on localhost:11434 (3 models)' },
				{ id: 'lmstudio', label: 'Use LM Studio on localhost:1234 (1 model) <img src=x onerror="window.__pwned=1">' },
			],
		};
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: unavailable, setup }));
		const { page } = chat;
		const actions = page.locator('.empty-state-actions button');
		assert.deepEqual(await actions.allInnerTexts(), [
			'Store an Anthropic API key for http://127.0.0.1:4000',
			'Use Ollama on localhost:11434 (3 models)',
			'Use LM Studio on localhost:1234 (1 model) <img src=x onerror="window.__pwned=1">',
			'Choose a provider',
		]);
		assert.equal(await page.locator('.empty-state img').count(), 0, 'labels are text');
		assert.equal(await actions.first().getAttribute('class'), 'button-primary', 'the first way on stands out');

		// Tab order reaches every action; Enter and Space press them.
		await actions.first().focus();
		await page.keyboard.press('Enter');
		await page.keyboard.press('Tab');
		await page.keyboard.press('Space');
		await page.keyboard.press('Tab');
		await page.keyboard.press('Tab');
		await page.keyboard.press('Enter');
		assert.deepEqual(
			(await chat.posted()).filter((message) => message.type !== 'ready'),
			[{ type: 'apiKey.store' }, { type: 'provider.useDetected', id: 'ollama' }, { type: 'provider.choose' }],
		);
		assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
		await assertCleanAndClose(chat);
	});

	it('follows setup deltas, keeping the focus on the action it was on', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: unavailable, setup: { detected: [] } }));
		const { page } = chat;
		await page.getByRole('button', { name: 'Choose a provider' }).focus();
		await chat.host({ type: 'setup.changed', seq: 1, setup: { detected: [{ id: 'ollama', label: 'Use Ollama on localhost:11434 (2 models)' }] } });
		await page.getByRole('button', { name: 'Use Ollama on localhost:11434 (2 models)' }).waitFor();
		assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Choose a provider', 'the focus stayed');
		await page.getByRole('button', { name: 'Use Ollama on localhost:11434 (2 models)' }).click();
		assert.deepEqual(await postedOf(chat, 'provider.useDetected'), [{ type: 'provider.useDetected', id: 'ollama' }]);

		// Once something answers, the actions go; the empty state stays.
		await chat.host({ type: 'agent.changed', seq: 2, agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) });
		await page.locator('.empty-state-actions').waitFor({ state: 'detached' });
		assert.equal(await page.locator('.empty-state').count(), 1);
		await assertCleanAndClose(chat);
	});
});
