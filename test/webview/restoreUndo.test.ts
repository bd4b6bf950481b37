// Undo… of a restore in the view, in the real bundle in headless Chromium: the restored row's Undo…
// (keyboard, disabled while the agent works), the undo's preview card, and the rows once undone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RestoreItem } from '../../src/protocol/messages';
import { assistant, user } from './items';
import { agentView, assertCleanAndClose, openChat, postedOf, useHarness, viewState } from './page';

const AT = Date.UTC(2026, 11, 4, 19, 0);
const restored: RestoreItem = { kind: 'restore', id: 'r1', at: AT, scope: 'files', to: 'u2', message: 'Now the tests', turns: 1, files: [{ shown: 'src/a.ts', action: 'change', done: true }], undoable: true };
const items = [user('u1', 'Fix the parser'), user('u2', 'Now the tests'), assistant('a2', 'Tests.'), restored];

describe('Undo… of a restore in the view', () => {
	const harness = useHarness();

	it('offers Undo… on a restore that kept its writes, keyboard only, and not while the agent works', async () => {
		const chat = await openChat(harness);
		const chatOnly: RestoreItem = { ...restored, id: 'r0', scope: 'chat', files: [], undoable: undefined };
		await chat.connect(viewState({ agent: agentView({ status: { state: 'running', detail: 'Working…' } }), session: { id: 'session-1', title: 'Parser', items: [...items, chatOnly] } }));
		const { page } = chat;
		const undo = page.locator('li[data-id="r1"] .restore-undo');
		assert.equal(await undo.innerText(), 'Undo…');
		assert.equal(await undo.isDisabled(), true, 'disabled while the agent works');
		assert.equal(await page.locator('li[data-id="r0"] .restore-undo').count(), 0, 'a restore that wrote nothing has no Undo…');
		await chat.host({ type: 'agent.changed', seq: 1, agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) });
		await page.locator('li[data-id="r1"] .restore-undo:not([disabled])').waitFor();
		await undo.focus();
		await page.keyboard.press('Enter');
		await chat.waitForPosted('restore.preview');
		assert.deepEqual(await postedOf(chat, 'restore.preview'), [{ type: 'restore.preview', to: 'r1', scope: 'undo' }]);
		await assertCleanAndClose(chat);
	});

	it('the undo preview says what it puts back, and applies like a restore', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Parser', items } }));
		const { page } = chat;
		await chat.host({
			type: 'restore.preview',
			seq: 1,
			preview: { id: 'p1', to: 'u2', scope: 'files', message: 'Now the tests', turns: 0, tracked: true, undoes: 'r1', files: [{ shown: 'src/a.ts', action: 'person-changed', overwrite: 'change', diff: '-mine\n+theirs\n' }] },
		});
		const card = page.locator('.restore-card');
		await card.waitFor();
		assert.equal(await card.getAttribute('data-scope'), 'undo');
		assert.equal(await card.locator('.restore-title').innerText(), 'Undo the file restore to before "Now the tests"');
		assert.match(await card.innerText(), /go back to as they were just before it\. The chat stays as it is\./);
		assert.doesNotMatch(await card.innerText(), /Run's side effects/);
		assert.match(await card.locator('.restore-overwrite-label').innerText(), /changed since that restore/);
		assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Undo restore');
		await page.keyboard.press('Enter');
		await chat.waitForPosted('restore.apply');
		assert.deepEqual(await postedOf(chat, 'restore.apply'), [{ type: 'restore.apply', previewId: 'p1', overwriteChanged: false }]);
		await assertCleanAndClose(chat);
	});

	it('once undone, the restore\'s Undo… is off and the undo\'s own row can be undone', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Parser', items } }));
		const { page } = chat;
		const undoRow: RestoreItem = { kind: 'restore', id: 'r2', at: AT + 1000, scope: 'files', to: 'u2', message: 'Now the tests', turns: 0, files: [{ shown: 'src/a.ts', action: 'change', done: true }], undoable: true, undoes: 'r1' };
		await chat.host({ type: 'items.appended', seq: 1, sessionId: 'session-1', items: [undoRow] });
		await chat.host({ type: 'items.updated', seq: 2, sessionId: 'session-1', items: [{ ...restored, undone: true }] });
		await page.locator('li[data-id="r2"]').waitFor();
		await page.locator('li[data-id="r1"] .restore-undo[data-undone]').waitFor();
		assert.equal(await page.locator('li[data-id="r1"] .restore-undo').innerText(), 'Undone');
		assert.equal(await page.locator('li[data-id="r1"] .restore-undo').isDisabled(), true);
		assert.equal(await page.locator('li[data-id="r2"] .restored-toggle').innerText(), '⟲ Undid the file restore to before "Now the tests" · 1 file');
		assert.equal(await page.locator('li[data-id="r2"] .restore-undo').isDisabled(), false);
		// Busy and back: the undone row stays off.
		await chat.host({ type: 'agent.changed', seq: 3, agent: agentView({ status: { state: 'running', detail: 'Working…' } }) });
		await chat.host({ type: 'agent.changed', seq: 4, agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) });
		await page.locator('li[data-id="r2"] .restore-undo:not([disabled])').waitFor();
		assert.equal(await page.locator('li[data-id="r1"] .restore-undo').isDisabled(), true);
		await assertCleanAndClose(chat);
	});
});
