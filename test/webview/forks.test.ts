// Forks in the real bundle in headless Chromium: each root user row's Fork
// from here, reached and used by keyboard only, disabled on the message whose turn runs, absent on
// a sub-agent's; a fork's first row and the chat list's "forked from", hostile titles and branch
// names shown as text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ForkItem, TranscriptItem } from '../../src/protocol/messages';
import { DANGEROUS_ELEMENTS, HOSTILE_CORPUS } from './corpus';
import { agentView, assertCleanAndClose, openChat, postedOf, useHarness, viewState } from './page';

const HOSTILE = HOSTILE_CORPUS.join(' ').slice(0, 400);
const T = Date.UTC(2026, 11, 1, 9);

const rows: TranscriptItem[] = [
	{ kind: 'user', id: 'u1', text: 'first', at: T },
	{ kind: 'assistant', id: 'a1', text: 'one', at: T, stop: 'end' },
	{ kind: 'agent', id: 'agent-root/explore#1', at: T, path: 'root/explore#1', profile: 'explore', description: 'look', steps: 1, status: 'done' },
	{ kind: 'user', id: 'cu1', text: 'a sub-agent\'s task', at: T, agent: 'root/explore#1' },
	{ kind: 'user', id: 'u2', text: 'second', at: T },
];

describe('forks in the view', () => {
	const harness = useHarness();

	it('Fork from here on each root message, by keyboard; disabled on the message whose turn runs', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'running', detail: 'Waiting for the model…' } }), session: { id: 'session-1', title: 'Chat', items: rows } }));
		const { page } = chat;
		const forks = page.getByRole('button', { name: 'Fork from here' });
		assert.equal(await forks.count(), 2, 'one per root message; none on a sub-agent\'s');
		const second = page.locator('button[data-fork="u2"]');
		assert.equal(await second.isDisabled(), true, 'the running turn\'s message cannot be forked');
		assert.equal(await page.locator('button[data-fork="u1"]').isDisabled(), false);

		// Keyboard only: from the message box backwards into the transcript, to the first message's Fork.
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		await input.focus();
		let reached = '';
		for (let step = 0; step < 30 && reached !== 'u1'; step++) {
			await page.keyboard.press('Shift+Tab');
			reached = (await page.evaluate(() => document.activeElement?.getAttribute('data-fork'))) ?? '';
		}
		assert.equal(reached, 'u1', 'the Fork control is in the tab order');
		await page.keyboard.press('Enter');
		const [fork] = await chat.waitForPosted('fork.create');
		assert.deepEqual(fork, { type: 'fork.create', from: 'u1' });

		// The turn ends: the last message can be forked too.
		await chat.host({ type: 'agent.changed', seq: 1, agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) });
		await page.locator('button[data-fork="u2"]:not([disabled])').waitFor();
		await page.locator('button[data-fork="u2"]').focus();
		await page.keyboard.press(' ');
		await chat.waitForPosted('fork.create', 2);
		assert.deepEqual((await postedOf(chat, 'fork.create'))[1], { type: 'fork.create', from: 'u2' });
		await assertCleanAndClose(chat);
	});

	it('a fork\'s first row and the chat list say where it came from, hostile titles and branch names as text', async () => {
		const chat = await openChat(harness);
		const item: ForkItem = { kind: 'fork', id: 'f1', at: T, source: { id: 's0', title: HOSTILE }, worktree: { folder: `/repos/${HOSTILE}`, branch: `aside/<img src=x onerror=alert(1)>`, base: '0123456789abcdef0123456789abcdef01234567' } };
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-2', title: `${HOSTILE} (fork)`, items: [item, { kind: 'user', id: 'u1', text: 'first', at: T }] } }));
		const { page } = chat;
		const row = page.locator('.row-fork');
		assert.equal(await row.locator('.fork-label').innerText(), `Forked from “${HOSTILE}”`);
		assert.equal(await row.locator('.fork-branch').innerText(), 'aside/<img src=x onerror=alert(1)>');
		assert.equal(await row.locator('.fork-base').innerText(), '0123456789ab');
		assert.equal(await row.locator('.fork-folder').innerText(), `/repos/${HOSTILE}`);
		assert.equal(await row.locator(DANGEROUS_ELEMENTS).count(), 0);

		await page.getByRole('button', { name: 'Chats' }).click();
		await chat.waitForPosted('sessions.list');
		await chat.host({ type: 'sessions.listed', seq: 1, sessions: [{ id: 'session-2', title: `${HOSTILE} (fork)`, at: T, current: true, forkOf: { id: 's0', title: HOSTILE } }, { id: 's0', title: HOSTILE, at: T - 1000, current: false }] });
		await page.locator('.session-item-parent').waitFor();
		const parents = await page.locator('.session-item-parent').allTextContents();
		assert.deepEqual(parents.map((text) => text.trim()), [`forked from ${HOSTILE}`], 'only the fork names its parent');
		assert.equal(await page.locator('.session-list').locator(DANGEROUS_ELEMENTS).count(), 0);
		assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
		await assertCleanAndClose(chat);
	});
});
