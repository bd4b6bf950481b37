// The virtualized transcript with the keyboard and the focus, in headless Chromium: expanding a
// row touches only that row and survives scrolling it away; Tab walks every row's controls
// beyond the rows first rendered; the focus survives streaming, appends and scrolling away.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assistant, entry, reminders, tool, user } from './items';
import { MEDIUM, openSession, scrollTo, settle, type View, view } from './longSession';
import { agentView, assertCleanAndClose, useHarness } from './page';

describe('virtualized transcript: focus and keyboard', () => {
	const harness = useHarness();

	it('expands a row without re-creating any other, shifting only the rows after it, and keeps it expanded out of range', async () => {
		const chat = await openSession(harness, MEDIUM.items);
		const { page } = chat;
		// A reminders row with rows after it, brought to near the top of the view.
		let middle = await scrollTo(page, 20_000);
		const reminderIn = (v: View): string | undefined => v.ids.find((key, i) => /^[rm]/.test(key) && i < v.ids.length - 3);
		for (let tries = 0; tries < 20 && reminderIn(middle) === undefined; tries++) {
			middle = await scrollTo(page, middle.scrollTop + middle.clientHeight);
		}
		const id = reminderIn(middle) ?? '';
		middle = await scrollTo(page, middle.scrollTop + (middle.tops[id] ?? 0) - 100);
		const after = middle.ids[middle.ids.indexOf(id) + 1] ?? '';
		assert.ok(Math.abs((middle.tops[id] ?? 0) - 100) < 2, `row ${id} near the top`);
		// Marks the mounted row elements; `unchanged` then tells whether any of them was replaced.
		const mark = (): Promise<void> =>
			page.evaluate(() => {
				const w = window as unknown as { __marked: string[] };
				w.__marked = [];
				for (const li of document.querySelectorAll<HTMLElement>('.transcript > li')) {
					(li as unknown as { __mark: boolean }).__mark = true;
					w.__marked.push(li.dataset.id ?? '');
				}
			});
		const unchanged = (): Promise<{ replaced: string[]; added: string[] }> =>
			page.evaluate(() => {
				const marked = new Set((window as unknown as { __marked: string[] }).__marked);
				const rows = [...document.querySelectorAll<HTMLElement>('.transcript > li')];
				return {
					replaced: rows.filter((li) => marked.has(li.dataset.id ?? '') && (li as unknown as { __mark?: boolean }).__mark !== true).map((li) => li.dataset.id ?? ''),
					added: rows.filter((li) => !marked.has(li.dataset.id ?? '')).map((li) => li.dataset.id ?? ''),
				};
			});
		const toggle = page.locator(`li[data-id="${id}"] button`).first();

		await mark();
		await toggle.click();
		await settle(page);
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
		let now = await view(page);
		const grown = (now.tops[after] ?? 0) - (middle.tops[after] ?? 0);
		assert.ok(grown > 30, `the next row moved down by the panel (${grown}px)`);
		assert.ok(Math.abs((now.tops[id] ?? 0) - (middle.tops[id] ?? 0)) < 1, 'the expanded row itself stays put');
		assert.deepEqual(await unchanged(), { replaced: [], added: [] }, 'no row element re-created or added');

		await mark();
		await page.keyboard.press('Space');
		await settle(page);
		assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
		now = await view(page);
		assert.ok(Math.abs((now.tops[after] ?? 0) - (middle.tops[after] ?? 0)) < 1, 'collapsed: the next row is back');
		assert.deepEqual((await unchanged()).replaced, [], 'no row element re-created');
		await mark();
		await page.keyboard.press('Enter');
		await settle(page);
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
		assert.deepEqual(await unchanged(), { replaced: [], added: [] }, 'expanded by keyboard: still no row re-created');

		// Out of range and back (without the focus, which would keep it mounted): still open.
		await page.evaluate(() => {
			(document.activeElement as HTMLElement).blur();
		});
		await scrollTo(page, 0);
		assert.equal(await page.locator(`li[data-id="${id}"]`).count(), 0, 'unmounted when far away');
		await scrollTo(page, middle.scrollTop);
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
		assert.ok((await page.locator(`li[data-id="${id}"] .reminder-entry`).count()) > 0);
		assert.equal(await page.locator(`li[data-id="${id}"] .reminders-panel`).isVisible(), true);
		await assertCleanAndClose(chat);
	});


	// Dense (most rows have a control) and sparse (eleven rows of text between two tool calls,
	// more than the overscan): either way, Tab reaches the next control.
	const sparse = Array.from({ length: 100 }, (_, block) => [
		// Answers only: a user row has a control of its own (Restore…).
		...Array.from({ length: 11 }, (_, i) => assistant(`a${block}-${i}`, 'An answer that goes on.\n'.repeat(1 + (i % 3)))),
		tool(`t${block}`),
	]).flat();
	for (const [name, items, order, first, tabs] of [
		['dense', MEDIUM.items, MEDIUM.order, 'r1', 140],
		['sparse', sparse, sparse.map((item) => item.id), 't0', 40],
	] as const) {
		it(`walks every row control with Tab, in order, far beyond the rows first rendered (${name})`, async () => {
			const chat = await openSession(harness, [...items]);
			const { page } = chat;
			await scrollTo(page, 0);
			const initial = (await view(page)).ids;
			await page.locator(`li[data-id="${first}"] button`).first().focus();
			const visited: number[] = [];
			const index = new Map(order.map((key, i) => [key, i]));
			const focusedRow = (): Promise<string | null> => page.evaluate(() => document.activeElement?.closest('.transcript > li')?.getAttribute('data-id') ?? null);
			for (let i = 0; i < tabs; i++) {
				await page.keyboard.press('Tab');
				const row = await focusedRow();
				assert.ok(row !== null, `Tab #${i + 1} stayed in the transcript (focus on ${await page.evaluate(() => document.activeElement?.tagName ?? '')})`);
				visited.push(index.get(row) ?? -1);
			}
			assert.deepEqual(visited, [...visited].sort((a, b) => a - b), 'forward, in order');
			const last = visited.at(-1) ?? 0;
			assert.ok(last >= 50 && last > order.indexOf(initial.at(-1) ?? ''), `reached row #${last}`);
			// No control skipped: every row with one, from the first to the last visited, got the focus.
			// The rows with a control: r, t and m rows, and the user rows (their Restore… and Fork from here).
			const withControls = order.slice(order.indexOf(first) + 1, last + 1).filter((key) => /^[rtmu]/.test(key));
			assert.deepEqual([...new Set(visited)].map((i) => order[i]), withControls);
			for (let i = 0; i < 30; i++) {
				await page.keyboard.press('Shift+Tab');
				const row = await focusedRow();
				assert.ok(row !== null, `Shift+Tab #${i + 1} stayed in the transcript`);
				visited.push(index.get(row) ?? -1);
			}
			const back = visited.slice(tabs);
			assert.deepEqual(back, [...back].sort((a, b) => b - a), 'backward, in order');
			assert.ok((await view(page)).ids.length <= 60);
			await assertCleanAndClose(chat);
		});
	}

	it('keeps the focus through streaming and appends, also when the focused row is scrolled far away', async () => {
		const chat = await openSession(harness, MEDIUM.items);
		const { page } = chat;
		let seq = 1;
		const start = await view(page);
		const id = [...start.ids].reverse().find((key) => key.startsWith('t')) ?? '';
		await page.locator(`li[data-id="${id}"] button.tool-toggle`).focus();
		await page.evaluate(() => {
			(window as unknown as { __focused: Element | null }).__focused = document.activeElement;
		});
		const stillFocused = (): Promise<boolean> => page.evaluate(
			() => document.activeElement === (window as unknown as { __focused: Element | null }).__focused,
		);
		const traffic = async (tag: string): Promise<void> => {
			await chat.host({ type: 'agent.changed', seq: seq++, agent: agentView({ status: { state: 'running', detail: 'Working' }, streaming: { requestId: `req-${tag}` } }) });
			await chat.host({ type: 'text.streamed', seq: seq++, requestId: `req-${tag}`, text: 'Hel' });
			for (let i = 0; i < 10; i++) {
				await chat.host({ type: 'text.streamed', seq: seq++, requestId: `req-${tag}`, text: 'lo\n' });
			}
			await chat.host({ type: 'items.appended', seq: seq++, sessionId: 'session-1', items: [assistant(`${tag}-a`, 'done\n'.repeat(5)), tool(`${tag}-t`), user(`${tag}-u`, 'next')] });
			await chat.host({ type: 'items.inserted', seq: seq++, sessionId: 'session-1', before: `${tag}-u`, items: [reminders(`${tag}-r`, [entry('session.date', 'date', 'd')])] });
			await settle(page);
		};
		await traffic('near');
		assert.ok(await stillFocused(), 'focus kept while rows arrive next to it');

		await scrollTo(page, 0);
		const far = await view(page);
		assert.ok(far.ids.includes(id), 'the focused row stays mounted, however far away');
		assert.ok(far.ids.length <= 60);
		assert.equal(far.ids[0], 'r1');
		await traffic('far');
		assert.ok(await stillFocused(), 'focus kept while scrolled away');
		const full = [...MEDIUM.order, ...['near', 'far'].flatMap((tag) => [`${tag}-a`, `${tag}-t`, `${tag}-r`, `${tag}-u`])];
		const positions = (await view(page)).ids.map((key) => full.indexOf(key));
		assert.deepEqual(positions, [...positions].sort((a, b) => a - b), 'still in order');
		assert.ok(!positions.includes(-1));

		// Tab from there goes on to the next control after that row, which scrolls into view.
		await page.keyboard.press('Tab');
		await settle(page);
		const next = await page.evaluate(() => document.activeElement?.closest('.transcript > li')?.getAttribute('data-id') ?? null);
		assert.ok(next !== null && next !== id, `focus moved on to ${next ?? 'nothing'}`);
		const now = await view(page);
		assert.ok((now.tops[next] ?? -1) >= 0 && (now.tops[next] ?? Infinity) < now.clientHeight, 'and into view');
		await assertCleanAndClose(chat);
	});
});
