// Retry beside a failed turn's error, in the real bundle in headless Chromium: shown only where
// the host offers it, reached and pressed by keyboard, it asks the host to send the same message
// again; the host's update of the row takes it away.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TurnEndItem } from '../../src/protocol/messages';
import { turnEnd, user } from './items';
import { agentView, assertCleanAndClose, openChat, postedOf, useHarness, viewState } from './page';

describe('Retry after a failed turn', () => {
	const harness = useHarness();

	it('offers Retry beside the error; Enter on it sends turn.retry; the updated row has none', async () => {
		const chat = await openChat(harness);
		const failed: TurnEndItem = { ...turnEnd('end-t2', 'failed', 'The provider refused the key (401).'), retry: { turnId: 't2' } };
		const earlier = turnEnd('end-t1', 'failed', 'Timed out.');
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 's1', title: 'Chat', items: [user('u1', 'first'), earlier, user('u2', 'Rename greet'), failed] } }));
		const { page } = chat;
		const retry = page.getByRole('button', { name: 'Retry' });
		assert.equal(await retry.count(), 1, 'only the row the host offers it on');
		const row = page.locator('.row-turn-end', { has: retry });
		assert.match(await row.innerText(), /The provider refused the key \(401\)\.[\s\S]*Retry/, 'beside the error');
		await retry.focus();
		await page.keyboard.press('Enter');
		await chat.waitForPosted('turn.retry');
		assert.deepEqual(await postedOf(chat, 'turn.retry'), [{ type: 'turn.retry', turnId: 't2' }]);
		const { retry: _retry, ...withdrawn } = failed;
		await chat.host({ type: 'items.updated', seq: 1, sessionId: 's1', items: [withdrawn] });
		await retry.waitFor({ state: 'detached' });
		assert.match(await page.locator('.row-turn-end').last().innerText(), /The provider refused the key/, 'the error stays');
		await assertCleanAndClose(chat);
	});
});
