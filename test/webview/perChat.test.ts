// What belongs to one chat stays with it, in the real bundle in headless Chromium: each chat's
// unsent draft (across chat switches and reloads) and its notices; and messages a Stop caught
// before they reached the model come back to the composer of their chat, never dropped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROTOCOL_VERSION, type ViewState } from '../../src/protocol/messages';
import { assistant, user } from './items';
import { agentView, assertCleanAndClose, openChat, useHarness, viewState } from './page';

const ready = agentView({ status: { state: 'ready', detail: 'Ready.' } });
const chatA: ViewState = viewState({ agent: ready, session: { id: 'chat-a', title: 'Chat A', items: [user('u1', 'Rename greet'), assistant('a1', 'Done.')] } });
const chatB: ViewState = viewState({ agent: ready, session: { id: 'chat-b', title: 'Chat B', items: [] } });

describe('what belongs to one chat', () => {
	const harness = useHarness();

	it('keeps a draft per chat: another chat, New Chat or a fork starts with its own, and each survives a reload', async () => {
		const chat = await openChat(harness);
		await chat.connect(chatA);
		const { page } = chat;
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		await input.fill('half a thought for A');
		await chat.host({ type: 'snapshot', seq: 1, protocol: PROTOCOL_VERSION, state: chatB });
		await page.locator('.session-title', { hasText: 'Chat B' }).waitFor();
		assert.equal(await input.inputValue(), '', "A's draft does not follow into B");
		await input.fill('something for B');
		await chat.host({ type: 'snapshot', seq: 2, protocol: PROTOCOL_VERSION, state: chatA });
		await page.locator('.session-title', { hasText: 'Chat A' }).waitFor();
		assert.equal(await input.inputValue(), 'half a thought for A', 'back in A, its draft is back');
		// A resync of the same chat leaves the box alone.
		await input.fill('half a thought for A, edited');
		await chat.host({ type: 'snapshot', seq: 3, protocol: PROTOCOL_VERSION, state: chatA });
		await page.locator('#app[aria-busy="false"]').waitFor();
		assert.equal(await input.inputValue(), 'half a thought for A, edited');
		await page.reload();
		await chat.waitForPosted('ready');
		assert.equal(await input.inputValue(), 'half a thought for A, edited', 'the shown chat\'s draft is back before the snapshot');
		await chat.host({ type: 'snapshot', seq: 0, protocol: PROTOCOL_VERSION, state: chatB });
		await page.locator('.session-title', { hasText: 'Chat B' }).waitFor();
		assert.equal(await input.inputValue(), 'something for B', "B's draft survived the reload too");
		await assertCleanAndClose(chat);
	});

	it('keeps notices with their chat: a "chat was restored" notice does not follow into another chat', async () => {
		const chat = await openChat(harness);
		await chat.connect(chatA);
		const { page } = chat;
		await chat.host({ type: 'composer.restore', seq: 1, text: 'Rename greet', reason: 'The chat was restored to before this message; it is back in the message box.', cause: 'restore' });
		await page.locator('.notice', { hasText: 'The chat was restored' }).waitFor();
		await chat.host({ type: 'snapshot', seq: 2, protocol: PROTOCOL_VERSION, state: chatB });
		await page.locator('.session-title', { hasText: 'Chat B' }).waitFor();
		assert.equal(await page.locator('.notices .notice').count(), 0, 'chat B shows none of A\'s notices');
		assert.equal(await page.getByRole('textbox', { name: 'Message Aside' }).inputValue(), '', 'nor its draft');
		await chat.host({ type: 'notice', seq: 3, level: 'warning', text: 'Something about B.' });
		await chat.host({ type: 'snapshot', seq: 4, protocol: PROTOCOL_VERSION, state: chatA });
		await page.locator('.session-title', { hasText: 'Chat A' }).waitFor();
		assert.deepEqual(await page.locator('.notices .notice .notice-text').allInnerTexts(), ['The chat was restored to before this message; it is back in the message box.'], 'A\'s notice is still A\'s; B\'s stays with B');
		assert.equal(await page.getByRole('textbox', { name: 'Message Aside' }).inputValue(), 'Rename greet');
		await assertCleanAndClose(chat);
	});

	it('puts messages a Stop caught back in the box: an empty one gets them, a draft stays after them', async () => {
		const chat = await openChat(harness);
		await chat.connect(chatA);
		const { page } = chat;
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		const reason = 'The agent was stopped before your message reached it.';
		await chat.host({ type: 'composer.restore', seq: 1, text: 'use pnpm\n\nand pin it', reason, cause: 'stopped' });
		await page.locator('.notice', { hasText: 'It is back in the message box.' }).waitFor();
		assert.equal(await input.inputValue(), 'use pnpm\n\nand pin it');
		await input.fill('a new draft');
		await chat.host({ type: 'composer.restore', seq: 2, text: 'one more', reason, cause: 'stopped' });
		await page.locator('.notice', { hasText: 'above your draft' }).waitFor();
		assert.equal(await input.inputValue(), 'one more\n\na new draft', 'nothing waits on a button: it is in the box, the draft after it');
		await assertCleanAndClose(chat);
	});

	it('gives a message back to the chat it was typed in when another chat is on screen', async () => {
		const chat = await openChat(harness);
		await chat.connect(chatB);
		const { page } = chat;
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		await input.fill('B is mine');
		await chat.host({ type: 'composer.restore', seq: 1, text: 'for A', reason: 'The agent was stopped before your message reached it.', cause: 'stopped', sessionId: 'chat-a' });
		await page.waitForTimeout(100);
		assert.equal(await input.inputValue(), 'B is mine', 'the chat on screen is left alone');
		assert.equal(await page.locator('.notices .notice').count(), 0);
		await chat.host({ type: 'snapshot', seq: 2, protocol: PROTOCOL_VERSION, state: chatA });
		await page.locator('.session-title', { hasText: 'Chat A' }).waitFor();
		assert.equal(await input.inputValue(), 'for A');
		await page.locator('.notice', { hasText: "back in this chat's message box" }).waitFor();
		await assertCleanAndClose(chat);
	});
});
