// The chat at the widths a sidebar has (300 px is VS Code's default, 400 and 600 wider ones):
// the header is one row, the goal line is there only with a goal, the toolbar's override picker
// is never cut off, and the transcript keeps most of the height even with a spent goal budget.
// With ASIDE_PICTURES_DIR set, each width is also written as a picture.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { GoalView } from '../../src/protocol/goal';
import type { ContextUseView, TranscriptItem } from '../../src/protocol/messages';
import { assistant, user } from './items';
import { agentView, assertCleanAndClose, type ChatPage, openChat, useHarness, viewState } from './page';
import { applyTheme } from './themes';

const WIDTHS = [300, 400, 600] as const;
const AT = Date.UTC(2026, 11, 2, 9, 30);

const ITEMS: TranscriptItem[] = [
	{ ...user('u1', 'Rename greet to welcome everywhere'), at: AT },
	{ ...assistant('a1', 'Renamed `greet` to `welcome` in src/greeting.ts and its two callers.'), at: AT + 20_000 },
	{ ...user('u2', 'Now add a test for welcome'), at: AT + 60_000 },
	{ ...assistant('a2', 'Added test/welcome.test.ts.'), at: AT + 80_000 },
];

const CONTEXT: ContextUseView = {
	usedTokens: 150_000,
	limitTokens: 200_000,
	reminders: [
		{ key: 'workspace.instructions', label: 'instructions', deliveries: 1, tokens: 381 },
		{ key: 'session.date', label: 'date', deliveries: 3, tokens: 45 },
	],
	remindersInContext: 426,
	cacheReadTokens: 12_300,
	cacheWriteTokens: 1_100,
	autoCompactAt: 0.8,
	canCompact: true,
};

const SPENT: GoalView = { active: { objective: 'Rename greet to welcome, with tests', budget: 200_000, spent: 210_000, exhausted: true } };

async function open(chat: ChatPage, width: number, height: number, goal?: GoalView): Promise<Page> {
	const { page } = chat;
	await page.setViewportSize({ width, height });
	await chat.connect(
		viewState({
			session: { id: 'session-1', title: 'Rename greet to welcome everywhere', items: ITEMS },
			agent: agentView({ status: { state: 'ready', detail: 'Ready.' }, models: [{ id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5' }], model: 'claude-sonnet-4-5', mode: 'ask' }),
			context: CONTEXT,
		}),
	);
	await applyTheme(page, 'dark');
	if (goal) {
		await chat.host({ type: 'goal.changed', seq: 1, goal });
		await page.locator('.goal-line').waitFor();
	}
	return page;
}

async function picture(page: Page, name: string): Promise<void> {
	const dir = process.env.ASIDE_PICTURES_DIR;
	if (dir) {
		await page.screenshot({ path: join(dir, name) });
	}
}

/** The boxes of the header's visible controls and text, and the header's own. */
async function headerLayout(page: Page) {
	return page.evaluate(() => {
		const header = document.querySelector('.header') as HTMLElement;
		const style = getComputedStyle(header);
		const box = header.getBoundingClientRect();
		const parts = Array.from(header.querySelectorAll<HTMLElement>('h1, button, [role="meter"]'))
			.filter((node) => node.getClientRects().length > 0 && !node.closest('[hidden], .context-panel'))
			.map((node) => {
				const rect = node.getBoundingClientRect();
				return { name: node.getAttribute('aria-label') ?? node.textContent.trim().slice(0, 20), top: rect.top, bottom: rect.bottom, right: rect.right, height: rect.height };
			});
		const chrome = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom) + parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth);
		const scroller = (document.querySelector('.scroller') as HTMLElement).getBoundingClientRect();
		return {
			top: box.top,
			bottom: box.bottom,
			right: box.right,
			height: box.height,
			chrome,
			parts,
			scrollerTop: scroller.top,
			scrollerHeight: scroller.height,
		};
	});
}

/** What the person sees of the override picker: its text (when it shows its own) and any label beside it, each with the room it has. */
async function overrideText(page: Page) {
	return page.evaluate(() => {
		const select = document.querySelector<HTMLSelectElement>('select.picker-override') as HTMLSelectElement;
		const style = getComputedStyle(select);
		const shown = Number(style.opacity) > 0;
		const measure = document.createElement('span');
		measure.style.font = style.font;
		measure.style.whiteSpace = 'pre';
		measure.textContent = select.selectedOptions[0]?.textContent ?? '';
		document.body.append(measure);
		const needed = measure.getBoundingClientRect().width + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
		measure.remove();
		// Chromium draws the select's arrow inside its box: about 16 px of it is never text.
		const room = select.clientWidth - 16;
		const labels = Array.from(select.parentElement?.querySelectorAll<HTMLElement>('.picker-label') ?? [])
			.filter((label) => label.getClientRects().length > 0)
			.map((label) => ({ text: label.textContent, scrollWidth: label.scrollWidth, clientWidth: label.clientWidth }));
		return { shown, text: measure.textContent, needed, room, labels };
	});
}

describe('the chat at sidebar widths', () => {
	const harness = useHarness();

	for (const width of WIDTHS) {
		it(`at ${width} px: the header is one row, no goal line without a goal, the toolbar on one row with its override readable`, async () => {
			const chat = await openChat(harness);
			const page = await open(chat, width, 800);
			const layout = await headerLayout(page);
			assert.ok(layout.parts.length >= 4, `title, context, chats and new chat are in the header (${layout.parts.map((part) => part.name).join(', ')})`);
			const tallest = Math.max(...layout.parts.map((part) => part.height));
			assert.ok(layout.height <= tallest + layout.chrome + 1, `the header is one line high (${layout.height} px, tallest control ${tallest} px)`);
			for (const part of layout.parts) {
				assert.ok(part.top >= layout.top && part.bottom <= layout.bottom, `${part.name} is in the header's row`);
				assert.ok(part.right <= layout.right, `${part.name} is not pushed out of the view`);
			}
			assert.ok(layout.scrollerTop <= layout.bottom + 1, `nothing between the header and the transcript (${layout.scrollerTop - layout.bottom} px)`);
			assert.equal(await page.locator('.goal-line').isVisible(), false, 'no goal: no goal line');
			assert.equal(await page.getByRole('button', { name: 'Set a goal' }).isVisible(), true, 'setting one is a button away');

			const pickers = await page.locator('.composer-toolbar .picker-wrap').evaluateAll((wraps) => wraps.map((wrap) => wrap.getBoundingClientRect().top));
			assert.equal(pickers.length, 3);
			assert.ok(Math.max(...pickers) - Math.min(...pickers) < 2, `the three pickers share a row (${pickers.join(', ')})`);
			for (const mode of ['', 'plan', 'full-access']) {
				await page.getByRole('combobox', { name: 'Permission mode for the next message only' }).selectOption(mode);
				const override = await overrideText(page);
				if (override.shown) {
					assert.ok(override.needed <= override.room, `"${override.text}" fits its picker (${override.needed.toFixed(0)} of ${override.room} px)`);
				}
				for (const label of override.labels) {
					assert.ok(label.scrollWidth <= label.clientWidth, `"${label.text}" is not cut off`);
				}
			}
			await page.getByRole('combobox', { name: 'Permission mode for the next message only' }).selectOption('');
			await picture(page, `header-${width}.png`);
			await assertCleanAndClose(chat);
		});
	}

	it('with a goal, its line is one row; with its budget spent, the transcript keeps most of 300×800', async () => {
		const chat = await openChat(harness);
		const page = await open(chat, 300, 800, { active: { objective: 'Rename greet to welcome, with tests', budget: 200_000, spent: 50_000, exhausted: false } });
		const line = page.locator('.goal-line');
		const rowHeight = async () => line.evaluate((node) => {
			const style = getComputedStyle(node);
			const parts = Array.from(node.querySelectorAll<HTMLElement>('button, .goal-summary, .goal-spend')).filter((part) => part.getClientRects().length > 0);
			const tallest = Math.max(...parts.map((part) => part.getBoundingClientRect().height));
			return {
				height: node.getBoundingClientRect().height,
				allowed: tallest + parseFloat(style.paddingTop) + parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth) + 1,
			};
		});
		const set = await rowHeight();
		assert.ok(set.height <= set.allowed, `the goal line is one row (${set.height} of ${set.allowed} px)`);
		assert.equal(await page.getByRole('button', { name: 'Set a goal' }).isVisible(), false, 'the goal line has its own Change the goal');

		await chat.host({ type: 'goal.changed', seq: 2, goal: SPENT });
		await page.getByRole('button', { name: 'Raise budget' }).waitFor();
		const spent = await rowHeight();
		assert.ok(spent.height <= spent.allowed, `a spent budget is one row too (${spent.height} of ${spent.allowed} px)`);
		const { scrollerHeight } = await headerLayout(page);
		assert.ok(scrollerHeight >= 0.75 * 800, `the transcript gets ${scrollerHeight} of 800 px`);
		await picture(page, 'goal-spent-300.png');
		await assertCleanAndClose(chat);
	});

	it('at 300 px the details open over the chat, and Full access shows in the warning colours', async () => {
		const chat = await openChat(harness);
		const page = await open(chat, 300, 800);
		const before = await headerLayout(page);
		await page.locator('.context-toggle').click();
		await page.locator('.context-table').waitFor();
		const opened = await headerLayout(page);
		assert.equal(opened.scrollerTop, before.scrollerTop, 'the transcript stays where it was under the open details');
		const panel = await page.locator('.context-panel').boundingBox();
		assert.ok(panel && panel.x >= 0 && panel.x + panel.width <= 300, 'the details fit the view');
		await picture(page, 'details-300.png');
		await page.keyboard.press('Escape');

		await chat.host({ type: 'agent.changed', seq: 1, agent: agentView({ status: { state: 'ready', detail: 'Ready.' }, models: [{ id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5' }], model: 'claude-sonnet-4-5', mode: 'full-access' }) });
		await page.locator('.picker-wrap-mode.picker-warning').waitFor();
		await page.getByRole('combobox', { name: 'Permission mode for the next message only' }).selectOption('plan');
		const pickers = await page.locator('.composer-toolbar .picker-wrap').evaluateAll((wraps) => wraps.map((wrap) => wrap.getBoundingClientRect().top));
		assert.ok(Math.max(...pickers) - Math.min(...pickers) < 2, 'Full access and an override still share the row');
		await picture(page, 'toolbar-full-access-300.png');
		await assertCleanAndClose(chat);
	});
});
