// The virtualized transcript in the real bundle in headless Chromium: of a 10,000-row session
// only the rows in view are in the DOM, in order, however it is scrolled; the scroll height is
// that of all rows; appends and streaming keep the view where the person left it; only new rows
// are announced. Focus and keyboard: virtualFocus.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TranscriptItem } from '../../src/protocol/messages';
import { displayRows } from '../../src/view/rowOrder';
import { assistant, entry, reminders, tool, turnEnd, user } from './items';
import { assertRun, atEnd, BIG, MEDIUM, openSession, scrollTo, settle, view } from './longSession';
import { agentView, assertCleanAndClose, openChat, useHarness, viewState } from './page';

describe('virtualized transcript', () => {
	const harness = useHarness();

	it('shows a 10,000-row session with only the rows in view in the DOM, in order, at the end, the top and the middle', async () => {
		const chat = await openSession(harness, BIG.items);
		const { page } = chat;
		const end = await view(page);
		assert.ok(atEnd(end), 'a snapshot opens at the end');
		assert.equal(end.ids.at(-1), BIG.order.at(-1));
		assertRun(end.ids, BIG.order, 'at the end');
		assert.ok(end.covered);
		assert.equal(await page.locator('.transcript').getAttribute('aria-label'), 'Transcript');
		// Plausible: between the shortest row (a one-line tool call) and a long answer, on average.
		assert.ok(end.scrollHeight > BIG.order.length * 30 && end.scrollHeight < BIG.order.length * 400, `scroll height ${end.scrollHeight}`);

		const top = await scrollTo(page, 0);
		assert.equal(assertRun(top.ids, BIG.order, 'at the top'), 0);
		assert.deepEqual(top.ids.slice(0, 2), ['r1', 'u1'], 'the turn-start reminders above their user message');
		const first = page.locator('.transcript > li').first();
		assert.equal(await first.getAttribute('aria-posinset'), '1');
		assert.equal(await first.getAttribute('aria-setsize'), String(BIG.order.length));
		assert.equal(await first.getAttribute('role'), 'article');

		const middle = await scrollTo(page, Math.round(top.scrollHeight / 2));
		const at = assertRun(middle.ids, BIG.order, 'in the middle');
		assert.ok(at > 3000 && at < 7000, `the middle shows the middle rows (from #${at})`);
		assert.ok(middle.covered, 'rows fill the view');
		assert.equal(await page.locator('.transcript > li').first().getAttribute('aria-posinset'), String(at + 1));

		// The wheel, as a person scrolls: up a little, the rows just above come in.
		const box = await page.locator('.scroller').boundingBox();
		assert.ok(box);
		await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
		await page.mouse.wheel(0, -1500);
		await settle(page);
		const wheeled = await view(page);
		const from = assertRun(wheeled.ids, BIG.order, 'after the wheel');
		assert.ok(wheeled.scrollTop < middle.scrollTop && from < at, 'scrolled up to earlier rows');
		assert.ok(wheeled.covered);

		// The keys a focused scroll container answers to still work.
		await page.locator('.scroller').focus();
		await page.keyboard.press('Home');
		await settle(page);
		assert.equal(assertRun((await view(page)).ids, BIG.order, 'after Home'), 0);
		await page.keyboard.press('PageDown');
		await settle(page);
		const paged = await view(page);
		assert.ok(paged.scrollTop > 0 && paged.covered, 'PageDown scrolls down');
		assertRun(paged.ids, BIG.order, 'after PageDown');
		await page.keyboard.press('PageUp');
		await settle(page);
		assert.equal(assertRun((await view(page)).ids, BIG.order, 'after PageUp'), 0);
		await page.keyboard.press('End');
		await settle(page);
		const ended = await view(page);
		assert.ok(atEnd(ended) && ended.ids.at(-1) === BIG.order.at(-1), 'End goes to the last row');
		await assertCleanAndClose(chat);
	});


	it('has the scroll height of all its rows: scrolled through, every row shows once, in order', async () => {
		const chat = await openChat(harness);
		// A tall view, so a few dozen steps see every row.
		await chat.page.setViewportSize({ width: 900, height: 4000 });
		await chat.connect(viewState({ session: { id: 'session-1', title: 'Long', items: MEDIUM.items } }));
		const { page } = chat;
		const estimated = (await scrollTo(page, 0)).scrollHeight;
		const seen = await page.evaluate(async () => {
			const frame = (): Promise<void> =>
				new Promise((resolve) => {
					requestAnimationFrame(() => {
						resolve();
					});
				});
			const scroller = document.querySelector('.scroller') as HTMLElement;
			const heights = new Map<string, number>();
			const runs: string[][] = [];
			for (let step = 0; step < 2000; step++) {
				const rows = [...document.querySelectorAll<HTMLElement>('.transcript > li')];
				runs.push(rows.map((row) => row.dataset.id ?? ''));
				for (const row of rows) {
					heights.set(row.dataset.id ?? '', row.getBoundingClientRect().height);
				}
				if (scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 1) {
					break;
				}
				scroller.scrollTop += scroller.clientHeight;
				await frame();
				await frame();
			}
			const list = document.querySelector('.transcript') as HTMLElement;
			const sum = [...heights.values()].reduce((a, b) => a + b, 0);
			return { runs, count: heights.size, sum, listHeight: list.getBoundingClientRect().height, scrollHeight: scroller.scrollHeight };
		});
		const order = new Map(MEDIUM.order.map((id, i) => [id, i]));
		let next = 0;
		for (const run of seen.runs) {
			const start = order.get(run[0] ?? '') ?? -1;
			assert.ok(start <= next, `no row skipped before ${run[0] ?? ''}`);
			assert.deepEqual(run, MEDIUM.order.slice(start, start + run.length));
			next = Math.max(next, start + run.length);
		}
		assert.equal(next, MEDIUM.order.length);
		assert.equal(seen.count, MEDIUM.order.length, 'every row was shown');
		// Once every row is measured, the spacers stand in for exactly the rows not in the DOM.
		assert.ok(Math.abs(seen.listHeight - seen.sum) < 2, `list height ${seen.listHeight}, rows ${seen.sum}`);
		assert.ok(seen.scrollHeight >= seen.sum - 1 && seen.scrollHeight < seen.sum + 2000, `scroll height ${seen.scrollHeight}, rows ${seen.sum}`);
		// Before rows are measured, their estimates add up to about the same.
		assert.ok(Math.abs(estimated - seen.scrollHeight) < seen.scrollHeight * 0.25, `estimated ${estimated}, measured ${seen.scrollHeight}`);
		await assertCleanAndClose(chat);
	});


	it('keeps the view at the end for appends and streaming, and in place when scrolled up', async () => {
		const chat = await openSession(harness, MEDIUM.items);
		const { page } = chat;
		let seq = 1;
		const append = (items: TranscriptItem[]): Promise<void> => chat.host({ type: 'items.appended', seq: seq++, sessionId: 'session-1', items });
		await append([user('new-u', 'a new question\nover\nfour lines')]);
		await chat.host({ type: 'items.inserted', seq: seq++, sessionId: 'session-1', before: 'new-u', items: [reminders('new-r', [entry('session.date', 'date', 'Today.')])] });
		await append([assistant('new-a', 'an answer\n'.repeat(30))]);
		await settle(page);
		let now = await view(page);
		assert.ok(atEnd(now), 'still at the end');
		assert.deepEqual(now.ids.slice(-3), ['new-r', 'new-u', 'new-a']);

		// Streaming text grows the live row below the list: the view follows it.
		await chat.host({ type: 'agent.changed', seq: seq++, agent: agentView({ status: { state: 'running', detail: 'Thinking' }, streaming: { requestId: 'req-1' } }) });
		await chat.host({ type: 'text.streamed', seq: seq++, requestId: 'req-1', text: 'Str' });
		for (let i = 0; i < 20; i++) {
			await chat.host({ type: 'text.streamed', seq: seq++, requestId: 'req-1', text: 'eaming line\n' });
		}
		await settle(page);
		assert.ok(atEnd(await view(page)), 'at the end while text streams');

		// Scrolled up: what is in view stays put when rows arrive below.
		const up = await scrollTo(page, Math.round(now.scrollHeight / 3));
		const anchor = up.ids.find((id) => (up.tops[id] ?? -1) >= 0) ?? '';
		await append([user('late-u', 'later'), assistant('late-a', 'late answer\n'.repeat(10))]);
		await chat.host({ type: 'text.streamed', seq: seq++, requestId: 'req-1', text: 'more\n'.repeat(10) });
		await settle(page);
		now = await view(page);
		assert.ok(!atEnd(now));
		assert.ok(Math.abs((now.tops[anchor] ?? Number.NaN) - (up.tops[anchor] ?? 0)) < 1, `row ${anchor} did not move`);
		await assertCleanAndClose(chat);
	});


	it('announces rows that arrive, never rows mounted by scrolling; the list is a feed of articles', async () => {
		const chat = await openSession(harness, MEDIUM.items);
		const { page } = chat;
		const list = page.locator('ol.transcript');
		assert.equal(await list.getAttribute('role'), 'feed');
		assert.equal(await list.getAttribute('aria-live'), null, 'the list itself is not a live region');
		const announcer = page.locator('.scroller [role="status"]');
		assert.equal(await announcer.getAttribute('aria-live'), 'polite');
		assert.equal(await announcer.textContent(), '', 'a snapshot is not news');
		await scrollTo(page, 0);
		await scrollTo(page, 30_000);
		assert.equal(await announcer.textContent(), '', 'scrolling is not news');
		await chat.host({
			type: 'items.appended',
			seq: 1,
			sessionId: 'session-1',
			items: displayRows([assistant('n-a', 'hi'), tool('n-t1'), tool('n-t2'), reminders('n-r', [entry('a', 'a', 'a'), entry('b', 'b', 'b'), entry('c', 'c', 'c')], 'mid-turn'), turnEnd('n-e', 'done')]),
		});
		await page.waitForFunction(() => document.querySelector('.scroller [role="status"]')?.textContent !== '');
		assert.equal(await announcer.textContent(), 'Aside replied, 2 tool calls, 3 system reminders');
		await scrollTo(page, 0);
		assert.equal(await announcer.textContent(), 'Aside replied, 2 tool calls, 3 system reminders', 'unchanged by scrolling');
		assert.equal(await list.locator('li').last().getAttribute('aria-setsize'), String(MEDIUM.order.length + 4));
		await assertCleanAndClose(chat);
	});
});
