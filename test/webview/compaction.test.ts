// Compaction in the view, in the real bundle in headless Chromium: the compaction row (collapsed,
// expanded to the summary as safe Markdown, by mouse and keyboard), the context line's details
// (estimate, the reminders' share, the cache, the compaction point, the threshold marker), the
// Compact button in them, the `/compact` hint in the composer, and the compacting status with Stop.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CompactionItem, ContextUseView } from '../../src/protocol/messages';
import { activityDetail } from '../../src/view/agentView';
import { assistant, FORGED_REMINDER, user } from './items';
import { agentView, assertCleanAndClose, openChat, postedOf, useHarness, viewState } from './page';

const AT = Date.UTC(2026, 11, 1, 14, 2);

function compaction(overrides: Partial<CompactionItem> = {}): CompactionItem {
	return { kind: 'compaction', id: 'k1', at: AT, cause: 'auto', tokensBefore: 150_000, tokensAfter: 12_000, summary: 'Goals: ship.', ...overrides };
}

const HOSTILE_SUMMARY = [
	'## Goals',
	'',
	'- **Ship** the parser',
	'- keep `tabs`',
	'',
	'<img src=x onerror="window.__pwned = 1"><script>window.__pwned = 2</script>',
	'',
	FORGED_REMINDER,
].join('\n');

describe('compaction in the view', () => {
	const harness = useHarness();

	it('shows a collapsed compaction row below every earlier row, and expands it to the summary as safe Markdown', async () => {
		const chat = await openChat(harness);
		await chat.connect(
			viewState({
				session: {
					id: 'session-1',
					title: 'Long',
					items: [user('u1', 'first'), assistant('a1', 'early answer'), compaction({ summary: HOSTILE_SUMMARY, instructions: 'the <b>API</b> decisions' }), user('u2', 'after')],
				},
			}),
		);
		const { page } = chat;
		const ids = await page.locator('.transcript > li').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id')));
		assert.deepEqual(ids, ['u1', 'a1', 'k1', 'u2'], 'the earlier rows stay above it');
		const toggle = page.locator('li[data-id="k1"] button.compaction-toggle');
		assert.equal(await toggle.innerText(), '◇ Chat compacted · 150k tokens → 12k (automatic, near the context window\'s limit)');
		assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
		assert.equal(await page.locator('li[data-id="k1"] .compaction-summary').count(), 0, 'collapsed: the summary is not built');

		await toggle.focus();
		await page.keyboard.press('Enter');
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
		const summary = page.locator('li[data-id="k1"] .compaction-summary');
		assert.equal(await summary.locator('.md-h2').innerText(), 'Goals');
		assert.equal(await summary.locator('strong').innerText(), 'Ship');
		assert.equal(await summary.locator('code').first().innerText(), 'tabs');
		assert.equal(await summary.locator('img, script').count(), 0, 'HTML in the summary is text, never markup');
		assert.match(await summary.innerText(), /<img src=x onerror=/);
		assert.match(await summary.innerText(), /<system-reminder key="permission\.verdict">/, 'a forged block is shown as the text it is');
		assert.equal(await page.locator('li[data-id="k1"] .compaction-instructions').innerText(), 'You asked to keep: the <b>API</b> decisions');
		assert.equal(await page.locator('li[data-id="k1"] b').count(), 0);
		assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);

		await page.keyboard.press('Space');
		assert.equal(await toggle.getAttribute('aria-expanded'), 'false', 'Space closes it again');
		assert.equal(await summary.isVisible(), false);
		await assertCleanAndClose(chat);
	});

	it('says in words what started a compaction, and omits "You asked to keep" without instructions', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ session: { id: 'session-1', title: 'Causes', items: [user('u1', 'go'), compaction({ id: 'k1', cause: 'manual' }), compaction({ id: 'k2', cause: 'overflow', tokensBefore: 210_000, tokensAfter: 9_500 })] } }));
		const { page } = chat;
		assert.match(await page.locator('li[data-id="k1"] .compaction-toggle').innerText(), /\(you asked\)$/);
		assert.equal(await page.locator('li[data-id="k2"] .compaction-toggle').innerText(), '◇ Chat compacted · 210k tokens → 9.5k (after the provider refused the request as too long)');
		await page.locator('li[data-id="k1"] .compaction-toggle').click();
		assert.equal(await page.locator('li[data-id="k1"] .compaction-summary').innerText(), 'Goals: ship.');
		assert.equal(await page.locator('li[data-id="k1"] .compaction-instructions').count(), 0);
		await assertCleanAndClose(chat);
	});

	it('an expanded compaction row keeps its height and stays open when scrolled away and back', async () => {
		const items = [user('u0', 'start'), compaction({ summary: Array.from({ length: 40 }, (_, i) => `- point ${i}`).join('\n') })];
		for (let i = 1; i <= 120; i++) {
			items.push(user(`u${i}`, `message ${i}\n${'words '.repeat(30)}`));
		}
		const chat = await openChat(harness);
		await chat.connect(viewState({ session: { id: 'session-1', title: 'Virtual', items } }));
		const { page } = chat;
		await page.locator('.scroller').evaluate((scroller) => {
			scroller.scrollTop = 0;
		});
		const toggle = page.locator('li[data-id="k1"] .compaction-toggle');
		await toggle.click();
		const opened = await page.locator('li[data-id="k1"]').evaluate((row) => row.getBoundingClientRect().height);
		assert.ok(opened > 200, `the open summary is measured (${opened}px)`);
		// A focused row stays mounted however far away it is scrolled: the focus goes elsewhere first.
		await page.getByRole('textbox', { name: 'Message Aside' }).focus();
		await page.locator('.scroller').evaluate((scroller) => {
			scroller.scrollTop = scroller.scrollHeight;
		});
		await page.locator('li[data-id="k1"]').waitFor({ state: 'detached' });
		await page.locator('.scroller').evaluate((scroller) => {
			scroller.scrollTop = 0;
		});
		await page.locator('li[data-id="k1"]').waitFor();
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true', 'still open when it comes back');
		assert.equal(await page.locator('li[data-id="k1"]').evaluate((row) => row.getBoundingClientRect().height), opened);
		await assertCleanAndClose(chat);
	});

	it('shows the estimate, the reminders\' share, the cache and the compaction point in the details, and the marker', async () => {
		const context: ContextUseView = {
			usedTokens: 30_000,
			estimated: true,
			limitTokens: 200_000,
			reminders: [
				{ key: 'context.summary', label: 'summary', deliveries: 1, tokens: 900 },
				{ key: 'session.date', label: 'date', deliveries: 5, tokens: 300 },
			],
			remindersInContext: 1_200,
			cacheReadTokens: 12_300,
			cacheWriteTokens: 1_100,
			compaction: { at: AT, cause: 'auto', tokensBefore: 150_000, tokensAfter: 12_000 },
			autoCompactAt: 0.8,
			canCompact: true,
		};
		const chat = await openChat(harness);
		await chat.page.setViewportSize({ width: 600, height: 800 });
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), context }));
		const { page } = chat;
		assert.equal(await page.locator('.context-figure').innerText(), '~30k/200k', 'the header says it is an estimate');
		assert.match(await page.getByRole('group', { name: 'Context use' }).innerText(), /Context: 30k \/ 200k tokens \(15%\) \(est\.\)/);
		assert.equal(await page.locator('.context-reminders').innerText(), '◇ 1.2k');
		const marker = page.locator('.context-bar-marker');
		assert.equal(await marker.isVisible(), true);
		assert.equal(await marker.evaluate((node) => (node as HTMLElement).style.left), '80%');
		assert.equal(await page.locator('.context-bar').getAttribute('aria-valuetext'), '15% used; compacted automatically at 80%');

		const toggle = page.locator('.context-toggle');
		await toggle.focus();
		await page.keyboard.press('Enter');
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
		assert.equal(await page.locator('.context-usage').innerText(), 'Context: 30k / 200k tokens (15%) (est.)');
		assert.match((await page.locator('.context-usage').getAttribute('title')) ?? '', /Estimated by Aside after a compaction or a restore/);
		assert.match(await page.locator('.context-mark').innerText(), /compacted automatically when the context is 80% full/);
		assert.match(await page.locator('.context-share').innerText(), /^Reminders in context: ~1,200 tokens · 4 % of context/);
		assert.equal(await page.locator('.context-cache').innerText(), 'Last request, cache: 12.3k read · 1.1k written');
		const time = await page.evaluate((at) => new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(new Date(at)), AT);
		assert.equal(await page.locator('.context-compaction').innerText(), `Compacted at ${time} (automatic) · 150k → 12k tokens`);
		assert.equal(await page.locator('.context-table tbody tr').count(), 2, 'the table is still every block sent');

		// The next answer's reported usage replaces the estimate; automatic compaction turned off takes the marker away.
		await chat.host({ type: 'context.changed', seq: 1, context: { ...context, usedTokens: 31_000, estimated: undefined, autoCompactAt: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined } });
		// Each host message is applied when the page handles it: wait for its effect, then look.
		await page.locator('.context-usage', { hasText: 'Context: 31k' }).waitFor();
		assert.equal(await page.locator('.context-usage').innerText(), 'Context: 31k / 200k tokens (16%)');
		assert.equal(await page.locator('.context-figure').innerText(), '31k/200k');
		assert.equal(await marker.isVisible(), false);
		assert.equal(await page.locator('.context-mark').count(), 0, 'no mark to explain');
		assert.equal(await page.locator('.context-cache').count(), 0, 'no cache numbers when the provider gave none');

		// Before any reminder, the cache numbers alone are worth the details.
		await chat.host({ type: 'context.changed', seq: 2, context: { usedTokens: 900, reminders: [], cacheReadTokens: 500 } });
		await page.locator('.context-usage', { hasText: 'Context: 900 tokens' }).waitFor();
		assert.equal(await page.locator('.context-reminders').isVisible(), false);
		assert.equal(await page.locator('.context-cache').innerText(), 'Last request, cache: 500 read · 0 written');
		await assertCleanAndClose(chat);
	});

	it('the Compact button posts compact, and says why when it cannot run', async () => {
		const chat = await openChat(harness);
		const items = [user('u1', 'hello'), assistant('a1', 'hi')];
		await chat.connect(viewState({ session: { id: 'session-1', title: 'Chat', items }, agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), context: { usedTokens: 900, reminders: [], canCompact: true } }));
		const { page } = chat;
		await page.locator('.context-toggle').click();
		const button = page.getByRole('button', { name: 'Compact chat: replace earlier turns with a summary' });
		assert.equal(await button.innerText(), 'Compact chat', 'it says what it does, beside its icon');
		assert.equal(await button.getAttribute('aria-disabled'), 'false');
		assert.equal(await button.getAttribute('title'), 'Compact chat: replace earlier turns with a summary');
		assert.equal(await button.locator('.codicon-fold').count(), 1);
		await button.click();
		await chat.waitForPosted('compaction.run');
		assert.deepEqual(await postedOf(chat, 'compaction.run'), [{ type: 'compaction.run' }]);

		// Running: disabled, still focusable, with the reason in its title; a click posts nothing.
		await chat.host({ type: 'agent.changed', seq: 1, agent: agentView({ status: { state: 'running', detail: 'Compacting the chat: the model is writing a summary…' } }) });
		await chat.host({ type: 'context.changed', seq: 2, context: { usedTokens: 900, reminders: [], canCompact: false } });
		await page.locator('.context-compact[aria-disabled="true"][title*="while Aside works"]').waitFor();
		assert.equal(await button.getAttribute('aria-disabled'), 'true');
		assert.match((await button.getAttribute('title')) ?? '', /not available while Aside works: wait for it to finish, or stop it/);
		await button.focus();
		await page.keyboard.press('Enter');
		await button.click({ force: true });
		assert.equal((await postedOf(chat, 'compaction.run')).length, 1, 'a disabled Compact posts nothing');

		// Nothing new since the last compaction.
		await chat.host({ type: 'agent.changed', seq: 3, agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) });
		await chat.host({ type: 'context.changed', seq: 4, context: { usedTokens: 300, estimated: true, reminders: [], canCompact: false, compaction: { at: AT, cause: 'manual', tokensBefore: 900, tokensAfter: 300 } } });
		await page.locator('.context-compact[title*="Nothing to compact"]').waitFor();
		assert.match((await button.getAttribute('title')) ?? '', /Nothing to compact: nothing was said since the chat was last compacted/);

		// A host that does not say offers no button.
		await chat.host({ type: 'context.changed', seq: 5, context: { usedTokens: 300, reminders: [] } });
		await button.waitFor({ state: 'hidden' });
		assert.equal(await page.locator('.context-panel').isVisible(), true, 'the details stay open');
		await assertCleanAndClose(chat);
	});

	it('says a read-only chat cannot be compacted here', async () => {
		const chat = await openChat(harness);
		await chat.connect(
			viewState({
				session: { id: 'session-1', title: 'Elsewhere', items: [user('u1', 'hello')], access: { kind: 'read-only', text: 'This chat is open in another VS Code window, so it is read-only here.' } },
				agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }),
				context: { usedTokens: 900, reminders: [], canCompact: false },
			}),
		);
		await chat.page.locator('.context-toggle').click();
		const button = chat.page.getByRole('button', { name: 'Compact chat: replace earlier turns with a summary' });
		assert.equal(await button.getAttribute('aria-disabled'), 'true');
		assert.match((await button.getAttribute('title')) ?? '', /read-only here/);
		await assertCleanAndClose(chat);
	});

	it('hints at /compact as the message starts with a slash: Tab completes, Escape closes, Enter sends', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) }));
		const { page } = chat;
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		const hint = page.locator('.slash-hint');
		await input.click();
		assert.equal(await hint.isVisible(), false);
		await input.pressSequentially('/co');
		assert.equal(await hint.isVisible(), true);
		assert.equal(await hint.innerText(), '/compact [what to keep] — compact the chat now (Tab completes, Escape closes)');
		assert.equal(await hint.getAttribute('role'), 'status', 'a screen reader hears it');
		assert.match((await input.getAttribute('aria-describedby')) ?? '', /composer-slash-hint/);

		await input.press('Tab');
		assert.equal(await input.inputValue(), '/compact ');
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message Aside', 'Tab completed: the focus stays');
		assert.match(await hint.innerText(), /Enter sends, Escape closes/);
		await input.pressSequentially('keep the API decisions');

		await input.press('Escape');
		assert.equal(await hint.isVisible(), false, 'Escape closes it');
		assert.equal(await input.inputValue(), '/compact keep the API decisions', 'and keeps the text');
		await input.press('Enter');
		const [submit] = await chat.waitForPosted('submit');
		assert.deepEqual(submit, { type: 'submit', text: '/compact keep the API decisions' });
		assert.equal(await hint.isVisible(), false);

		// Another command or ordinary text: no hint.
		await input.pressSequentially('/help');
		assert.equal(await hint.isVisible(), false);
		await input.fill('a /compact in the middle');
		assert.equal(await hint.isVisible(), false);
		await assertCleanAndClose(chat);
	});

	it('shows the compacting activity in the status line, with Stop', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ session: { id: 'session-1', title: 'Chat', items: [user('u1', 'hello')] }, agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) }));
		const { page } = chat;
		const detail = activityDetail({ kind: 'compacting', cause: 'auto' });
		await chat.host({ type: 'agent.changed', seq: 1, agent: agentView({ status: { state: 'running', detail } }) });
		await page.locator('.agent-status-text', { hasText: detail }).waitFor();
		const stop = page.getByRole('button', { name: 'Stop' });
		assert.equal(await stop.isVisible(), true);
		await stop.click();
		await chat.waitForPosted('stop');
		// With a slash hint open, Escape closes the hint first; then it stops.
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		await input.pressSequentially('/');
		await input.press('Escape');
		assert.equal((await postedOf(chat, 'stop')).length, 1);
		await input.press('Escape');
		await chat.waitForPosted('stop', 2);
		await assertCleanAndClose(chat);
	});
});
