// Slash commands that come and go in the real bundle in headless Chromium: the composer's `/` hint
// listing what a word may become and following the host's `commands.changed`, the values of an
// argument asked of the host once the typing pauses (stale answers dropped, a value with a space
// quoted), a command's message given back with why, and the command above the message it made.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SlashCommandView } from '../../src/protocol/messages';
import { user } from './items';
import { assertCleanAndClose, type ChatPage, openChat, postedOf, useHarness, viewState } from './page';

const BUILT_IN: SlashCommandView[] = [
	{ name: '/compact', args: '[what to keep]', summary: 'compact the chat now' },
	{ name: '/goal', args: '[objective | budget 200k | done | clear]', summary: 'set or change the chat\'s goal' },
];

const ARGS: SlashCommandView = {
	name: '/mcp.everything.args-prompt',
	args: '<city> [state]',
	summary: 'A prompt with two arguments, one required and one optional (prompt of the MCP server everything)',
	arguments: [{ name: 'city', required: true }, { name: 'state', required: false }],
};
const SIMPLE: SlashCommandView = { name: '/mcp.everything.simple-prompt', args: '', summary: 'A prompt with no arguments (prompt of the MCP server everything)' };
const TEAM: SlashCommandView = {
	name: '/mcp.everything.completable-prompt',
	args: '<department> <name>',
	summary: 'First argument choice narrows values for second argument. (prompt of the MCP server everything)',
	arguments: [{ name: 'department', required: true }, { name: 'name', required: true }],
	completes: true,
};

async function settled(chat: ChatPage): Promise<void> {
	// Longer than the composer's pause before it asks (COMPLETION_DEBOUNCE_MS).
	await chat.page.waitForTimeout(500);
}

describe('slash commands that come and go, in the view', () => {
	const harness = useHarness();

	it('lists every command the typed word may become, learns new ones from the host, and forgets those that go', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ commands: BUILT_IN }));
		const { page } = chat;
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		const hint = page.locator('.slash-hint');
		await input.click();
		await input.pressSequentially('/');
		assert.deepEqual(await hint.locator('.slash-hint-line code').allInnerTexts(), ['/compact [what to keep]', '/goal [objective | budget 200k | done | clear]']);

		await chat.host({ type: 'commands.changed', seq: 1, commands: [...BUILT_IN, ARGS, SIMPLE] });
		await input.pressSequentially('mcp');
		await hint.locator('.slash-hint-line').nth(1).waitFor();
		assert.deepEqual(await hint.locator('.slash-hint-line code').allInnerTexts(), ['/mcp.everything.args-prompt <city> [state]', '/mcp.everything.simple-prompt']);
		assert.match(await hint.innerText(), /A prompt with two arguments, one required and one optional \(prompt of the MCP server everything\)/);
		await input.press('Tab');
		assert.equal(await input.inputValue(), '/mcp.everything.', 'Tab completes as far as the candidates agree');
		await input.pressSequentially('a');
		await input.press('Tab');
		assert.equal(await input.inputValue(), '/mcp.everything.args-prompt ');
		assert.equal(
			await hint.innerText(),
			'/mcp.everything.args-prompt <city> [state] — A prompt with two arguments, one required and one optional (prompt of the MCP server everything) (Enter sends, Escape closes)',
		);

		// The server dropped: its commands go, and the text is a message like any other.
		await chat.host({ type: 'commands.changed', seq: 2, commands: BUILT_IN });
		await hint.waitFor({ state: 'hidden' });
		await input.fill('/m');
		assert.equal(await hint.isVisible(), false);
		await assertCleanAndClose(chat);
	});

	it('completes an argument with the host\'s values once the typing pauses: stale answers dropped, Tab and Enter insert (quoted when they must be)', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ commands: [...BUILT_IN, ARGS, TEAM] }));
		const { page } = chat;
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		const options = page.getByRole('listbox', { name: 'Values for the argument' }).getByRole('option');
		await input.click();
		await input.pressSequentially('/mcp.everything.completable-prompt S');
		const [first] = await chat.waitForPosted('commands.complete');
		await settled(chat);
		assert.equal((await postedOf(chat, 'commands.complete')).length, 1, 'asked once, after the typing paused');
		assert.deepEqual(first, { type: 'commands.complete', requestId: 'complete-1', command: TEAM.name, argument: 'department', value: 'S', context: {} });

		await chat.host({ type: 'commands.completed', seq: 1, requestId: 'complete-0', values: ['Stale'] });
		await chat.host({ type: 'commands.completed', seq: 2, requestId: 'complete-1', values: ['Sales', 'Support'] });
		await options.nth(1).waitFor();
		assert.deepEqual(await options.allInnerTexts(), ['Sales', 'Support'], 'the answer to an older question is dropped');

		// Typing on narrows the last answer at once; the answer to the question before comes too late and is dropped.
		await input.pressSequentially('u');
		assert.deepEqual(await options.allInnerTexts(), ['Support']);
		await chat.waitForPosted('commands.complete', 2);
		await chat.host({ type: 'commands.completed', seq: 3, requestId: 'complete-1', values: ['Sales', 'Support', 'Sushi'] });
		assert.deepEqual(await options.allInnerTexts(), ['Support']);
		await input.press('Tab');
		assert.equal(await input.inputValue(), '/mcp.everything.completable-prompt Support ');

		// The next argument is asked with the one before it.
		const asked = await chat.waitForPosted('commands.complete', 3);
		assert.deepEqual(asked.at(-1), { type: 'commands.complete', requestId: 'complete-3', command: TEAM.name, argument: 'name', value: '', context: { department: 'Support' } });
		await chat.host({ type: 'commands.completed', seq: 4, requestId: 'complete-3', values: ['John', 'Kim', 'Mary Ann'] });
		await options.nth(2).waitFor();
		await input.press('ArrowDown');
		await input.press('ArrowDown');
		assert.equal(await options.nth(2).getAttribute('aria-selected'), 'true');
		await input.press('Enter');
		assert.equal(await input.inputValue(), '/mcp.everything.completable-prompt Support "Mary Ann" ', 'a value with a space goes in quoted');
		assert.deepEqual(await postedOf(chat, 'submit'), [], 'Enter chose the value; nothing was sent');
		await settled(chat);
		assert.equal(await options.count(), 0, 'past the last argument: nothing to complete');

		// A command whose values the host does not complete is never asked about.
		const before = (await postedOf(chat, 'commands.complete')).length;
		await input.fill('');
		await input.pressSequentially('/mcp.everything.args-prompt Par');
		await settled(chat);
		assert.equal((await postedOf(chat, 'commands.complete')).length, before);
		await assertCleanAndClose(chat);
	});

	it('gives a command back with why it sent nothing, and shows a command above the message it made', async () => {
		const chat = await openChat(harness);
		const typed = '/mcp.everything.args-prompt "New York" state=NY';
		await chat.connect(viewState({ commands: [...BUILT_IN, ARGS], session: { id: 'session-1', title: 'Weather', items: [{ ...user('u1', 'What\'s weather in New York, NY?'), command: typed }] } }));
		const { page } = chat;
		const row = page.locator('.transcript > li[data-kind="user"]');
		assert.equal(await row.locator('.user-command').innerText(), typed);
		assert.equal(await row.locator('.user-text').innerText(), 'What\'s weather in New York, NY?');

		const reason = '/mcp.everything.args-prompt needs <city>: /mcp.everything.args-prompt <city> [state] (quote a value with spaces). Nothing was sent.';
		await chat.host({ type: 'composer.restore', seq: 1, text: '/mcp.everything.args-prompt state=NY', reason, cause: 'command' });
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		assert.equal(await input.inputValue(), '/mcp.everything.args-prompt state=NY');
		await page.locator('.notice-warning', { hasText: `${reason} It is back in the message box.` }).waitFor();
		await assertCleanAndClose(chat);
	});
});
