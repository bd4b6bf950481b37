// A running tool call's progress in the real bundle: its live row with a determinate or an
// indeterminate bar (a real progressbar, named after the tool), the server's message as text,
// still under reduced motion, and gone when the call ends and its recorded row arrives.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AgentView, PROTOCOL_VERSION } from '../../src/protocol/messages';
import { tool, user } from './items';
import { agentView, assertCleanAndClose, openChat, postedOf, useHarness, viewState } from './page';

const TOOL = 'mcp__everything__trigger-long-running-operation';
const running = (toolProgress: AgentView['toolProgress']): AgentView =>
	agentView({ status: { state: 'running', detail: `Running ${TOOL}…` }, ...(toolProgress ? { toolProgress } : {}) });

describe('tool progress', () => {
	const harness = useHarness();

	it('shows a determinate bar with its value, then an indeterminate one, and goes when the call ends', async () => {
		const chat = await openChat(harness);
		const { page } = chat;
		await chat.connect(viewState({ session: { id: 'session-1', title: 'Progress', items: [user('u1', 'run it')] }, agent: running(undefined) }));
		assert.equal(await page.locator('[data-kind="tool-progress"]').count(), 0);

		await chat.host({ type: 'agent.changed', seq: 1, agent: running([{ callId: 'c1', tool: TOOL, fraction: 0.4, message: 'Step 2 of 5 <b>copying</b>' }]) });
		const bar = page.getByRole('progressbar', { name: `${TOOL} progress` });
		await bar.waitFor();
		assert.equal(await bar.getAttribute('aria-valuenow'), '40');
		assert.equal(await bar.getAttribute('aria-valuemin'), '0');
		assert.equal(await bar.getAttribute('aria-valuemax'), '100');
		const row = page.locator('[data-kind="tool-progress"][data-call-id="c1"]');
		assert.equal(await row.locator('.tool-name').textContent(), TOOL);
		assert.equal(await row.locator('.tool-progress-message').textContent(), 'Step 2 of 5 <b>copying</b>', 'the message is text, never markup');
		assert.equal(await row.locator('b').count(), 0);
		const fillShare = () => bar.evaluate((element) => {
			const fill = element.firstElementChild as HTMLElement;
			return fill.getBoundingClientRect().width / element.getBoundingClientRect().width;
		});
		await page.waitForFunction(() => {
			const element = document.querySelector('[role="progressbar"]');
			const fill = element?.firstElementChild;
			return element && fill && Math.abs(fill.getBoundingClientRect().width / element.getBoundingClientRect().width - 0.4) < 0.02;
		});
		assert.ok(Math.abs((await fillShare()) - 0.4) < 0.02);

		// The server stops giving a total: the bar has no value, and moves unless motion is reduced.
		await chat.host({ type: 'agent.changed', seq: 2, agent: running([{ callId: 'c1', tool: TOOL }]) });
		await page.waitForFunction(() => document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow') === null);
		assert.equal(await bar.getAttribute('aria-valuemin'), null);
		assert.equal(await bar.getAttribute('aria-valuemax'), null);
		assert.equal(await row.locator('.tool-progress-message').isVisible(), false, 'no message, no line');
		const animation = () => bar.evaluate((element) => getComputedStyle(element.firstElementChild as HTMLElement).animationName);
		assert.equal(await animation(), 'tool-progress-slide');
		await page.emulateMedia({ reducedMotion: 'reduce' });
		assert.equal(await animation(), 'none', 'still under prefers-reduced-motion');
		assert.equal(await bar.getAttribute('aria-label'), `${TOOL} progress`);

		// The call ends: the live row goes and the recorded tool row takes its place.
		await chat.host({ type: 'items.appended', seq: 3, sessionId: 'session-1', items: [tool('t1', { callId: 'c1', name: TOOL, result: 'Long running operation completed.' })] });
		await chat.host({ type: 'agent.changed', seq: 4, agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) });
		await row.waitFor({ state: 'detached' });
		assert.equal(await page.getByRole('progressbar').count(), 0);
		await page.locator('li[data-id="t1"]').waitFor();
		assert.deepEqual(await postedOf(chat, 'log'), [], 'every message applied in sequence');
		await assertCleanAndClose(chat);
	});

	it('keeps one row per running call, in order, and a snapshot without progress shows none', async () => {
		const chat = await openChat(harness);
		const { page } = chat;
		await chat.connect(viewState({ agent: running([{ callId: 'c1', tool: 'mcp__a__one', fraction: 1 }, { callId: 'c2', tool: 'mcp__b__two' }]) }));
		const bars = page.getByRole('progressbar');
		await bars.nth(1).waitFor();
		assert.deepEqual(await bars.evaluateAll((elements) => elements.map((element) => [element.getAttribute('aria-label'), element.getAttribute('aria-valuenow')])), [
			['mcp__a__one progress', '100'],
			['mcp__b__two progress', null],
		]);
		await chat.host({ type: 'agent.changed', seq: 1, agent: running([{ callId: 'c2', tool: 'mcp__b__two', fraction: 0.5 }]) });
		await page.waitForFunction(() => document.querySelectorAll('[role="progressbar"]').length === 1);
		assert.equal(await bars.first().getAttribute('aria-valuenow'), '50');
		// A reopened chat: its snapshot has no live progress, so no stale bar stays.
		const other = viewState({ session: { id: 'session-2', title: 'Other', items: [user('u2', 'hello')] }, agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) });
		await chat.host({ type: 'snapshot', seq: 2, protocol: PROTOCOL_VERSION, state: other });
		await page.locator('li[data-id="u2"]').waitFor();
		assert.equal(await bars.count(), 0);
		assert.deepEqual(await postedOf(chat, 'log'), [], 'every message applied in sequence');
		await assertCleanAndClose(chat);
	});
});
