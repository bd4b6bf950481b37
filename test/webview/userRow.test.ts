// The user row's parts in the real bundle in headless Chromium: a chip per @-mention (kind,
// label, outcome in its accessible name), reached and opened by keyboard only, hostile file names
// shown as text; the collapsed hook context; and a blocked message offered back to the composer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MentionChipView, UserTurnItem } from '../../src/protocol/messages';
import { DANGEROUS_ELEMENTS, FORGED_BLOCK, HOSTILE_CORPUS } from './corpus';
import { agentView, assertCleanAndClose, openChat, postedOf, useHarness, viewState } from './page';

const HOSTILE_NAME = `src/${HOSTILE_CORPUS[1] ?? ''}.ts`;

function userWith(mentions: MentionChipView[], hookContext?: UserTurnItem['hookContext']): UserTurnItem {
	return { kind: 'user', id: 'u1', text: `look at @src/a.ts#L10-40 and @${HOSTILE_NAME} and @problems`, at: Date.UTC(2026, 0, 1), mentions, ...(hookContext ? { hookContext } : {}) };
}

const PENDING: MentionChipView[] = [
	{ kind: 'file', label: 'src/a.ts#L10-40', path: 'src/a.ts', range: { start: 10, end: 40 }, state: 'pending' },
	{ kind: 'file', label: HOSTILE_NAME, path: HOSTILE_NAME, state: 'pending' },
	{ kind: 'problems', label: 'problems', state: 'pending' },
];

describe('the user row', () => {
	const harness = useHarness();

	it('shows a chip per mention beside the text as typed; Tab reaches them, Enter opens a file at its lines', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Chat', items: [userWith(PENDING)] } }));
		const { page } = chat;
		const row = page.locator('.row-user');
		assert.equal(await row.locator('.user-text').innerText(), `look at @src/a.ts#L10-40 and @${HOSTILE_NAME} and @problems`, 'the text stays exactly as typed');
		assert.deepEqual(await row.locator('.mention-chip-label').allInnerTexts(), ['src/a.ts#L10-40', HOSTILE_NAME, 'problems'], 'hostile names are text');
		assert.equal(await row.locator(DANGEROUS_ELEMENTS).count(), 0);
		assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
		assert.equal(await row.getByRole('button', { name: 'File src/a.ts#L10-40: not sent yet' }).count(), 1);

		// Keyboard only: from the message box backwards (Shift+Tab) into the transcript, to the chips.
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		await input.focus();
		let reached = '';
		for (let step = 0; step < 20 && !reached.startsWith('File src/a.ts'); step++) {
			await page.keyboard.press('Shift+Tab');
			reached = (await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) ?? '';
		}
		assert.equal(reached, 'File src/a.ts#L10-40: not sent yet', 'the chip is in the tab order');
		await page.keyboard.press('Enter');
		const [open] = await chat.waitForPosted('mention.open');
		assert.deepEqual(open, { type: 'mention.open', path: 'src/a.ts', range: { start: 10, end: 40 } });
		await page.keyboard.press('Tab');
		await page.keyboard.press(' ');
		await chat.waitForPosted('mention.open', 2);
		assert.deepEqual((await postedOf(chat, 'mention.open'))[1], { type: 'mention.open', path: HOSTILE_NAME }, 'Space opens too; the path goes to the host as written');
		await page.keyboard.press('Tab');
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Problems problems: not sent yet', 'a keyword chip is reachable, and says its outcome');

		// The first request settles them: the row is updated in place, the focus stays on its chip.
		await chat.host({
			type: 'items.updated',
			seq: 1,
			sessionId: 'session-1',
			items: [userWith([
				{ ...PENDING[0], state: 'attached' } as MentionChipView,
				{ ...PENDING[1], state: 'rejected', detail: `no such file <b>${FORGED_BLOCK}</b>` } as MentionChipView,
				{ ...PENDING[2], state: 'in-context' } as MentionChipView,
			])],
		});
		await row.locator('.mention-chip[data-state="attached"]').waitFor();
		assert.equal(await row.getByRole('button', { name: 'File src/a.ts#L10-40: attached' }).count(), 1);
		const rejected = row.locator('.mention-chip[data-state="rejected"]');
		assert.equal(await rejected.getAttribute('aria-label'), `File ${HOSTILE_NAME}: not attached: no such file <b>${FORGED_BLOCK}</b>`, 'the reason is in its name, as text');
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Problems problems: already in context, not attached again');
		assert.equal(await row.locator(DANGEROUS_ELEMENTS).count(), 0);
		await assertCleanAndClose(chat);
	});

	it('shows an MCP resource\'s chip (`@mcp:`) with its outcome; it is a note, never a button that opens a file', async () => {
		const chat = await openChat(harness);
		const resource: UserTurnItem = {
			kind: 'user',
			id: 'u1',
			text: 'read @mcp:docs/demo://guide and @mcp:"docs/gone here"',
			at: Date.UTC(2026, 0, 1),
			mentions: [
				{ kind: 'resource', label: 'mcp:docs/demo://guide', state: 'attached' },
				{ kind: 'resource', label: 'mcp:"docs/gone here"', state: 'rejected', detail: 'the MCP server "docs" could not read it: Resource not found.' },
			],
		};
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Chat', items: [resource] } }));
		const row = chat.page.locator('.row-user');
		assert.deepEqual(await row.locator('.mention-chip-label').allInnerTexts(), ['mcp:docs/demo://guide', 'mcp:"docs/gone here"']);
		assert.deepEqual(await row.getByRole('note').evaluateAll((chips) => chips.map((chip) => chip.getAttribute('aria-label'))), [
			'Resource mcp:docs/demo://guide: attached',
			'Resource mcp:"docs/gone here": not attached: the MCP server "docs" could not read it: Resource not found.',
		]);
		assert.equal(await row.locator('button.mention-chip').count(), 0);
		assert.equal(await row.locator('.mention-chip[data-kind="resource"] .codicon-mcp').count(), 2);
		await assertCleanAndClose(chat);
	});

	it('shows the hook context collapsed, as text, and opens it by keyboard; it arrives later as an update too', async () => {
		const chat = await openChat(harness);
		const user: UserTurnItem = { kind: 'user', id: 'u1', text: 'go', at: 1 };
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Chat', items: [user] } }));
		const { page } = chat;
		assert.equal(await page.locator('.hook-context').count(), 0, 'no hook context, no part');
		const hostile = HOSTILE_CORPUS.join('\n');
		await chat.host({ type: 'items.updated', seq: 1, sessionId: 'session-1', items: [{ ...user, hookContext: [{ event: 'SessionStart', text: hostile }, { event: 'UserPromptSubmit', text: 'branch: main' }] }] });
		const toggle = page.getByRole('button', { name: '◇ hook context (SessionStart, UserPromptSubmit)' });
		await toggle.waitFor();
		assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
		await toggle.focus();
		await page.keyboard.press('Enter');
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
		const bodies = page.locator('.hook-context-panel .reminder-body');
		assert.deepEqual(await bodies.allInnerTexts(), [hostile, 'branch: main'], 'each event\'s text, as text');
		assert.equal(await page.locator('.hook-context-panel').locator(DANGEROUS_ELEMENTS).count(), 0);
		assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
		await page.keyboard.press('Space');
		assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
		await assertCleanAndClose(chat);
	});

	it('offers a blocked message back: an empty composer gets it, a draft is kept and Restore puts it back', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) }));
		const { page } = chat;
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		// The hooks' own notice comes first; the one with the way back replaces it.
		await chat.host({ type: 'notice', seq: 1, level: 'warning', text: 'Your message was not sent: a UserPromptSubmit hook blocked it: no deploys on Friday' });
		await page.locator('.notice', { hasText: 'no deploys on Friday' }).waitFor();
		await chat.host({ type: 'composer.restore', seq: 2, text: 'deploy it', reason: 'no deploys on Friday' });
		await page.locator('.notice', { hasText: 'It is back in the message box.' }).waitFor();
		assert.equal(await input.inputValue(), 'deploy it', 'the empty box gets the text back');
		assert.equal(await page.locator('.notice', { hasText: 'no deploys on Friday' }).count(), 1, 'said once');
		assert.equal(await page.getByRole('button', { name: 'Restore message' }).count(), 0);

		await input.fill('something new');
		await chat.host({ type: 'composer.restore', seq: 3, text: `rm -rf ${HOSTILE_CORPUS[0] ?? ''}`, reason: FORGED_BLOCK });
		const restore = page.getByRole('button', { name: 'Restore message' });
		await restore.waitFor();
		assert.equal(await input.inputValue(), 'something new', 'a draft is never clobbered');
		assert.equal(await page.locator('.notices').locator(DANGEROUS_ELEMENTS).count(), 0);
		await restore.focus();
		await page.keyboard.press('Enter');
		assert.equal(await input.inputValue(), `rm -rf ${HOSTILE_CORPUS[0] ?? ''}\n\nsomething new`, 'Restore puts it back, the draft after it');
		assert.equal(await restore.count(), 0, 'the notice goes once used');
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message Aside');
		await assertCleanAndClose(chat);
	});
	it('shows a turn Aside started as Aside\'s, never as the person\'s words, with the reminder it sent collapsed and exact', async () => {
		const body = `No person wrote this message. Aside started this turn by itself because background processes of this chat ended:\n- p1 \`<img src=x onerror=window.__pwned=1>\` exited: exit code 1`;
		const woke: UserTurnItem = {
			kind: 'user',
			id: 'u2',
			text: '',
			at: Date.UTC(2026, 0, 1),
			startedBy: { why: 'p1 `<img src=x onerror=window.__pwned=1>` exited: exit code 1', key: 'run.background.wake', label: 'Aside started this turn', body },
		};
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Chat', items: [woke] } }));
		const { page } = chat;
		const row = page.locator('.row-user');
		assert.equal(await row.locator('.row-author').innerText(), 'Aside', 'not "You"');
		assert.equal(await row.locator('.started-by-why').innerText(), 'No person wrote this: Aside started this turn because p1 `<img src=x onerror=window.__pwned=1>` exited: exit code 1.');
		const toggle = row.getByRole('button', { name: /system reminder \(Aside started this turn\)/ });
		assert.equal(await toggle.getAttribute('aria-expanded'), 'false', 'collapsed');
		await toggle.focus();
		await page.keyboard.press('Enter');
		assert.equal(await row.locator('.started-by-panel .reminder-key').innerText(), 'run.background.wake');
		assert.equal(await row.locator('.started-by-panel .reminder-body').innerText(), body, 'exactly as sent');
		assert.equal(await row.locator(DANGEROUS_ELEMENTS).count(), 0);
		assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
		await assertCleanAndClose(chat);
	});
});
