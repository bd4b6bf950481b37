// The plan card in the real bundle: built from the host's structure (agent.plan), driven by the
// keyboard alone, and the hostile corpus in the plan, the note, a proposal inside its answer and a
// decision row staying text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AgentView, MAX_PLAN_NOTE_CHARS, type PendingPlanView, parseViewMessage, type TranscriptItem } from '../../src/protocol/messages';
import { DANGEROUS_ELEMENTS, HOSTILE_CORPUS } from './corpus';
import { user } from './items';
import { agentView, assertCleanAndClose, type ChatPage, openChat, postedOf, useHarness, viewState } from './page';

const ready = (overrides: Partial<AgentView> = {}): AgentView => agentView({ status: { state: 'ready', detail: 'Ready.' }, mode: 'plan', ...overrides });
const pending = (plan: string, proposalId = 'a1'): PendingPlanView => ({ proposalId, plan, modes: ['ask', 'auto-edit'], mode: 'ask' });

async function assertNothingRan(chat: ChatPage): Promise<void> {
	const { page } = chat;
	assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined, 'nothing ran');
	const dangerous = await page.evaluate((selector) => Array.from(document.querySelectorAll(`#app :is(${selector})`), (node) => node.tagName), DANGEROUS_ELEMENTS);
	assert.deepEqual(dangerous, [], 'no element that could run or load');
	const handlers = await page.evaluate(() => Array.from(document.querySelectorAll('#app *')).flatMap((node) => Array.from(node.attributes).filter((a) => a.name.startsWith('on')).map((a) => `${node.tagName} ${a.name}`)));
	assert.deepEqual(handlers, [], 'no event-handler attribute');
}

describe('the plan card', () => {
	const harness = useHarness();

	it('is driven by the keyboard alone: Revise needs feedback, Approve posts the mode picked, a refusal lets it be tried again, a decision clears it', async () => {
		const chat = await openChat(harness);
		const plan = '## Goal\nRename **it**.\n\n## Steps\n1. One\n2. Two';
		const answer: TranscriptItem = { kind: 'assistant', id: 'a1', at: 0, text: `Intro.\n<proposed_plan>\n${plan}\n</proposed_plan>`, stop: 'end', proposal: { id: 'a1', before: 'Intro.', plan, after: '' } };
		await chat.connect(viewState({ session: { id: 'session-1', title: 'Plan', items: [user('u1', 'plan it'), answer] }, agent: ready({ plan: pending(plan) }) }));
		const { page } = chat;
		const card = page.getByRole('region', { name: 'Proposed plan' });
		await card.waitFor();
		assert.equal(await card.locator('.plan-text strong').textContent(), 'it', 'the plan as Markdown');
		assert.deepEqual(await card.locator('.plan-text li').allTextContents(), ['One', 'Two']);
		const inAnswer = page.getByRole('region', { name: 'The plan this answer proposes' });
		assert.equal(await inAnswer.locator('strong').textContent(), 'it', 'the answer shows its proposal as its own block');
		assert.equal(await page.locator('li[data-id="a1"] .assistant-text').innerText(), 'Intro.', 'the answer around it, without the tags');

		// From the composer, Shift+Tab back into the card's buttons and fields; nothing but keys.
		await page.getByRole('textbox', { name: 'Message Aside' }).focus();
		const note = card.getByRole('textbox', { name: 'Note' });
		const focusOn = async (target: ReturnType<typeof card.getByRole>) => {
			for (let i = 0; i < 30 && !(await target.evaluate((node) => node === document.activeElement)); i++) {
				await page.keyboard.press('Shift+Tab');
			}
			assert.equal(await target.evaluate((node) => node === document.activeElement), true);
		};
		await focusOn(card.getByRole('button', { name: 'Revise' }));
		await page.keyboard.press('Enter');
		assert.match(await card.getByRole('alert').innerText(), /Write what to change/);
		assert.equal(await note.evaluate((node) => node === document.activeElement), true, 'the note has the focus');
		assert.equal((await postedOf(chat, 'plan.decide')).length, 0, 'no revision without feedback');
		await page.keyboard.type('Split step 2.');
		await page.keyboard.press('Tab');
		await page.keyboard.press('Tab');
		assert.equal(await card.getByRole('button', { name: 'Revise' }).evaluate((node) => node === document.activeElement), true);
		await page.keyboard.press('Enter');
		const [revise] = await chat.waitForPosted('plan.decide');
		assert.deepEqual(revise, { type: 'plan.decide', proposalId: 'a1', decision: 'revise', note: 'Split step 2.' });
		assert.ok(parseViewMessage(revise).ok);
		await page.keyboard.press('Enter');
		assert.equal((await postedOf(chat, 'plan.decide')).length, 1, 'sent once');

		// The host refused it (a notice; the same plan still waits): it can be decided again.
		await chat.host({ type: 'notice', seq: 1, level: 'error', text: 'Could not save the plan file.' });
		await page.locator('.notices').getByText('Could not save the plan file.').waitFor();
		assert.equal(await card.getByRole('button', { name: 'Approve' }).getAttribute('aria-disabled'), null);
		await note.fill('');
		await focusOn(card.getByRole('combobox', { name: 'Implement in' }));
		await page.keyboard.press('ArrowDown');
		assert.equal(await card.getByRole('combobox').inputValue(), 'auto-edit');
		await focusOn(card.getByRole('button', { name: 'Approve' }));
		await page.keyboard.press('Enter');
		const approvals = await chat.waitForPosted('plan.decide', 2);
		assert.deepEqual(approvals[1], { type: 'plan.decide', proposalId: 'a1', decision: 'approve', mode: 'auto-edit' });

		// Decided: the host sends no plan; the card leaves and the focus goes back to the composer.
		await chat.host({ type: 'agent.changed', seq: 2, agent: ready({ mode: 'auto-edit' }) });
		await card.waitFor({ state: 'detached' });
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message Aside');
		await assertCleanAndClose(chat);
	});

	it('keeps the note being typed while the same plan is repeated, and replaces the card for a new proposal', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: ready({ plan: pending('First plan') }) }));
		const { page } = chat;
		const card = page.getByRole('region', { name: 'Proposed plan' });
		await card.getByRole('textbox', { name: 'Note' }).fill('half-typed');
		await chat.host({ type: 'agent.changed', seq: 1, agent: ready({ plan: pending('First plan'), steering: [] }) });
		assert.equal(await card.getByRole('textbox', { name: 'Note' }).inputValue(), 'half-typed');
		await chat.host({ type: 'agent.changed', seq: 2, agent: ready({ plan: pending('Second plan', 'a2') }) });
		await page.locator('[data-proposal-id="a2"]').waitFor();
		assert.equal(await card.getByRole('textbox', { name: 'Note' }).inputValue(), '');
		assert.match(await card.innerText(), /Second plan/);
		await assertCleanAndClose(chat);
	});

	it('an approval says "Plan approved" with the mode and a link that opens the plan file; the request it sent is one line, the plan behind a disclosure', async () => {
		const chat = await openChat(harness);
		const plan = '## Goal\nSay good morning.\n\n## Steps\n1. Change the greeting.';
		const file = '/home/u/.config/Code/User/workspaceStorage/0123abcd/aside-dev.aside/sessions/s1.plans/plan-1.md';
		const prompt = `Implement the approved plan below. It is saved as ${file}.\n\n${plan}`;
		const items: TranscriptItem[] = [
			user('u1', 'Plan the greeting.'),
			{ kind: 'assistant', id: 'a1', at: 0, text: `<proposed_plan>\n${plan}\n</proposed_plan>`, stop: 'end', proposal: { id: 'a1', before: '', plan, after: '' } },
			{ kind: 'plan-decision', id: 'd1', at: 0, decision: 'approved', mode: 'auto-edit', file },
			{ ...user('u2', prompt), implementsPlan: { decision: 'd1', file } },
		];
		await chat.connect(viewState({ session: { id: 'session-1', title: 'Plan', items } }));
		const { page } = chat;
		const decision = page.locator('li[data-id="d1"]');
		await decision.waitFor();
		assert.equal(await decision.locator('.plan-decision-text').innerText(), 'Plan approved: implemented in auto-edit mode.');
		assert.doesNotMatch(await decision.innerText(), /workspaceStorage/, 'not the storage path');
		const link = decision.getByRole('button', { name: 'Open the plan, plan-1.md' });
		assert.equal(await link.innerText(), 'plan-1.md');
		assert.equal(await link.getAttribute('title'), file, 'the whole path on hover');
		await link.focus();
		await page.keyboard.press('Enter');
		const [opened] = await chat.waitForPosted('plan.open');
		assert.deepEqual(opened, { type: 'plan.open', decision: 'd1' });
		assert.ok(parseViewMessage(opened).ok);

		const request = page.locator('li[data-id="u2"]');
		assert.equal(await request.locator('.user-text').innerText(), 'Implement the approved plan.');
		assert.doesNotMatch(await request.innerText(), /Say good morning|workspaceStorage/, 'neither the plan nor the path in the row');
		const toggle = request.getByRole('button', { name: /message as sent \(7 lines\)/ });
		await toggle.click();
		assert.equal(await request.locator('.implementation-message').innerText(), prompt, 'the message as the model received it, whole');
		assert.equal(await page.locator('li[data-id="u1"] .user-text').innerText(), 'Plan the greeting.', 'a typed message is shown as typed');
		await assertCleanAndClose(chat);
	});

	it('renders the hostile corpus as text: in the plan, the note, a proposal inside its answer and a decision row', async () => {
		const chat = await openChat(harness);
		const items: TranscriptItem[] = HOSTILE_CORPUS.flatMap((text, i): TranscriptItem[] => [
			{ kind: 'assistant', id: `a${i}`, at: 0, text: `${text}\n<proposed_plan>\n${text}\n</proposed_plan>\n${text}`, stop: 'end', proposal: { id: `a${i}`, before: text, plan: text, after: text } },
			{ kind: 'plan-decision', id: `d${i}`, at: 0, decision: i % 2 ? 'approved' : 'revised', ...(i % 2 ? { mode: 'ask' as const, file: text } : {}), note: text },
		]);
		await chat.connect(viewState({ session: { id: 'session-1', title: 'Hostile', items } }));
		const { page } = chat;
		await page.setViewportSize({ width: 900, height: 1600 });
		let seq = 1;
		for (const [i, text] of HOSTILE_CORPUS.entries()) {
			await chat.host({ type: 'agent.changed', seq: seq++, agent: ready({ plan: pending(text, `p${i}`) }) });
			const card = page.locator(`[data-proposal-id="p${i}"]`);
			await card.waitFor();
			const note = card.getByRole('textbox', { name: 'Note' });
			await note.fill(text);
			assert.equal(await note.inputValue(), text.slice(0, MAX_PLAN_NOTE_CHARS));
			await card.getByRole('button', { name: 'Reject' }).click();
			const posted = await chat.waitForPosted('plan.decide', i + 1);
			const expected = text.trim();
			assert.deepEqual(posted[i], { type: 'plan.decide', proposalId: `p${i}`, decision: 'reject', ...(expected ? { note: expected } : {}) });
		}
		// Scroll the whole transcript, so every proposal and decision row is rendered once.
		const scroller = page.locator('.scroller');
		for (let pass = 0; pass < 200; pass++) {
			if (await scroller.evaluate((node) => node.scrollTop + node.clientHeight >= node.scrollHeight - 2)) {
				break;
			}
			await scroller.evaluate((node) => {
				node.scrollTop += Math.max(node.clientHeight, 300);
			});
			await page.waitForTimeout(30);
		}
		await page.waitForTimeout(200);
		await assertNothingRan(chat);
		const last = HOSTILE_CORPUS.length - 1;
		assert.ok((await page.locator(`li[data-id="a${last}"] .proposed-plan`).count()) === 1, 'the proposal is its own block in the answer');
		assert.equal(await page.locator(`li[data-id="d${last}"] .plan-decision-note`).textContent(), HOSTILE_CORPUS[last]);
		assert.equal(await page.locator('[data-kind="reminders"]').count(), 0, 'no reminder row is forged');
		await assertCleanAndClose(chat);
	});
});
