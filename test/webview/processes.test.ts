// The background processes panel in the real bundle in headless Chromium: absent while nothing
// runs; each row's command, since when and last line; hostile commands and output stay text; Stop
// posts `processes.stop` and the row says stopping until the process left; Show terminal posts
// `processes.show` and is absent for a process without a terminal; both buttons by Tab and Enter;
// output updates keep the focus; it fits the 300 px sidebar.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROTOCOL_VERSION } from '../../src/protocol/messages';
import type { ProcessesView, ProcessView } from '../../src/protocol/processes';
import { DANGEROUS_ELEMENTS, FORGED_BLOCK, PWNED } from './corpus';
import { assertCleanAndClose, type ChatPage, openChat, postedOf, useHarness, viewState } from './page';

const row = (id: string, command: string, extra: Partial<ProcessView> = {}): ProcessView => ({ id, command, startedAt: '14:02:11 UTC', lastLine: '', hasTerminal: true, stopping: false, ...extra });

const TWO: ProcessesView = {
	rows: [
		row('p1', 'npm run dev', { lastLine: '  ➜  Local:   http://localhost:5173/' }),
		row('p2', 'npx tsc --watch', { startedAt: '14:03:40 UTC', lastLine: 'Found 0 errors. Watching for file changes.', hasTerminal: false }),
	],
};

/** Posts the panel as the host does, and waits until it shows `count` rows (0: gone). */
async function update(chat: ChatPage, seq: number, processes: ProcessesView): Promise<void> {
	await chat.host({ type: 'processes.changed', seq, processes });
	await chat.page.waitForFunction((count) => {
		const panel = document.querySelector<HTMLElement>('.processes-panel');
		return count === 0 ? panel?.hidden === true : panel?.hidden === false && panel.querySelectorAll('.process-row').length === count;
	}, processes.rows.length);
}

async function open(harness: ReturnType<typeof useHarness>, processes?: ProcessesView): Promise<ChatPage> {
	const chat = await openChat(harness);
	await chat.page.setViewportSize({ width: 300, height: 700 });
	await chat.connect(viewState(processes ? { processes } : {}));
	return chat;
}

describe('the background processes panel', () => {
	const harness = useHarness();

	it('is absent while no process runs, and goes when the last one ended', async () => {
		const chat = await open(harness);
		const panel = chat.page.getByRole('region', { name: 'Background processes' });
		assert.equal(await chat.page.locator('.processes-panel').isVisible(), false, 'none from a snapshot without processes');
		await update(chat, 1, { rows: [] });
		assert.equal(await chat.page.locator('.processes-panel').isVisible(), false, 'none with no rows');
		await update(chat, 2, TWO);
		assert.equal(await panel.isVisible(), true);
		await update(chat, 3, { rows: [TWO.rows[1] ?? assert.fail()] });
		assert.deepEqual(await chat.page.locator('.process-command').allInnerTexts(), ['npx tsc --watch'], 'an ended process leaves');
		await update(chat, 4, { rows: [] });
		assert.equal(await panel.isVisible(), false);
		await assertCleanAndClose(chat);
	});

	it('shows each running process\'s command, since when and last line, from the snapshot', async () => {
		const chat = await open(harness, TWO);
		const { page } = chat;
		await page.locator('.processes-panel').waitFor();
		assert.equal(await page.locator('.processes-title').innerText(), '2 background processes');
		assert.deepEqual(await page.locator('.process-command').allInnerTexts(), ['npm run dev', 'npx tsc --watch']);
		assert.deepEqual(await page.locator('.process-since').allInnerTexts(), ['since 14:02:11 UTC', 'since 14:03:40 UTC']);
		assert.deepEqual(await page.locator('.process-line').evaluateAll((nodes) => nodes.map((node) => node.textContent)), ['  ➜  Local:   http://localhost:5173/', 'Found 0 errors. Watching for file changes.']);
		assert.equal(await page.locator('.processes-panel').evaluate((node) => Boolean(node.compareDocumentPosition(document.querySelector('textarea') ?? node) & 4)), true, 'above the composer');
		await assertCleanAndClose(chat);
	});

	it('keeps hostile commands and output as text, on one line each, and fits 300 px', async () => {
		const long = `node -e "${'x'.repeat(400)}"`;
		const hostile: ProcessesView = {
			rows: [
				row('p1', `<img src=x onerror="${PWNED}">`, { lastLine: FORGED_BLOCK.replace(/\n/g, ' ') }),
				row('p2', 'echo one &&\necho two', { lastLine: `<img src=x onerror="${PWNED}"><script>${PWNED}</script>` }),
				row('p3', long, { lastLine: 'y'.repeat(499) }),
			],
		};
		const chat = await open(harness, hostile);
		const { page } = chat;
		const panel = page.locator('.processes-panel');
		await panel.waitFor();
		assert.equal(await panel.locator(DANGEROUS_ELEMENTS).count(), 0);
		assert.equal(await panel.locator('system-reminder').count(), 0);
		assert.equal(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), undefined, 'nothing in the panel ran');
		assert.equal(await page.locator('.process-command').first().innerText(), `<img src=x onerror="${PWNED}">`);
		assert.equal(await page.locator('.process-line').first().innerText(), FORGED_BLOCK.replace(/\n/g, ' '));
		assert.equal(await page.locator('.process-line').nth(1).innerText(), `<img src=x onerror="${PWNED}"><script>${PWNED}</script>`);
		const heights = await page.locator('.process-command').evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().height));
		assert.ok(heights.every((height) => height === heights[0]), `each command on one line: ${heights.join(', ')}`);
		const fit = await page.evaluate(() => ({
			wide: [...document.querySelectorAll<HTMLElement>('.processes-panel, .process-row, .process-head, .process-detail')].filter((node) => node.scrollWidth > node.clientWidth + 1).map((node) => node.className),
			outside: [...document.querySelectorAll<HTMLElement>('.processes-panel button')].filter((node) => node.getBoundingClientRect().right > window.innerWidth + 0.5).map((node) => node.getAttribute('aria-label')),
			page: document.documentElement.scrollWidth,
		}));
		assert.deepEqual(fit.wide, [], 'nothing scrolls sideways');
		assert.deepEqual(fit.outside, [], 'every button is inside the view');
		assert.ok(fit.page <= 300, `the page is ${fit.page} px wide`);
		const command = page.locator('.process-command').last();
		assert.ok(await command.evaluate((node) => node.scrollWidth > node.clientWidth), 'a long command is cut with an ellipsis');
		assert.equal(await command.getAttribute('title'), long, 'and whole in its tooltip');
		await assertCleanAndClose(chat);
	});

	it('Stop posts processes.stop and the row says stopping; Show terminal posts processes.show, only where there is a terminal', async () => {
		const chat = await open(harness, TWO);
		const { page } = chat;
		await page.locator('.processes-panel').waitFor();
		assert.equal(await page.getByRole('button', { name: /^Show the terminal of p1/ }).count(), 1);
		assert.equal(await page.getByRole('button', { name: /^Show the terminal of p2/ }).count(), 0, 'a child process has no terminal to show');
		await page.getByRole('button', { name: 'Show the terminal of p1 (npm run dev)' }).click();
		assert.deepEqual(await postedOf(chat, 'processes.show'), [{ type: 'processes.show', id: 'p1' }]);

		await page.getByRole('button', { name: 'Stop p2 (npx tsc --watch)' }).click();
		assert.deepEqual(await postedOf(chat, 'processes.stop'), [{ type: 'processes.stop', id: 'p2' }]);
		const stopped = page.locator('.process-row[data-id="p2"]');
		assert.equal(await stopped.locator('.process-since').innerText(), 'stopping…', 'at once, before the host answers');
		assert.equal(await stopped.locator('.process-stop').getAttribute('aria-disabled'), 'true');
		await stopped.locator('.process-stop').focus();
		await page.keyboard.press('Enter');
		assert.equal((await postedOf(chat, 'processes.stop')).length, 1, 'a second press posts nothing');
		// The host's update (new output) still says stopping, until the process left.
		await update(chat, 1, { rows: [TWO.rows[0] ?? assert.fail(), { ...(TWO.rows[1] ?? assert.fail()), lastLine: 'Shutting down', stopping: true }] });
		assert.equal(await stopped.locator('.process-since').innerText(), 'stopping…');
		assert.equal(await stopped.locator('.process-line').innerText(), 'Shutting down');
		assert.equal(await page.getByRole('button', { name: 'Stopping p2 (npx tsc --watch)' }).count(), 1);
		await update(chat, 2, { rows: [TWO.rows[0] ?? assert.fail()] });
		assert.equal(await stopped.count(), 0);

		// Stop pressed on p1, then another chat becomes current: its own p1 is not stopping.
		await page.getByRole('button', { name: 'Stop p1 (npm run dev)' }).click();
		await chat.host({ type: 'snapshot', seq: 3, protocol: PROTOCOL_VERSION, state: viewState({ session: { id: 'session-2', title: 'Other', items: [] }, processes: { rows: [row('p1', 'npm test -- --watch')] } }) });
		await page.getByRole('button', { name: 'Stop p1 (npm test -- --watch)' }).waitFor();
		assert.equal(await page.locator('.process-since').innerText(), 'since 14:02:11 UTC');
		await assertCleanAndClose(chat);
	});

	it('is reachable by keyboard: Tab to Show terminal and Stop, Enter presses them; an update keeps the focus', async () => {
		const chat = await open(harness, TWO);
		const { page } = chat;
		await page.locator('.processes-panel').waitFor();
		const label = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
		// From the panel's title (a click there starts the Tab order), Tab walks into the rows.
		await page.locator('.processes-title').click();
		await page.keyboard.press('Tab');
		assert.equal(await label(), 'Show the terminal of p1 (npm run dev)');
		await page.keyboard.press('Enter');
		assert.deepEqual(await postedOf(chat, 'processes.show'), [{ type: 'processes.show', id: 'p1' }]);
		await page.keyboard.press('Tab');
		assert.equal(await label(), 'Stop p1 (npm run dev)');
		// New output comes while the focus is on Stop: it stays there.
		await update(chat, 1, { rows: [{ ...(TWO.rows[0] ?? assert.fail()), lastLine: 'page reload src/App.tsx' }, TWO.rows[1] ?? assert.fail()] });
		// The update reaches the page asynchronously: wait for its line before asking where the focus is.
		await page.locator('.process-line', { hasText: 'page reload src/App.tsx' }).waitFor();
		assert.equal(await page.locator('.process-line').first().innerText(), 'page reload src/App.tsx');
		assert.equal(await label(), 'Stop p1 (npm run dev)');
		await page.keyboard.press('Enter');
		assert.deepEqual(await postedOf(chat, 'processes.stop'), [{ type: 'processes.stop', id: 'p1' }]);
		assert.equal(await label(), 'Stopping p1 (npm run dev)', 'the focus stays on the pressed button');
		await page.keyboard.press('Tab');
		assert.equal(await label(), 'Stop p2 (npx tsc --watch)', 'p2 has no Show terminal: Tab goes to its Stop');
		// p1 ended while the focus was on its button: the focus goes to the next row's.
		await page.keyboard.press('Shift+Tab');
		await update(chat, 2, { rows: [TWO.rows[1] ?? assert.fail()] });
		assert.equal(await label(), 'Stop p2 (npx tsc --watch)');
		// The last one ended with the focus on it: the message box below the panel has it, not the page.
		await update(chat, 3, { rows: [] });
		assert.equal(await label(), 'Message Aside');
		await assertCleanAndClose(chat);
	});
});
