// The question cards (AskUserQuestion) in the real bundle in headless Chromium: the focus lands in a
// new card, and the keyboard alone answers several questions — arrows pick a one-choice answer, arrows
// and Space several, Tab moves on and into "Other"'s box, Enter submits (and first says what is
// missing); Escape hands the focus back without answering; a card does not take the keystrokes of
// someone typing; Skip and a reopened card's Dismiss; hostile text in every field stays text and fits
// the 300 px sidebar. With ASIDE_PICTURES_DIR set it writes the README's picture of the card.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseViewMessage } from '../../src/protocol/messages';
import type { QuestionCardView, QuestionView } from '../../src/protocol/questions';
import { DANGEROUS_ELEMENTS, HOSTILE_CORPUS } from './corpus';
import { assistant, tool, user } from './items';
import { agentView, assertCleanAndClose, type ChatPage, openChat, postedOf, useHarness, type ViewHarness, viewState } from './page';
import { applyTheme } from './themes';

const DATABASE: QuestionView = {
	question: 'Which database should the service use?',
	header: 'Database',
	multiSelect: false,
	options: [
		{ label: 'Postgres (Recommended)', description: 'What production already runs; migrations with the existing tooling.' },
		{ label: 'SQLite', description: 'One file, no server: simplest for a single instance.' },
	],
};
const FEATURES: QuestionView = {
	question: 'Which features belong in the first release?',
	header: 'Scope',
	multiSelect: true,
	options: [
		{ label: 'Sign-in', description: 'Accounts and sessions.' },
		{ label: 'Search', description: 'Full-text search over notes.' },
		{ label: 'Export', description: 'CSV and JSON downloads.' },
	],
};
const DAY: QuestionView = { question: 'When should it ship?', header: 'Date', multiSelect: false, options: [{ label: 'Friday', description: '' }, { label: 'Next month', description: '' }] };
const CARD: QuestionCardView = { id: 'card-1', reopened: false, questions: [DATABASE, FEATURES, DAY] };

/** The card's own inputs; anything else dangerous must not be there. */
const FOREIGN = DANGEROUS_ELEMENTS.replace('input:not(.md-checkbox)', 'input:not(.question-input):not(.question-other-text)');

const focused = (chat: ChatPage) => chat.page.evaluate(() => {
	const active = document.activeElement as HTMLInputElement | null;
	return active?.classList.contains('question-other-text') ? `text:${active.closest('fieldset')?.getAttribute('data-question') ?? ''}` : `${active?.closest('fieldset')?.getAttribute('data-question') ?? ''}:${active?.closest('label')?.querySelector('.question-label')?.textContent ?? active?.className ?? ''}`;
});

async function show(harness: ViewHarness, cards: readonly QuestionCardView[], width = 300): Promise<ChatPage> {
	const chat = await openChat(harness);
	await chat.page.setViewportSize({ width, height: 900 });
	await chat.connect(viewState({ session: { id: 'session-1', title: 'Questions', items: [user('u1', 'Plan the notes service')] }, agent: agentView({ status: { state: 'running', detail: 'Running AskUserQuestion.' } }) }));
	await chat.host({ type: 'questions.changed', seq: 1, cards });
	if (cards.length > 0) {
		await chat.page.locator('.question-card').first().waitFor();
	}
	return chat;
}

describe('the question cards', () => {
	const harness = useHarness();

	it('the focus lands in the card, and the keyboard alone answers three questions, free text and several options included', async () => {
		const chat = await show(harness, [CARD]);
		const { page } = chat;
		const card = page.getByRole('region', { name: 'The agent asks 3 questions' });
		await card.waitFor();
		assert.equal(await page.locator('.questions .sr-only').innerText(), 'The agent asks 3 questions.');
		assert.deepEqual(await card.locator('.question-header').allInnerTexts(), ['Database', 'Scope', 'Date']);
		assert.deepEqual(await card.locator('.question-card-actions button').allInnerTexts(), ['Submit answers', 'Skip']);
		assert.equal(await focused(chat), '0:Postgres (Recommended)', 'on the first option, not picked');
		assert.equal(await card.getByRole('radio', { name: /Postgres/ }).isChecked(), false);
		// One choice: the arrow picks.
		await page.keyboard.press('ArrowDown');
		assert.equal(await card.getByRole('radio', { name: /SQLite/ }).isChecked(), true);
		// Tab: the next question (Other's box is no stop until Other is chosen).
		await page.keyboard.press('Tab');
		assert.equal(await focused(chat), '1:Sign-in');
		await page.keyboard.press('Space');
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('ArrowDown');
		assert.equal(await focused(chat), '1:Export');
		await page.keyboard.press('Space');
		await page.keyboard.press('ArrowDown');
		assert.equal(await focused(chat), '1:Other');
		await page.keyboard.press('Space');
		await page.keyboard.press('Tab');
		assert.equal(await focused(chat), 'text:1', 'Other chosen: its box is the next stop');
		await page.keyboard.type('Tags, "maybe"');
		await page.keyboard.press('Tab');
		assert.equal(await focused(chat), '2:Friday');
		// Enter with the last question unanswered: nothing is sent, the card says what is missing.
		await page.keyboard.press('Enter');
		const problem = card.locator('fieldset[data-question="2"] .question-problem');
		assert.equal(await problem.innerText(), 'Pick an option, or write your own answer.');
		assert.equal(await card.locator('fieldset[data-question="2"]').getAttribute('aria-invalid'), 'true');
		assert.equal((await postedOf(chat, 'questions.answer')).length, 0);
		// Arrows to Other, Tab into its box, own words, Enter.
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('ArrowDown');
		assert.equal(await focused(chat), '2:Other');
		await page.keyboard.press('Tab');
		await page.keyboard.type('After the demo, on Tuesday');
		await page.keyboard.press('Enter');
		const [posted] = await chat.waitForPosted('questions.answer');
		assert.deepEqual(posted, {
			type: 'questions.answer',
			id: 'card-1',
			answers: [{ picked: ['SQLite'] }, { picked: ['Sign-in', 'Export'], other: 'Tags, "maybe"' }, { picked: [], other: 'After the demo, on Tuesday' }],
		});
		assert.ok(parseViewMessage(posted).ok);
		assert.equal(await problem.isHidden(), true);
		assert.equal(await card.getByRole('button', { name: 'Submit answers' }).getAttribute('aria-disabled'), 'true', 'answered once');
		await page.keyboard.press('Enter');
		assert.equal((await postedOf(chat, 'questions.answer')).length, 1, 'a second Enter sends nothing');
		// The host takes it away: the focus goes to the message box.
		await chat.host({ type: 'questions.changed', seq: 2, cards: [] });
		await page.locator('.questions').waitFor({ state: 'hidden' });
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('composer-input')), true);
		await assertCleanAndClose(chat);
	});

	it('Escape hands the focus back without answering; a card does not take the keystrokes of someone typing; Skip', async () => {
		const chat = await show(harness, []);
		const { page } = chat;
		const composer = page.locator('.composer-input');
		await composer.fill('I am typing');
		await composer.focus();
		await chat.host({ type: 'questions.changed', seq: 2, cards: [{ ...CARD, questions: [DATABASE] }] });
		const card = page.getByRole('region', { name: 'The agent asks a question' });
		await card.waitFor();
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('composer-input')), true, 'the focus stays in the message box');
		await page.keyboard.type(' on');
		assert.equal(await composer.inputValue(), 'I am typing on');
		await card.getByRole('radio', { name: /SQLite/ }).focus();
		await page.keyboard.press('Escape');
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('composer-input')), true);
		assert.equal(await card.isVisible(), true, 'still waiting');
		assert.deepEqual(await postedOf(chat, 'questions.answer'), []);
		await card.getByRole('button', { name: 'Skip' }).press('Enter');
		assert.deepEqual(await chat.waitForPosted('questions.skip'), [{ type: 'questions.skip', id: 'card-1' }]);
		await assertCleanAndClose(chat);
	});

	it('a reopened card says its answers go as the next message, and offers Dismiss', async () => {
		const chat = await show(harness, [{ id: 'card-9', reopened: true, questions: [FEATURES] }]);
		const card = chat.page.getByRole('region', { name: 'The agent asked a question before this chat was closed' });
		await card.waitFor();
		assert.equal(await card.locator('.question-card-note').innerText(), 'Its turn ended with the window. Your answers go as your next message.');
		assert.deepEqual(await card.locator('.question-card-actions button').allInnerTexts(), ['Submit answer', 'Dismiss']);
		await card.getByRole('checkbox', { name: /Search/ }).check();
		await card.getByRole('button', { name: 'Submit answer' }).click();
		assert.deepEqual(await chat.waitForPosted('questions.answer'), [{ type: 'questions.answer', id: 'card-9', answers: [{ picked: ['Search'] }] }]);
		await assertCleanAndClose(chat);
	});

	it('hostile text in every field stays text, runs nothing and fits the 300 px view', async () => {
		const cards = HOSTILE_CORPUS.map((text, index): QuestionCardView => ({
			id: `hostile-${index}`,
			reopened: index % 2 === 1,
			// The host cuts a header to the protocol's 100 characters (questionsPresenter.ts).
			questions: [{ question: text, header: text.slice(0, 100), multiSelect: index % 2 === 0, options: [{ label: text, description: text }, { label: `${text} 2`, description: text }] }],
		}));
		const chat = await show(harness, []);
		const { page } = chat;
		// Every string of the corpus through every field, twenty cards at a time (the most one message carries).
		for (let from = 0, seq = 2; from < cards.length; from += 20, seq++) {
			const batch = cards.slice(from, from + 20);
			await chat.host({ type: 'questions.changed', seq, cards: batch });
			await page.locator(`[data-card-id="hostile-${from}"]`).waitFor();
			assert.equal(await page.locator('.question-card').count(), batch.length);
			const asked = batch.map((card) => card.questions[0] as QuestionView);
			assert.deepEqual(await page.locator('.question-text').allTextContents(), asked.map((question) => question.question));
			assert.deepEqual(await page.locator('.question-header').allTextContents(), asked.map((question) => question.header));
			assert.deepEqual(await page.locator('.question-label').allTextContents(), asked.flatMap((question) => [...question.options.map((option) => option.label), 'Other']));
			assert.deepEqual(await page.locator('.question-description').allTextContents(), asked.flatMap((question) => question.options.map((option) => option.description)));
		}
		await page.waitForTimeout(300);
		assert.equal(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), undefined, 'nothing ran');
		assert.equal(await page.locator('.questions').locator(FOREIGN).count(), 0, 'no element that could run or load');
		const handlers = await page.evaluate(() => Array.from(document.querySelectorAll('.questions *')).flatMap((node) => Array.from(node.attributes).filter((a) => a.name.startsWith('on')).map((a) => `${node.tagName} ${a.name}`)));
		assert.deepEqual(handlers, [], 'no event-handler attribute');
		assert.equal(await page.locator('.questions [href], .questions [src], .questions [action]').count(), 0);
		assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= 300), true, 'no horizontal scrolling');
		await assertCleanAndClose(chat);
	});

	it('the README picture: a card of two questions, one of them several options, in the dark theme', async () => {
		const chat = await openChat(harness);
		const { page } = chat;
		await page.setViewportSize({ width: 560, height: 760 });
		const at = Date.UTC(2026, 11, 2, 9, 30);
		await chat.connect(viewState({
			agent: agentView({ status: { state: 'running', detail: 'Waiting for your answers.' } }),
			session: {
				id: 'session-5',
				title: 'Notes service',
				items: [
					{ ...user('u1', 'Set up the storage for the notes service.'), at },
					tool('t1', { callId: 'c1', name: 'Read', input: JSON.stringify({ path: 'docs/notes-service.md' }, null, 2), result: '1  # Notes service', durationMs: 40 }),
					{ ...assistant('a1', 'The design note leaves the database and the first release open. Two questions before I start:'), at: at + 20_000 },
				],
			},
		}));
		await applyTheme(page, 'dark');
		await chat.host({ type: 'questions.changed', seq: 1, cards: [{ id: 'card-1', reopened: false, questions: [DATABASE, FEATURES] }] });
		const card = page.getByRole('region', { name: 'The agent asks 2 questions' });
		await card.waitFor();
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('ArrowUp');
		await page.keyboard.press('Tab');
		await page.keyboard.press('Space');
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('Space');
		assert.deepEqual(await card.locator('.question-input:checked').evaluateAll((nodes) => nodes.map((node) => (node as HTMLInputElement).value)), ['Postgres (Recommended)', 'Sign-in', 'Search']);
		const dir = process.env.ASIDE_PICTURES_DIR;
		if (dir) {
			await page.screenshot({ path: join(dir, 'question-card.png') });
		}
		await assertCleanAndClose(chat);
	});
});
