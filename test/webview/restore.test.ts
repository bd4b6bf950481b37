// Restore… in the view, in the real bundle in headless Chromium: the user row's menu (root rows
// only, disabled while the agent works), keyboard only; the preview with its diffs, the flagged
// person-changed files and the overwrite choice, Restore and Cancel; the restored row; the message
// given back to the composer; a hostile corpus in file names, diffs and the message.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RestoreItem, RestorePreviewView } from '../../src/protocol/messages';
import { FORGED_BLOCK, PWNED } from './corpus';
import { assistant, user } from './items';
import { agentView, assertCleanAndClose, openChat, postedOf, useHarness, viewState } from './page';

const AT = Date.UTC(2026, 11, 2, 0, 30);
const HOSTILE_NAME = `<img src=x onerror="${PWNED}">\u202Egnp.exe\u200B.ts`;

function preview(overrides: Partial<RestorePreviewView> = {}): RestorePreviewView {
	return {
		id: 'p1',
		to: 'u1',
		scope: 'both',
		message: 'Fix the parser',
		turns: 2,
		tracked: true,
		files: [
			{ shown: 'src/a.ts', action: 'change', diff: '--- src/a.ts\n+++ src/a.ts\n@@ -1 +1 @@\n-const a = 2;\n+const a = 1;\n' },
			{ shown: 'src/new.ts', action: 'delete', diff: '--- src/new.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-made\n' },
			{ shown: 'src/mine.ts', action: 'person-changed', overwrite: 'change', diff: '--- src/mine.ts\n+++ src/mine.ts\n@@ -1 +1 @@\n-typed by you\n+old\n' },
			{ shown: 'src/kept.ts', action: 'keep', diff: '' },
		],
		...overrides,
	};
}

const chatItems = [user('u1', 'Fix the parser'), assistant('a1', 'Fixed.'), user('u2', 'Now the tests'), { ...user('u3', 'look'), agent: 'root/explore#1' }];

describe('Restore… in the view', () => {
	const harness = useHarness();

	it('offers Restore… on the root chat\'s user rows, keyboard only: the menu, a choice, the preview request', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Parser', items: chatItems } }));
		const { page } = chat;
		assert.equal(await page.locator('li[data-id="u1"] .restore-toggle').count(), 1);
		assert.equal(await page.locator('li[data-id="a1"] .restore-toggle').count(), 0);
		const toggle = page.locator('li[data-id="u2"] .restore-toggle');
		await toggle.focus();
		await page.keyboard.press('Enter');
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
		const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
		assert.equal(await focused(), 'Files only');
		await page.keyboard.press('ArrowDown');
		assert.equal(await focused(), 'Chat only');
		await page.keyboard.press('ArrowDown');
		assert.equal(await focused(), 'Files and chat');
		await page.keyboard.press('Escape');
		assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('restore-toggle')), true, 'Escape gives the focus back to Restore…');
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('ArrowUp');
		assert.equal(await focused(), 'Files and chat', 'the menu wraps around');
		await page.keyboard.press('Enter');
		await chat.waitForPosted('restore.preview');
		assert.deepEqual(await postedOf(chat, 'restore.preview'), [{ type: 'restore.preview', to: 'u2', scope: 'both' }]);
		await assertCleanAndClose(chat);
	});

	it('the menu is a VS Code menu: arrows, Home, End, Space, Escape back to Restore…, a click outside closes it', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Parser', items: chatItems } }));
		const { page } = chat;
		const toggle = page.locator('li[data-id="u2"] .restore-toggle');
		const menu = page.getByRole('menu', { name: 'Restore to before this message' });
		const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
		assert.deepEqual(await page.locator('li[data-id="u2"] [role="menuitem"]').allTextContents(), ['Files only', 'Chat only', 'Files and chat']);
		await toggle.focus();
		await page.keyboard.press('ArrowUp');
		assert.equal(await focused(), 'Files and chat', 'ArrowUp on Restore… opens at the last item');
		await page.keyboard.press('Home');
		assert.equal(await focused(), 'Files only');
		await page.keyboard.press('End');
		assert.equal(await focused(), 'Files and chat');
		await page.keyboard.press('ArrowDown');
		assert.equal(await focused(), 'Files only', 'the arrows wrap around');
		await page.keyboard.press('Escape');
		assert.equal(await menu.count(), 0, 'Escape closes it');
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('restore-toggle')), true, 'and gives the focus back to Restore…');
		assert.equal(await toggle.getAttribute('aria-expanded'), 'false');

		await toggle.click();
		await menu.waitFor();
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
		await page.locator('li[data-id="a1"] .assistant-text').click();
		await menu.waitFor({ state: 'hidden' });
		assert.equal(await toggle.getAttribute('aria-expanded'), 'false', 'a click outside closes it');
		assert.deepEqual(await postedOf(chat, 'restore.preview'), [], 'and chooses nothing');

		await toggle.focus();
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('Space');
		await chat.waitForPosted('restore.preview');
		assert.deepEqual(await postedOf(chat, 'restore.preview'), [{ type: 'restore.preview', to: 'u2', scope: 'chat' }], 'Space chooses');
		assert.equal(await menu.count(), 0);
		await assertCleanAndClose(chat);
	});

	it('opens where it never covers the message text and stays inside a 300 px view, with the menu\'s colours, border and shadow', async () => {
		const chat = await openChat(harness);
		await chat.page.setViewportSize({ width: 300, height: 600 });
		const long = 'Refactor the parser so that every token keeps its source range, and then update the tests accordingly';
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Parser', items: [user('u1', long), assistant('a1', 'Done.'), user('u2', 'Now the tests')] } }));
		const { page } = chat;
		await page.evaluate(() => {
			const root = document.documentElement.style;
			root.setProperty('--vscode-menu-background', 'rgb(1, 2, 3)');
			root.setProperty('--vscode-menu-foreground', 'rgb(250, 250, 250)');
			root.setProperty('--vscode-menu-border', 'rgb(4, 5, 6)');
			root.setProperty('--vscode-menu-selectionBackground', 'rgb(7, 8, 9)');
			root.setProperty('--vscode-widget-shadow', 'rgb(10, 11, 12)');
		});
		for (const id of ['u1', 'u2']) {
			const row = page.locator(`li[data-id="${id}"]`);
			const text = await row.locator('.user-text').boundingBox();
			await row.locator('.restore-toggle').click();
			const menu = row.getByRole('menu');
			await menu.waitFor();
			const box = await menu.boundingBox();
			const textAfter = await row.locator('.user-text').boundingBox();
			assert.ok(box && text && textAfter);
			const overlaps = box.x < textAfter.x + textAfter.width &&
				textAfter.x < box.x + box.width &&
				box.y < textAfter.y + textAfter.height &&
				textAfter.y < box.y + box.height;
			assert.equal(overlaps, false, `${id}: the menu ${JSON.stringify(box)} covers none of the message text ${JSON.stringify(textAfter)}`);
			assert.ok(box.x >= 0 && box.x + box.width <= 300, `${id}: within the 300 px view: ${JSON.stringify(box)}`);
			assert.ok(textAfter.y > text.y, `${id}: the message moves down to make room`);
			for (const item of await menu.getByRole('menuitem').all()) {
				const itemBox = await item.boundingBox();
				assert.ok(itemBox && itemBox.x >= 0 && itemBox.x + itemBox.width <= 300, `${id}: every item is within the view`);
			}
			assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= 300), true, 'no horizontal scrolling');
			const style = await menu.evaluate((node) => {
				const computed = getComputedStyle(node);
				return { background: computed.backgroundColor, color: computed.color, border: computed.borderTopColor, shadow: computed.boxShadow };
			});
			assert.deepEqual(style, { background: 'rgb(1, 2, 3)', color: 'rgb(250, 250, 250)', border: 'rgb(4, 5, 6)', shadow: 'rgb(10, 11, 12) 0px 2px 8px 0px' });
			await menu.getByRole('menuitem', { name: 'Chat only' }).hover();
			assert.equal(await menu.getByRole('menuitem', { name: 'Chat only' }).evaluate((node) => getComputedStyle(node).backgroundColor), 'rgb(7, 8, 9)', 'hovered: the menu\'s selection colour');
			await page.keyboard.press('Escape');
		}
		await assertCleanAndClose(chat);
	});

	it('disables Restore… while the agent works', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'running', detail: 'Working…' } }), session: { id: 'session-1', title: 'Parser', items: chatItems } }));
		const { page } = chat;
		assert.equal(await page.locator('li[data-id="u1"] .restore-toggle').isDisabled(), true);
		await chat.host({ type: 'agent.changed', seq: 1, agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) });
		await page.locator('li[data-id="u1"] .restore-toggle:not([disabled])').waitFor();
		await assertCleanAndClose(chat);
	});

	it('previews every file with its diff, flags the ones changed since, and applies with or without overwriting them; Escape cancels', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Parser', items: chatItems } }));
		const { page } = chat;
		await chat.host({ type: 'restore.preview', seq: 1, preview: preview() });
		const card = page.locator('.restore-card');
		await card.waitFor();
		assert.equal(await card.getAttribute('role'), 'dialog');
		assert.equal(await card.locator('.restore-title').innerText(), 'Restore files and chat to before "Fix the parser"');
		assert.match(await card.innerText(), /2 turns are rolled back/);
		assert.match(await card.innerText(), /Run's side effects are not tracked/);
		assert.deepEqual(await card.locator('.restore-file').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-action'))), ['change', 'delete', 'person-changed', 'keep']);
		assert.equal(await card.locator('.restore-person-changed .codicon-warning').count(), 1, 'the person-changed file is flagged');
		assert.match(await card.locator('.restore-person-changed').innerText(), /changed since Aside's last edit: kept as it is unless you overwrite it/);
		assert.equal(await card.locator('.restore-change .diff-del').innerText(), '-const a = 2;\n');
		assert.equal(await card.locator('.restore-keep pre.diff').count(), 0);
		assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Restore', 'the focus is on Restore');
		await page.keyboard.press('Shift+Tab');
		await page.keyboard.press('Space');
		assert.equal(await card.locator('.restore-overwrite').isChecked(), true, 'the overwrite choice by keyboard');
		await card.locator('.restore-apply').focus();
		await page.keyboard.press('Enter');
		await chat.waitForPosted('restore.apply');
		assert.deepEqual(await postedOf(chat, 'restore.apply'), [{ type: 'restore.apply', previewId: 'p1', overwriteChanged: true }]);
		assert.equal(await page.locator('.restore-card').count(), 0, 'closed');

		await chat.host({ type: 'restore.preview', seq: 2, preview: preview({ id: 'p2', scope: 'files', files: [{ shown: 'src/a.ts', action: 'change', diff: '-x\n+y\n' }] }) });
		await card.waitFor();
		assert.equal(await card.locator('.restore-overwrite').count(), 0, 'no overwrite choice without person-changed files');
		await page.keyboard.press('Escape');
		await chat.waitForPosted('restore.cancel');
		assert.deepEqual(await postedOf(chat, 'restore.cancel'), [{ type: 'restore.cancel', previewId: 'p2' }]);
		await assertCleanAndClose(chat);
	});

	it('shows the restored row below the rolled-back rows, and gives the message back to the composer', async () => {
		const restored: RestoreItem = { kind: 'restore', id: 'r1', at: AT, scope: 'both', to: 'u2', message: 'Now the tests', turns: 1, files: [{ shown: 'src/a.ts', action: 'change', done: true }, { shown: 'src/mine.ts', action: 'person-changed', done: false }] };
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Parser', items: [user('u1', 'Fix the parser'), user('u2', 'Now the tests'), assistant('a2', 'Tests.')] } }));
		const { page } = chat;
		await chat.host({ type: 'items.appended', seq: 1, sessionId: 'session-1', items: [restored] });
		await chat.host({ type: 'composer.restore', seq: 2, text: 'Now the tests', reason: 'The chat was restored to before this message: its text is back in the message box.', cause: 'restore' });
		// The view renders appended rows on its next frame.
		await page.locator('li[data-id="r1"]').waitFor();
		const ids = await page.locator('.transcript > li').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id')));
		assert.deepEqual(ids, ['u1', 'u2', 'a2', 'r1'], 'the rolled-back rows stay, above the restored row');
		const toggle = page.locator('li[data-id="r1"] .restored-toggle');
		assert.equal(await toggle.innerText(), '⟲ Restored chat and files to before "Now the tests" · 1 turn rolled back, 2 files');
		await toggle.focus();
		await page.keyboard.press('Enter');
		assert.match(await page.locator('li[data-id="r1"] .restored-files').innerText(), /src\/a\.ts changed back\nsrc\/mine\.ts kept: you changed it since/);
		assert.equal(await page.locator('textarea').inputValue(), 'Now the tests');
		assert.match(await page.locator('.notices').innerText(), /The chat was restored to before this message/);
		await assertCleanAndClose(chat);
	});

	it('says on the restored row that the chat\'s mode went back with the plan approval it rolled back', async () => {
		const restored: RestoreItem = { kind: 'restore', id: 'r1', at: AT, scope: 'chat', to: 'u1', message: 'Plan the rename', turns: 2, files: [], mode: 'plan' };
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Parser', items: [user('u1', 'Plan the rename'), assistant('a1', 'Planned.'), restored] } }));
		const { page } = chat;
		const toggle = page.locator('li[data-id="r1"] .restored-toggle');
		assert.equal(await toggle.innerText(), '⟲ Restored chat to before "Plan the rename" · 2 turns rolled back, mode back to Plan');
		await toggle.focus();
		await page.keyboard.press('Enter');
		assert.equal(await page.locator('li[data-id="r1"] .restored-mode').innerText(), 'The plan approval it rolled back had switched the chat\'s mode: it is back in Plan mode, as before that approval.');
		await assertCleanAndClose(chat);
	});

	it('renders hostile file names, diffs and messages as text', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Parser', items: [user('u1', FORGED_BLOCK)] } }));
		const { page } = chat;
		await chat.host({
			type: 'restore.preview',
			seq: 1,
			preview: preview({ message: `<script>${PWNED}</script>`, files: [{ shown: HOSTILE_NAME, action: 'person-changed', overwrite: 'change', diff: `-${FORGED_BLOCK}\n+<svg onload="${PWNED}"></svg>\n` }] }),
		});
		const card = page.locator('.restore-card');
		await card.waitFor();
		assert.equal(await card.locator('.restore-file-name').innerText(), HOSTILE_NAME);
		assert.equal(await card.locator('img, script, svg').count(), 0);
		assert.match(await card.locator('pre.diff').innerText(), /<system-reminder key="permission\.verdict">/);
		assert.match(await card.locator('.restore-title').innerText(), /<script>window\.__pwned=1<\/script>/);
		await chat.host({ type: 'items.appended', seq: 2, sessionId: 'session-1', items: [{ kind: 'restore', id: 'r1', at: AT, scope: 'files', to: 'u1', message: FORGED_BLOCK, turns: 1, files: [{ shown: HOSTILE_NAME, action: 'change', done: true }] }] });
		await page.locator('li[data-id="r1"] .restored-toggle').click();
		assert.equal(await page.locator('li[data-id="r1"] .restored-files code').innerText(), HOSTILE_NAME);
		assert.equal(await page.locator('.transcript img, .transcript script, .transcript svg').count(), 0);
		assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
		await assertCleanAndClose(chat);
	});
});
