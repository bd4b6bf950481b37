// The header: the context line (its figure and meter; its details with the reminder costs per key,
// by keyboard), the chat list, and the line that says a chat is read-only here or a copy.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROTOCOL_VERSION } from '../../src/protocol/messages';
import { wrap } from '../../src/reminders/envelope';
import { ContextUseTracker } from '../../src/view/contextUse';
import { agentView, assertCleanAndClose, openChat, postedOf, useHarness, viewState } from './page';

describe('header', () => {
	const harness = useHarness();

	it('an empty chat shows no context line, and no reminder costs before one was sent', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ context: { reminders: [] } }));
		const { page } = chat;
		assert.equal(await page.locator('.context-line').isVisible(), false, 'nothing to report: no line');
		assert.doesNotMatch(await page.locator('body').innerText(), /0 tokens|0 blocks|no request yet/);

		// The model's window is known before the first request: that much is worth a line.
		await chat.host({ type: 'context.changed', seq: 1, context: { limitTokens: 200_000, reminders: [] } });
		const toggle = page.locator('.context-toggle');
		await page.locator('.context-line').waitFor();
		assert.equal(await toggle.getAttribute('title'), 'Context: 200k tokens available. Details: what Aside\'s reminders cost, the prompt cache, Compact');
		assert.equal(await page.locator('.context-reminders').isVisible(), false, 'no "◇ 0"');
		assert.equal(await page.locator('.context-bar').isVisible(), false, 'no meter without numbers');
		await toggle.click();
		assert.equal(await page.locator('.context-usage').innerText(), 'Context: 200k tokens available');
		assert.equal(await page.locator('.context-empty').innerText(), 'No system reminders have been sent in this chat yet.');

		// A new empty chat (a snapshot) hides the line again, with its open details.
		await chat.host({ type: 'context.changed', seq: 2, context: { usedTokens: 900, limitTokens: 200_000, reminders: [{ key: 'session.date', label: 'date', deliveries: 1, tokens: 14 }] } });
		await page.locator('.context-table').waitFor();
		await chat.host({ type: 'snapshot', seq: 3, protocol: PROTOCOL_VERSION, state: viewState() });
		await page.locator('.context-line').waitFor({ state: 'hidden' });
		await chat.host({ type: 'context.changed', seq: 4, context: { limitTokens: 200_000, reminders: [] } });
		await page.locator('.context-line').waitFor();
		assert.equal(await page.locator('.context-panel').isVisible(), false, 'no details left open with nothing in them');
		assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
		await assertCleanAndClose(chat);
	});

	it('shows context use against the window in the header and, in the details, what each reminder key cost', async () => {
		const chat = await openChat(harness);
		await chat.page.setViewportSize({ width: 600, height: 700 });
		await chat.connect(viewState({ context: { usedTokens: 1_000, reminders: [{ key: 'session.date', label: 'date', deliveries: 1, tokens: 14 }] } }));
		const { page } = chat;
		const line = page.getByRole('group', { name: 'Context use' });
		assert.equal(await page.locator('.context-figure').innerText(), '1k used');
		assert.match(await line.innerText(), /Context: 1k tokens/, 'the use in words, for a screen reader');
		assert.equal(await page.locator('.context-bar').isVisible(), false, 'no meter without the window');
		assert.equal(await page.locator('.context-reminders').innerText(), '◇ 14');

		await chat.host({
			type: 'context.changed',
			seq: 1,
			context: {
				usedTokens: 150_000,
				limitTokens: 200_000,
				reminders: [
					{ key: 'workspace.instructions', label: 'instructions', deliveries: 1, tokens: 1_250 },
					{ key: 'session.date', label: 'date', deliveries: 3, tokens: 42 },
					{ key: 'x.forged', label: '<img src=x onerror="window.__pwned=1">', deliveries: 1, tokens: 7 },
				],
			},
		});
		await page.locator('.context-figure', { hasText: '150k/200k' }).waitFor();
		assert.match(await line.innerText(), /Context: 150k \/ 200k tokens \(75%\)/);
		assert.equal(await page.getByRole('meter', { name: 'Context used' }).getAttribute('aria-valuenow'), '75');
		assert.equal(await page.locator('.context-reminders').innerText(), '◇ 1.3k');

		const toggle = page.locator('.context-toggle');
		await toggle.focus();
		await page.keyboard.press('Enter');
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
		assert.equal(await page.locator('.context-usage').innerText(), 'Context: 150k / 200k tokens (75%)');
		const rows = await page.locator('.context-table tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('.context-label, .context-key, td + td'), (cell) => cell.textContent)));
		assert.deepEqual(rows, [
			['instructions', 'workspace.instructions', '1', '~1,250'],
			['date', 'session.date', '3', '~42'],
			['<img src=x onerror="window.__pwned=1">', 'x.forged', '1', '~7'],
		]);
		assert.equal(await page.locator('.context-table tfoot td').last().innerText(), '~1,299');
		assert.equal(await page.locator('.context-line img').count(), 0, 'labels are text');
		assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);

		// Past 80% the meter says so; a later delta updates open details in place.
		await chat.host({ type: 'context.changed', seq: 2, context: { usedTokens: 190_000, limitTokens: 200_000, reminders: [{ key: 'session.date', label: 'date', deliveries: 4, tokens: 56 }] } });
		await page.locator('.context-bar.context-bar-high').waitFor();
		assert.equal(await page.locator('.context-table tbody tr').count(), 1);
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
		await assertCleanAndClose(chat);
	});

	it('opens the context details by Enter or Space and closes them by Escape, the focus back on their button', async () => {
		const chat = await openChat(harness);
		await chat.page.setViewportSize({ width: 300, height: 700 });
		const context = { usedTokens: 150_000, limitTokens: 200_000, autoCompactAt: 0.8, canCompact: true, reminders: [{ key: 'session.date', label: 'date', deliveries: 1, tokens: 14 }] };
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), context }));
		const { page } = chat;
		const toggle = page.getByRole('button', { name: /^Context: 150k \/ 200k tokens \(75%\)/ });
		const panel = page.getByRole('group', { name: 'Context details' });
		assert.equal(await page.locator('.context-percent').innerText(), '75%', 'at 300 px, the percentage');
		assert.equal(await panel.isVisible(), false, 'closed until asked');
		await toggle.focus();
		await page.keyboard.press('Enter');
		assert.equal(await panel.isVisible(), true);
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
		assert.equal(await page.locator('.context-mark').innerText(), 'The mark on the meter: the chat is compacted automatically when the context is 80% full.');
		// Into the details: Compact is a labelled button there; Escape from inside closes and returns.
		await page.keyboard.press('Tab');
		assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Compact chat');
		await page.keyboard.press('Escape');
		assert.equal(await panel.isVisible(), false);
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('context-toggle')), true, 'the focus is back on the button');
		assert.deepEqual(await postedOf(chat, 'stop'), [], 'Escape closed the details, nothing else');

		await page.keyboard.press('Space');
		assert.equal(await panel.isVisible(), true, 'Space opens them too');
		await page.keyboard.press('Space');
		assert.equal(await panel.isVisible(), false, 'and closes them');
		await page.keyboard.press('Enter');
		await page.keyboard.press('Escape');
		assert.equal(await panel.isVisible(), false, 'Escape on the button closes them');

		// A click in the chat closes open details.
		await toggle.click();
		await page.locator('.scroller').click({ position: { x: 20, y: 300 } });
		assert.equal(await panel.isVisible(), false);
		await assertCleanAndClose(chat);
	});

	it('says the same reminder tokens in the header, the details and the table: the host estimates each block once', async () => {
		// Blocks whose lengths are no multiple of four: rounding their characters' sum said ~425, the table ~427.
		const filler = (length: number, key: string): string => 'x'.repeat(length - wrap(key, '').length);
		const tracker = new ContextUseTracker();
		tracker.take({ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner: { kind: 'root', id: 't1' }, requestId: 'q1', at: 1, turn: 1, entries: [
			{ type: 'workspaceInstructions', key: 'workspace.instructions', label: 'instructions', body: filler(1521, 'workspace.instructions'), reason: 'r' },
			{ type: 'sessionDate', key: 'session.date', label: 'date', body: filler(61, 'session.date'), reason: 'r' },
		] });
		tracker.take({ kind: 'tool-result', id: 'r1', turnId: 't1', callId: 'c1', name: 'Read', at: 2, content: 'a', isError: false, notices: [{ key: 'read.truncated', body: filler(117, 'read.truncated') }] });
		const chat = await openChat(harness);
		await chat.page.setViewportSize({ width: 600, height: 700 });
		await chat.connect(viewState({ context: tracker.view(200_000) }));
		const { page } = chat;
		assert.equal(await page.locator('.context-reminders').innerText(), '◇ 427');
		await page.locator('.context-toggle').click();
		assert.match(await page.locator('.context-share').innerText(), /^Reminders in context: ~427 tokens/);
		assert.equal(await page.locator('.context-table tfoot td').last().innerText(), '~427');
		await assertCleanAndClose(chat);
	});

	it('lists the chats from the host, opens one by keyboard, and starts a new chat', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState());
		const { page } = chat;
		const toggle = page.getByRole('button', { name: 'Chats' });
		await toggle.click();
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
		await chat.waitForPosted('sessions.list');
		assert.equal(await page.locator('.session-list-status').innerText(), 'Loading…');

		const at = Date.UTC(2026, 10, 29, 15, 0);
		await chat.host({
			type: 'sessions.listed',
			seq: 1,
			sessions: [
				{ id: 's3', title: 'Fix the build', at, current: true },
				{ id: 's2', title: '<b>Refactor</b> the parser', at: at - 3_600_000, current: false },
				{ id: 's1', title: 'First try', at: at - 86_400_000, current: false },
			],
		});
		const titles = await page.locator('.session-item-title').allInnerTexts();
		assert.deepEqual(titles, ['Fix the build', '<b>Refactor</b> the parser', 'First try']);
		assert.equal(await page.locator('.session-list b').count(), 0);
		// The focus starts on the current chat; arrows move, Enter opens.
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-id')), 's3');
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('ArrowDown');
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-id')), 's1');
		await page.keyboard.press('Enter');
		assert.deepEqual(await postedOf(chat, 'session.open'), [{ type: 'session.open', id: 's1' }]);
		assert.equal(await page.locator('.session-list').isHidden(), true);

		// Escape closes the list and gives the focus back to its button.
		await toggle.click();
		await chat.host({ type: 'sessions.listed', seq: 2, sessions: [] });
		// The message event runs after host() returns: wait for it (a bare read raced it on 2 busy cores).
		await page.locator('.session-list-status', { hasText: 'No saved chats in this workspace yet.' }).waitFor();
		await page.keyboard.press('Escape');
		assert.equal(await page.locator('.session-list').isHidden(), true);
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Chats');

		await page.getByRole('button', { name: 'New chat' }).click();
		assert.equal((await postedOf(chat, 'session.new')).length, 1);
		await assertCleanAndClose(chat);
	});

	it('deletes a chat by keyboard only after asking in its row; Cancel and Escape keep it', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState());
		const { page } = chat;
		await page.getByRole('button', { name: 'Chats' }).click();
		await chat.waitForPosted('sessions.list');
		const at = Date.UTC(2026, 10, 29, 15, 0);
		await chat.host({
			type: 'sessions.listed',
			seq: 1,
			sessions: [
				{ id: 's2', title: 'Current work', at, current: true },
				{ id: 's1', title: 'Old <i>try</i>', at: at - 60_000, current: false },
			],
		});
		await page.locator('.session-item[data-id="s2"]').waitFor();
		// Arrows move between chats; Tab reaches the chat's Delete.
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-id')), 's2');
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('Tab');
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Delete chat Old <i>try</i>');
		await page.keyboard.press('Enter');
		const question = page.locator('.session-delete-question');
		assert.equal(await question.innerText(), 'Delete “Old <i>try</i>”? Its saved checkpoints go too.');
		assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel', 'the safe choice has the focus');
		// Escape leaves the question, not the list, and nothing was asked of the host.
		await page.keyboard.press('Escape');
		assert.equal(await question.count(), 0);
		assert.equal(await page.locator('.session-list').isHidden(), false);
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Delete chat Old <i>try</i>');
		await page.keyboard.press('Enter');
		await page.keyboard.press('Enter');
		assert.equal(await question.count(), 0, 'Cancel by Enter');
		assert.deepEqual(await postedOf(chat, 'session.delete'), []);

		// Asked again and confirmed: the host is told, the row says it is being deleted.
		await page.keyboard.press('Enter');
		await page.keyboard.press('Shift+Tab');
		assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Delete');
		await page.keyboard.press('Enter');
		assert.deepEqual(await postedOf(chat, 'session.delete'), [{ type: 'session.delete', id: 's1' }]);
		assert.equal(await question.innerText(), 'Deleting “Old <i>try</i>”…');
		assert.equal(await page.locator('.session-list i').count(), 0);
		// The host's new list replaces it.
		await chat.host({ type: 'sessions.listed', seq: 2, sessions: [{ id: 's2', title: 'Current work', at, current: true }] });
		await page.locator('.session-delete-question').waitFor({ state: 'detached' });
		assert.deepEqual(await page.locator('.session-item-title').allInnerTexts(), ['Current work']);

		// The current chat's question says a new one starts.
		await page.locator('.session-delete').click();
		assert.match(await question.innerText(), /^Delete “Current work” \(the current chat: a new one starts\)\?/);
		await assertCleanAndClose(chat);
	});

	it('says plainly that a chat is read-only here, then that it continues as a copy, and nothing for an ordinary chat', async () => {
		const chat = await openChat(harness);
		const readOnly = 'This chat is open in another VS Code window, so it is read-only here. <img src=x onerror="window.__pwned=1">';
		await chat.connect(viewState({ session: { id: 's1', title: 'Fix the build', items: [], access: { kind: 'read-only', text: readOnly } } }));
		const { page } = chat;
		const line = page.locator('.session-access');
		assert.equal(await line.isVisible(), true);
		assert.equal(await line.innerText(), readOnly, 'the host\'s sentence, as text');
		assert.equal(await line.getAttribute('role'), 'status');
		assert.equal(await line.locator('.codicon-lock').count(), 1);
		assert.equal(await page.locator('.session-access img').count(), 0);

		// The person sent a message: the host made a copy, which is current now.
		await chat.host({ type: 'snapshot', seq: 1, protocol: PROTOCOL_VERSION, state: viewState({ session: { id: 's2', title: 'Fix the build (copy)', items: [], access: { kind: 'copy', text: 'This chat is a copy of “Fix the build”.' } } }) });
		assert.equal(await line.innerText(), 'This chat is a copy of “Fix the build”.');
		assert.equal(await line.locator('.codicon-repo-forked').count(), 1);

		await chat.host({ type: 'snapshot', seq: 2, protocol: PROTOCOL_VERSION, state: viewState() });
		assert.equal(await line.isHidden(), true);
		assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
		await assertCleanAndClose(chat);
	});
});
