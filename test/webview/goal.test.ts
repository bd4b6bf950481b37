// The goal control in the real bundle in headless Chromium, keyboard only: set a goal from the
// header (with the approved plan), see the spend against the budget, raise a spent budget, complete
// and clear; no goal line without a goal; hostile goal text renders as text; `/goal` alone opens
// the control.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GoalView } from '../../src/protocol/goal';
import { DANGEROUS_ELEMENTS, HOSTILE_CORPUS } from './corpus';
import { assertCleanAndClose, type ChatPage, openChat, postedOf, useHarness, viewState } from './page';

const PLAN = '/storage/sessions/s1.plans/plan-1.md';

async function connect(chat: ChatPage, goal: GoalView): Promise<void> {
	await chat.connect(viewState());
	await chat.host({ type: 'goal.changed', seq: 1, goal });
}

describe('the goal control', () => {
	const harness = useHarness();

	it('sets a goal by keyboard alone: objective, budget, the approved plan', async () => {
		const chat = await openChat(harness);
		await connect(chat, { active: null, approvedPlan: PLAN });
		const { page } = chat;
		assert.equal(await page.locator('.goal-line').isVisible(), false, 'no goal: no line');
		const edit = page.getByRole('button', { name: 'Set a goal' });
		assert.equal(await edit.evaluate((node) => node.closest('header') !== null), true, 'Set a goal is in the header');
		await edit.focus();
		await page.keyboard.press('Enter');
		assert.equal(await page.locator('.goal-line').isVisible(), true, 'the form opens under the header');
		const objective = page.getByRole('textbox', { name: 'Goal' });
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('goal-objective')), true, 'the focus goes into the objective');
		await page.keyboard.type('Make the build green');
		await page.keyboard.press('Tab');
		await page.keyboard.type('200k');
		const plan = page.getByRole('checkbox', { name: /Implements the approved plan/ });
		assert.equal(await plan.getAttribute('aria-checked'), 'true', 'the approved plan is offered, checked');
		assert.match(await plan.getAttribute('aria-labelledby').then((id) => page.locator(`#${id ?? ''}`).innerText()), /\(plan-1\.md\)/);
		await page.keyboard.press('Enter');
		const [set] = await chat.waitForPosted('goal.set');
		assert.deepEqual(set, { type: 'goal.set', objective: 'Make the build green', budget: 200_000, implementsPlan: true });
		assert.equal(await objective.isVisible(), false, 'the form closed');
		assert.equal(await page.locator('.goal-line').isVisible(), false, 'no goal yet: no line');
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('goal-set')), true, 'the focus went back to Set a goal');

		// The host says the goal is set: its line appears, the focus moves to it; a budget that is not one: said in the form, nothing posted.
		await chat.host({ type: 'goal.changed', seq: 2, goal: { active: { objective: 'Make the build green', budget: 200_000, spent: 0, plan: PLAN, exhausted: false }, approvedPlan: PLAN } });
		await page.locator('.goal-line').waitFor();
		assert.equal(await page.locator('.goal-summary').innerText(), 'Make the build green');
		assert.equal(await edit.isVisible(), false, 'the header\'s Set a goal goes while there is one');
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('goal-edit')), true, 'the focus is on the line\'s Change the goal');
		await page.keyboard.press('Enter');
		assert.equal(await objective.inputValue(), 'Make the build green');
		await page.keyboard.press('Tab');
		await page.keyboard.press('ControlOrMeta+A');
		await page.keyboard.type('lots');
		await page.keyboard.press('Enter');
		assert.match(await page.locator('.goal-error').innerText(), /number of tokens/);
		assert.equal((await postedOf(chat, 'goal.set')).length, 1);
		await page.keyboard.press('Escape');
		assert.equal(await objective.isVisible(), false, 'Escape closes it');
		await assertCleanAndClose(chat);
	});

	it('shows the spend against the budget; a spent budget says the agent stops and offers Raise budget', async () => {
		const chat = await openChat(harness);
		await connect(chat, { active: { objective: 'Ship', budget: 200_000, spent: 50_000, exhausted: false } });
		const { page } = chat;
		assert.equal(await page.locator('.goal-spend').innerText(), '50k / 200k (25%)');
		assert.equal(await page.locator('.goal-spend').getAttribute('title'), 'Spent: 50k / 200k tokens (25%)');
		assert.equal(await page.getByRole('meter', { name: 'Goal budget spent' }).getAttribute('aria-valuenow'), '25');
		assert.equal(await page.getByRole('button', { name: 'Raise budget' }).isVisible(), false);
		// Cache reads are shown beside the spend, not in it.
		await chat.host({ type: 'goal.changed', seq: 2, goal: { active: { objective: 'Ship', budget: 200_000, spent: 50_000, cacheRead: 1_250_000, exhausted: false } } });
		assert.equal(await page.locator('.goal-spend').innerText(), '50k / 200k (25%)');
		assert.equal(await page.locator('.goal-spend').getAttribute('title'), 'Spent: 50k / 200k tokens (25%) · 1.3m cached prompt tokens read, not charged');

		// Spent: one row says so and offers Raise budget; what it means opens on demand, and a screen reader hears it at once.
		await chat.host({ type: 'goal.changed', seq: 3, goal: { active: { objective: 'Ship', budget: 200_000, spent: 210_000, exhausted: true } } });
		const why = /^Token budget spent \(210k \/ 200k tokens \(105%\)\): the agent stops after each step until you raise the budget\.$/;
		const spent = page.getByRole('button', { name: 'Budget spent' });
		await spent.waitFor();
		assert.match(await page.getByRole('status').filter({ hasText: 'Token budget spent' }).innerText(), why);
		assert.equal(await page.locator('.goal-exhausted').isVisible(), false, 'the explanation waits to be asked for');
		await spent.focus();
		await page.keyboard.press('Enter');
		assert.match(await page.locator('.goal-exhausted').innerText(), why);
		await page.keyboard.press('Escape');
		assert.equal(await page.locator('.goal-exhausted').isVisible(), false, 'Escape closes it');
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('goal-spent-toggle')), true);
		const raise = page.getByRole('button', { name: 'Raise budget' });
		await raise.focus();
		await page.keyboard.press('Enter');
		const budget = page.getByRole('textbox', { name: /Token budget/ });
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('goal-budget')), true);
		assert.equal(await budget.inputValue(), '410000', 'offered: what is spent plus the old budget (at least twice it)');
		await page.keyboard.press('Enter');
		const [set] = await chat.waitForPosted('goal.set');
		assert.deepEqual(set, { type: 'goal.set', objective: 'Ship', budget: 410_000 });
		await assertCleanAndClose(chat);
	});

	it('completes and clears the goal from the keyboard', async () => {
		const chat = await openChat(harness);
		await connect(chat, { active: { objective: 'Ship', spent: 10, exhausted: false } });
		const { page } = chat;
		assert.equal(await page.locator('.goal-spend').innerText(), '10 tokens', 'no budget: the spend alone');
		await page.getByRole('button', { name: 'Change the goal' }).focus();
		await page.keyboard.press('Enter');
		await page.getByRole('button', { name: 'Complete' }).focus();
		await page.keyboard.press('Enter');
		await page.getByRole('button', { name: 'Change the goal' }).focus();
		await page.keyboard.press('Enter');
		await page.getByRole('button', { name: 'Clear' }).focus();
		await page.keyboard.press('Space');
		assert.deepEqual(await postedOf(chat, 'goal.end'), [{ type: 'goal.end', how: 'completed' }, { type: 'goal.end', how: 'cleared' }]);
		await assertCleanAndClose(chat);
	});

	it('renders hostile goal text as text, and /goal opens the control', async () => {
		const chat = await openChat(harness);
		const objective = HOSTILE_CORPUS.join('\n').slice(0, 2000);
		await connect(chat, { active: { objective, budget: 1000, spent: 0, plan: HOSTILE_CORPUS[1] ?? '', exhausted: false }, approvedPlan: HOSTILE_CORPUS[2] ?? '' });
		const { page } = chat;
		assert.equal(await page.locator('.goal-summary').evaluate((node) => node.textContent), objective);
		await chat.host({ type: 'goal.open', seq: 2 });
		assert.equal(await page.getByRole('textbox', { name: 'Goal' }).inputValue(), objective);
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('goal-objective')), true, '/goal puts the focus in the control');
		assert.equal(await page.locator('.goal-line').locator(DANGEROUS_ELEMENTS).count(), 0);
		assert.equal(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), undefined, 'nothing in the goal ran');
		await assertCleanAndClose(chat);
	});
});
