// The cards of an MCP server's requests in the real bundle in headless Chromium: a sampling card
// shows the server, system prompt, messages, token limit and model, and Allow / Deny answer it by
// keyboard, once; a form card is built from the schema with its defaults filled in, says what is
// wrong before anything is sent, and sends the entries on Submit (Decline and Cancel too); a URL
// card shows the origin first and posts Open only on a click; a live update keeps what was typed;
// hostile server text stays text; the cards fit the 300 px sidebar.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseViewMessage } from '../../src/protocol/messages';
import type { McpRequestView } from '../../src/protocol/mcpRequests';
import { DANGEROUS_ELEMENTS, HOSTILE_CORPUS } from './corpus';
import { assertCleanAndClose, type ChatPage, openChat, postedOf, useHarness, type ViewHarness, viewState } from './page';

const SAMPLING: McpRequestView = {
	kind: 'sampling',
	id: 'mcp-request-1',
	server: 'everything',
	systemPrompt: 'You are a helpful test server.',
	messages: [{ role: 'user', text: 'Resource sampleLLM context: What is 2+2?' }, { role: 'assistant', text: '[image, image/png, 1.2 KB]' }],
	maxTokens: 100,
	model: 'anthropic claude-test',
};

const FORM: McpRequestView = {
	kind: 'form',
	id: 'mcp-request-2',
	server: 'everything',
	message: 'Please provide your information',
	fields: [
		{ kind: 'text', name: 'name', title: 'Full name', required: true, default: 'John Doe' },
		{ kind: 'text', name: 'email', title: 'Email', description: 'Where we write to you', required: true, format: 'email' },
		{ kind: 'number', name: 'age', title: 'Age', required: false, integer: true, minimum: 0, maximum: 150, default: 30 },
		{ kind: 'boolean', name: 'verified', title: 'Verified', required: false, default: true },
		{ kind: 'choice', name: 'color', title: 'Colour', required: false, options: [{ value: 'red', label: 'Red' }, { value: 'blue', label: 'Blue' }], default: 'blue' },
		{ kind: 'multi', name: 'pets', title: 'Pets', required: false, options: [{ value: 'cat', label: 'Cat' }, { value: 'dog', label: 'Dog' }], default: ['dog'] },
	],
};

const URL_CARD: McpRequestView = { kind: 'url', id: 'mcp-request-3', server: 'billing', message: 'Finish the payment in your browser.', url: 'https://pay.example.com:8443/checkout?session=abc', origin: 'https://pay.example.com:8443' };

async function show(harness: ViewHarness, requests: readonly McpRequestView[]): Promise<ChatPage> {
	const chat = await openChat(harness);
	await chat.page.setViewportSize({ width: 300, height: 900 });
	await chat.connect(viewState());
	await chat.host({ type: 'mcp.requests', seq: 1, requests });
	if (requests.length > 0) {
		await chat.page.locator('.mcp-request').first().waitFor();
	}
	return chat;
}

/** The form's inputs are the card's own; anything else dangerous must not be there. */
const FOREIGN = DANGEROUS_ELEMENTS.replace('input:not(.md-checkbox)', 'input:not(.mcp-field-input):not(.mcp-field-checkbox)');

describe('the MCP request cards', () => {
	const harness = useHarness();

	it('a sampling card shows what the server would send, and Allow by keyboard answers it once', async () => {
		const chat = await show(harness, [SAMPLING]);
		const { page } = chat;
		const card = page.getByRole('region', { name: 'everything asks for a model\'s answer' });
		await card.waitFor();
		assert.equal(await card.locator('.mcp-sampling-system').innerText(), 'You are a helpful test server.');
		assert.deepEqual(await card.locator('.mcp-sampling-message .mcp-sampling-text').allInnerTexts(), ['Resource sampleLLM context: What is 2+2?', '[image, image/png, 1.2 KB]']);
		assert.deepEqual(await card.locator('.mcp-sampling-message .mcp-request-label').allInnerTexts(), ['User', 'Assistant']);
		assert.match(await card.locator('.mcp-request-facts').innerText(), /^Up to 100 tokens from anthropic claude-test\. Nothing of it enters this chat\.$/);
		assert.equal(await page.locator('.mcp-requests .sr-only').innerText(), 'everything asks for a model\'s answer.');
		assert.deepEqual(await card.locator('.mcp-request-actions button').allTextContents(), ['Allow', 'Deny']);
		// Keyboard: the card, then Allow, then Deny.
		await card.focus();
		await page.keyboard.press('Tab');
		assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Allow');
		await page.keyboard.press('Enter');
		const [posted] = await chat.waitForPosted('mcp.answer');
		assert.deepEqual(posted, { type: 'mcp.answer', id: 'mcp-request-1', action: 'accept' });
		assert.ok(parseViewMessage(posted).ok);
		const deny = card.getByRole('button', { name: 'Deny' });
		assert.equal(await deny.getAttribute('aria-disabled'), 'true', 'answered once');
		await deny.evaluate((node: HTMLElement) => {
			node.click();
		});
		assert.equal((await postedOf(chat, 'mcp.answer')).length, 1, 'a second answer is not sent');
		// The host takes it away: the focus goes to the composer, nothing is left.
		await chat.host({ type: 'mcp.requests', seq: 2, requests: [] });
		await page.locator('.mcp-requests').waitFor({ state: 'hidden' });
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('composer-input')), true);
		await assertCleanAndClose(chat);
	});

	it('Deny declines a sampling request', async () => {
		const chat = await show(harness, [SAMPLING]);
		await chat.page.getByRole('button', { name: 'Deny' }).press('Enter');
		assert.deepEqual(await chat.waitForPosted('mcp.answer'), [{ type: 'mcp.answer', id: 'mcp-request-1', action: 'decline' }]);
		await assertCleanAndClose(chat);
	});

	it('a form card opens with the schema\'s defaults, says what is wrong before sending, then sends the entries', async () => {
		const chat = await show(harness, [FORM]);
		const { page } = chat;
		const card = page.getByRole('region', { name: 'everything asks for input' });
		assert.equal(await card.locator('.mcp-request-message').innerText(), 'Please provide your information');
		assert.equal(await card.getByRole('textbox', { name: 'Full name' }).inputValue(), 'John Doe');
		assert.equal(await card.getByRole('textbox', { name: 'Email' }).inputValue(), '');
		assert.equal(await card.getByRole('textbox', { name: 'Age' }).inputValue(), '30');
		assert.equal(await card.getByRole('checkbox', { name: 'Verified' }).isChecked(), true);
		assert.equal(await card.getByRole('combobox', { name: 'Colour' }).inputValue(), 'blue');
		assert.equal(await card.getByRole('checkbox', { name: 'Dog' }).isChecked(), true);
		assert.equal(await card.getByRole('checkbox', { name: 'Cat' }).isChecked(), false);
		assert.deepEqual(await card.locator('.mcp-request-actions button').allTextContents(), ['Submit', 'Decline', 'Cancel']);

		// Submit with the required email missing and an age out of range: nothing is sent.
		await card.getByRole('textbox', { name: 'Age' }).fill('200');
		await card.getByRole('button', { name: 'Submit' }).click();
		const email = card.getByRole('textbox', { name: 'Email' });
		assert.equal(await email.getAttribute('aria-invalid'), 'true');
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-field')), 'email', 'the first wrong field has the focus');
		assert.deepEqual(await card.locator('.mcp-field-problem:visible').allInnerTexts(), ['Required.', 'From 0 to 150.']);
		await page.keyboard.type('not an address');
		await page.keyboard.press('Enter');
		assert.deepEqual(await card.locator('.mcp-field-problem:visible').allInnerTexts(), ['An email address, like name@example.com.', 'From 0 to 150.']);
		assert.equal((await postedOf(chat, 'mcp.answer')).length, 0);

		// A live update (another card comes) keeps what was typed.
		await chat.host({ type: 'mcp.requests', seq: 2, requests: [FORM, URL_CARD] });
		await page.locator('.mcp-request-url').waitFor();
		assert.equal(await email.inputValue(), 'not an address');

		await email.fill('ada@example.com');
		await card.getByRole('textbox', { name: 'Age' }).fill('36');
		await card.getByRole('checkbox', { name: 'Cat' }).check();
		await card.getByRole('combobox', { name: 'Colour' }).selectOption('red');
		await email.press('Enter');
		const [posted] = await chat.waitForPosted('mcp.answer');
		assert.deepEqual(posted, {
			type: 'mcp.answer', id: 'mcp-request-2', action: 'accept',
			entries: { name: 'John Doe', email: 'ada@example.com', age: '36', verified: true, color: 'red', pets: ['cat', 'dog'] },
		});
		assert.ok(parseViewMessage(posted).ok);
		assert.equal(await card.locator('.mcp-field-problem:visible').count(), 0);
		await assertCleanAndClose(chat);
	});

	it('Decline and Cancel answer a form without its entries', async () => {
		const chat = await show(harness, [FORM, { ...FORM, id: 'mcp-request-9' }]);
		const cards = chat.page.locator('.mcp-request-form');
		await cards.nth(0).getByRole('button', { name: 'Decline' }).click();
		await cards.nth(1).getByRole('button', { name: 'Cancel' }).click();
		assert.deepEqual(await chat.waitForPosted('mcp.answer', 2), [
			{ type: 'mcp.answer', id: 'mcp-request-2', action: 'decline' },
			{ type: 'mcp.answer', id: 'mcp-request-9', action: 'cancel' },
		]);
		await assertCleanAndClose(chat);
	});

	it('a URL card shows the origin first and posts Open only on the click', async () => {
		const chat = await show(harness, [URL_CARD]);
		const { page } = chat;
		const card = page.getByRole('region', { name: 'billing asks you to open a page' });
		assert.equal(await card.locator('.mcp-url-origin').innerText(), 'https://pay.example.com:8443');
		assert.equal(await card.locator('.mcp-url-full').innerText(), 'https://pay.example.com:8443/checkout?session=abc');
		assert.deepEqual(await card.locator('.mcp-request-actions button').allTextContents(), ['Open https://pay.example.com:8443', 'Decline']);
		assert.equal((await postedOf(chat, 'mcp.answer')).length, 0, 'nothing opens by itself');
		await card.getByRole('button', { name: 'Open https://pay.example.com:8443' }).click();
		assert.deepEqual(await chat.waitForPosted('mcp.answer'), [{ type: 'mcp.answer', id: 'mcp-request-3', action: 'accept' }]);
		await assertCleanAndClose(chat);
	});

	it('hostile server text stays text and fits the 300 px view', async () => {
		const hostile = HOSTILE_CORPUS.slice(0, 12);
		const requests: McpRequestView[] = [
			{ ...SAMPLING, server: hostile[0] ?? '', systemPrompt: hostile.join('\n'), messages: hostile.map((text) => ({ role: 'user' as const, text })) },
			{ ...FORM, server: hostile[1] ?? '', message: hostile[2] ?? '', fields: hostile.slice(3).map((text, index) => ({ kind: 'text' as const, name: `f${index}`, title: text, description: text, required: false, default: text })) },
			{ ...URL_CARD, server: hostile[3] ?? '', message: hostile[4] ?? '', url: `https://x.example/${encodeURIComponent(hostile[5] ?? '')}` },
		];
		const chat = await show(harness, requests);
		const { page } = chat;
		await page.locator('.mcp-request-url').waitFor();
		assert.equal(await page.locator('.mcp-sampling-system').innerText(), hostile.join('\n'));
		assert.equal(await page.locator('.mcp-request-form .mcp-request-message').innerText(), hostile[2]);
		assert.equal(await page.locator('.mcp-requests').locator(FOREIGN).count(), 0);
		assert.equal(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), undefined, 'nothing ran');
		assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= 300), true, 'no horizontal scrolling');
		await assertCleanAndClose(chat);
	});
});
