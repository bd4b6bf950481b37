// The rows a chat restore rolled back, in the real bundle in headless Chromium: dimmed by their
// colours (readable), "Rolled back" on the first, a visually hidden "Rolled back:" on each for
// screen readers, still expandable (a child's block and its rows too), from a snapshot and marked
// in place when the restore arrives as an update.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RestoreItem } from '../../src/protocol/messages';
import { agentRow, assistant, inChild, tool, user } from './items';
import { agentView, assertCleanAndClose, openChat, useHarness, viewState } from './page';

const AT = Date.UTC(2026, 11, 2, 0, 30);

describe('rolled-back rows', () => {
	const harness = useHarness();

	it('marks the rolled-back rows: dimmed by colour, readable, "Rolled back" on the first, said to a screen reader on each, still expandable', async () => {
		const path = 'root/explore#1';
		const restored: RestoreItem = { kind: 'restore', id: 'r1', at: AT, scope: 'chat', to: 'u2', message: 'Now the tests', turns: 1, files: [] };
		const items = [
			user('u1', 'Fix the parser'),
			assistant('a1', 'Fixed.'),
			{ ...user('u2', 'Now the tests'), rolledBack: 'first' as const },
			{ ...tool('t1', { result: 'the whole result' }), rolledBack: 'rest' as const },
			{ ...agentRow(path, { status: 'done', steps: 1 }), rolledBack: 'rest' as const },
			{ ...inChild(path, assistant('c1', 'What the child found.')), rolledBack: 'rest' as const },
			{ ...assistant('a2', 'Tests written.'), rolledBack: 'rest' as const },
			restored,
		];
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Parser', items } }));
		const { page } = chat;
		await page.evaluate(() => {
			document.documentElement.style.setProperty('--vscode-descriptionForeground', 'rgb(157, 157, 157)');
			document.documentElement.style.setProperty('--vscode-foreground', 'rgb(204, 204, 204)');
		});
		await page.locator('li[data-id="r1"]').waitFor();
		const marked = await page.locator('.transcript > li').evaluateAll((rows) => rows.map((row) => `${row.getAttribute('data-id') ?? ''}${row.classList.contains('rolled-back') ? ' rolled back' : ''}`));
		assert.deepEqual(marked, ['u1', 'a1', 'u2 rolled back', 't1 rolled back', `agent-${path} rolled back`, 'a2 rolled back', 'r1']);
		assert.equal(await page.locator('.rolled-back-label').count(), 1, 'one label, on the first');
		assert.equal(await page.locator('li[data-id="u2"] > .rolled-back-label').innerText(), 'Rolled back');
		assert.equal(await page.locator('li[data-id="u2"] > .rolled-back-label').getAttribute('aria-hidden'), 'true', 'seen, not read twice');
		const spoken = await page.locator('.transcript > li').evaluateAll((rows) => rows.map((row) => row.querySelector(':scope > .sr-only.rolled-back-sr')?.textContent ?? ''));
		assert.deepEqual(spoken, ['', '', 'Rolled back: ', 'Rolled back: ', 'Rolled back: ', 'Rolled back: ', ''], 'each rolled-back row says so to a screen reader');
		assert.equal(await page.locator('li[data-id="u2"]').innerText().then((text) => text.includes('Now the tests')), true);
		const looks = (selector: string) => page.locator(selector).evaluate((node) => {
			const opacity = (element: Element | null): number => (element ? Number(getComputedStyle(element).opacity) * opacity(element.parentElement) : 1);
			return { color: getComputedStyle(node).color, opacity: opacity(node) };
		});
		assert.deepEqual(await looks('li[data-id="u2"] .user-text'), { color: 'rgb(157, 157, 157)', opacity: 1 }, 'dimmed by colour, never by opacity: the contrast stays what the theme gives');
		assert.deepEqual(await looks('li[data-id="a2"] .assistant-text'), { color: 'rgb(157, 157, 157)', opacity: 1 });
		assert.equal((await looks('li[data-id="u1"] .user-text')).color, 'rgb(204, 204, 204)', 'the rows before stay as they were');
		// Still expandable: the rolled-back tool call by keyboard, the child's block with its own row, marked too.
		await page.locator('li[data-id="t1"] .tool-toggle').focus();
		await page.keyboard.press('Enter');
		assert.equal(await page.locator('li[data-id="t1"] .tool-result').innerText(), 'the whole result');
		await page.locator(`li[data-id="agent-${path}"] .agent-toggle`).click();
		await page.locator('li[data-id="c1"]').waitFor();
		assert.equal(await page.locator('li[data-id="c1"]').evaluate((row) => row.classList.contains('rolled-back')), true);
		await assertCleanAndClose(chat);
	});

	it('marks rows shown already when the restore comes, in place: an open row stays open', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Parser', items: [user('u1', 'Fix the parser'), user('u2', 'Now the tests'), tool('t1')] } }));
		const { page } = chat;
		await page.locator('li[data-id="t1"] .tool-toggle').click();
		assert.equal(await page.locator('li[data-id="t1"] .tool-toggle').getAttribute('aria-expanded'), 'true');
		const restored: RestoreItem = { kind: 'restore', id: 'r1', at: AT, scope: 'both', to: 'u2', message: 'Now the tests', turns: 1, files: [] };
		await chat.host({ type: 'items.updated', seq: 1, sessionId: 'session-1', items: [{ ...user('u2', 'Now the tests'), rolledBack: 'first' }, { ...tool('t1'), rolledBack: 'rest' }] });
		await chat.host({ type: 'items.appended', seq: 2, sessionId: 'session-1', items: [restored] });
		await page.locator('li[data-id="r1"]').waitFor();
		assert.deepEqual(await page.locator('.transcript > li.rolled-back').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id'))), ['u2', 't1']);
		assert.equal(await page.locator('li[data-id="u2"] > .rolled-back-label').innerText(), 'Rolled back');
		assert.equal(await page.locator('li[data-id="t1"] .tool-toggle').getAttribute('aria-expanded'), 'true', 'marked in place, not made again');
		assert.equal(await page.locator('li[data-id="u1"].rolled-back').count(), 0);
		await assertCleanAndClose(chat);
	});
});
