// Every transcript row kind, in the real bundle in headless Chromium: what each shows, how the
// collapsible ones open by mouse and keyboard, and that reminder rows come only from structure.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TranscriptItem } from '../../src/protocol/messages';
import { assistant, entry, FORGED_REMINDER, reminders, tool, turnEnd, user } from './items';
import { assertCleanAndClose, type ChatPage, openChat, useHarness, viewState } from './page';

describe('transcript rows', () => {
	const harness = useHarness();

	async function withItems(items: TranscriptItem[]): Promise<ChatPage> {
		const chat = await openChat(harness);
		await chat.connect(viewState({ session: { id: 'session-1', title: 'Rows', items } }));
		return chat;
	}

	it('renders each row kind: user, assistant as Markdown, tool, reminders, turn ends', async () => {
		const chat = await withItems([
			user('u1', 'hello'),
			reminders('r1', [entry('session.date', 'date', 'Today is 2026-11-30.')]),
			assistant('a1', '**not bold** <b>not a tag</b>\n    indented line'),
			tool('t1'),
			assistant('a-tools-only', '', 'tool-use'),
			turnEnd('e1', 'done'),
			assistant('a2', 'partial answ', 'interrupted'),
			turnEnd('e2', 'interrupted'),
			assistant('a3', 'broken', 'failed'),
			turnEnd('e3', 'failed', 'HTTP 529: overloaded'),
			assistant('a4', 'long answer', 'max-tokens'),
			turnEnd('e4', 'step-limit'),
		]);
		const { page } = chat;
		const kinds = await page.locator('.transcript > li').evaluateAll((rows) => rows.map((row) => `${row.getAttribute('data-kind') ?? ''}:${row.getAttribute('data-id') ?? ''}`));
		// The turn-start reminders sit above the user message; a done turn and a tools-only response show nothing.
		assert.deepEqual(kinds, ['reminders:r1', 'user:u1', 'assistant:a1', 'tool:t1', 'assistant:a2', 'turn-end:e2', 'assistant:a3', 'turn-end:e3', 'assistant:a4', 'turn-end:e4']);

		const a1 = page.locator('li[data-id="a1"]');
		assert.equal(await a1.locator('.assistant-text').textContent(), 'not bold <b>not a tag</b>\n    indented line');
		assert.equal(await a1.locator('.assistant-text').evaluate((node) => getComputedStyle(node).whiteSpace), 'normal');
		assert.equal(await a1.locator('strong').textContent(), 'not bold');
		assert.equal(await a1.locator('b, em').count(), 0);
		assert.equal(await a1.locator('.stop-marker').count(), 0);
		assert.equal(await page.locator('li[data-id="a2"] .stop-marker').innerText(), 'stopped');
		assert.equal(await page.locator('li[data-id="a3"] .stop-marker').innerText(), 'failed');
		assert.match(await page.locator('li[data-id="a4"] .stop-marker').innerText(), /cut off/);

		assert.equal(await page.locator('li[data-id="e2"]').innerText(), 'Stopped.');
		assert.match(await page.locator('li[data-id="e3"]').innerText(), /failed[\s\S]*HTTP 529: overloaded/);
		assert.match(await page.locator('li[data-id="e4"]').innerText(), /step limit/);

		const t1 = page.locator('li[data-id="t1"] button.tool-toggle');
		assert.equal(await t1.getAttribute('aria-expanded'), 'false');
		assert.match(await t1.innerText(), /Read\s+src\/app\.ts[\s\S]*42 ms/);
		await assertCleanAndClose(chat);
	});

	it('shows one collapsed reminders row with count and labels, plural and singular', async () => {
		const chat = await withItems([
			user('u1', 'first'),
			reminders('r1', [entry('session.date', 'date', 'Today is Monday.'), entry('project.instructions', 'project instructions', 'Use tabs.'), entry('file.changed', 'file changed', 'a.ts changed')]),
			assistant('a1', 'ok'),
			reminders('r2', [entry('context.usage', 'context usage', 'Context is 62% full.')], 'mid-turn'),
		]);
		const { page } = chat;
		const rows = page.locator('li[data-kind="reminders"]');
		assert.equal(await rows.count(), 2);
		assert.equal(await rows.nth(0).locator('button').innerText(), '◇ 3 system reminders (date, project instructions, file changed)');
		assert.equal(await rows.nth(1).locator('button').innerText(), '◇ 1 system reminder (context usage)');
		assert.equal(await rows.nth(0).locator('button').getAttribute('aria-expanded'), 'false');
		assert.match((await rows.nth(0).locator('button').getAttribute('title')) ?? '', /^◇ 3 system reminders \(date, project instructions, file changed\): what Aside added/, 'the whole label in the tooltip, for a narrow view');
		assert.equal(await rows.nth(0).locator('.reminder-body').count(), 0, 'collapsed: no bodies shown');
		await assertCleanAndClose(chat);
	});

	it('expands reminders by mouse and keyboard to key, reason and the exact body, as text', async () => {
		const hostileBody = `Line one\n\n  <script>alert(1)</script>\n<img src=x onerror="window.__pwned = 1">\n${FORGED_REMINDER}\ntrailing spaces   `;
		const chat = await withItems([
			user('u1', 'go'),
			reminders('r1', [entry('file.changed', 'file changed', hostileBody, 'src/a.ts changed on disk since the agent read it'), entry('session.date', 'date', 'Today is Monday.', 'first turn of the session')]),
		]);
		const { page } = chat;
		const dialogs: string[] = [];
		page.on('dialog', (dialog) => {
			dialogs.push(dialog.message());
			void dialog.dismiss();
		});
		const toggle = page.locator('li[data-kind="reminders"] button.reminders-toggle');
		await toggle.click();
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
		const entries = page.locator('.reminder-entry');
		assert.equal(await entries.count(), 2);
		assert.equal(await entries.nth(0).locator('.reminder-label').innerText(), 'file changed');
		assert.equal(await entries.nth(0).locator('.reminder-key').innerText(), 'file.changed');
		assert.match(await entries.nth(0).locator('.reminder-reason').innerText(), /src\/a\.ts changed on disk since the agent read it/);
		assert.equal(await entries.nth(0).locator('pre.reminder-body').textContent(), hostileBody, 'the body exactly as sent');
		assert.equal(await entries.nth(1).locator('pre.reminder-body').textContent(), 'Today is Monday.');
		// The forged block is text inside the entry: no element, no script, no second row.
		assert.equal(await page.locator('.transcript script, .transcript img, .transcript system-reminder').count(), 0);
		assert.equal(await page.locator('li[data-kind="reminders"]').count(), 1);
		assert.equal(await page.locator('.reminder-entry').count(), 2);
		assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
		assert.deepEqual(dialogs, []);

		await toggle.click();
		assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
		assert.equal(await page.locator('.reminders-panel').isVisible(), false);

		// Keyboard: Enter opens, Space closes, and the focus stays on the toggle.
		await toggle.focus();
		await page.keyboard.press('Enter');
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
		assert.equal(await page.locator('.reminders-panel').isVisible(), true);
		await page.keyboard.press('Space');
		assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
		assert.equal(await toggle.evaluate((node) => node === document.activeElement), true);
		await assertCleanAndClose(chat);
	});

	it('shows a long reminder body whole, not in a scroll box that hides part of it', async () => {
		const longBody = Array.from({ length: 120 }, (_, i) => `line ${i + 1} of the project instructions`).join('\n');
		const chat = await withItems([user('u1', 'go'), reminders('r1', [entry('workspace.instructions', 'instructions', longBody)])]);
		const { page } = chat;
		await page.locator('li[data-kind="reminders"] button.reminders-toggle').click();
		const body = page.locator('pre.reminder-body');
		assert.equal(await body.textContent(), longBody);
		const { scrollHeight, clientHeight } = await body.evaluate((node) => ({ scrollHeight: node.scrollHeight, clientHeight: node.clientHeight }));
		assert.ok(scrollHeight <= clientHeight + 1, `the body is not clipped (${scrollHeight} px of content in ${clientHeight} px)`);
		await assertCleanAndClose(chat);
	});

	it('puts turn-start reminders above their user message, also across deltas; mid-turn ones inline', async () => {
		const chat = await withItems([user('u1', 'one'), reminders('r1', [entry('session.date', 'date', 'd')]), assistant('a1', 'answer one')]);
		await chat.host({ type: 'items.appended', seq: 1, sessionId: 'session-1', items: [user('u2', 'two')] });
		await chat.host({ type: 'items.inserted', seq: 2, sessionId: 'session-1', before: 'u2', items: [reminders('r2', [entry('file.changed', 'file changed', 'f')])] });
		await chat.host({ type: 'items.appended', seq: 3, sessionId: 'session-1', items: [tool('t1'), reminders('r3', [entry('context.usage', 'context usage', 'c')], 'mid-turn'), assistant('a2', 'answer two')] });
		await chat.page.locator('li[data-id="a2"]').waitFor();
		const order = await chat.page.locator('.transcript > li').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id')));
		assert.deepEqual(order, ['r1', 'u1', 'a1', 'r2', 'u2', 't1', 'r3', 'a2']);
		await assertCleanAndClose(chat);
	});

	it('expands a tool row to input, result and a coloured diff; notices are rows from structure', async () => {
		const diff = '--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n';
		const input = JSON.stringify({ path: 'src/app.ts', old: 'const b = 2;', new: 'const b = 3;' }, null, 2);
		const chat = await withItems([
			tool('t1', { name: 'Edit', input, result: 'Edited src/app.ts', diff, durationMs: 1500 }),
			tool('t2', { name: 'Read', result: '1\tline\n[output cut]', notices: [{ key: 'read.truncated', body: 'Only the first 2000 lines were read.\nUse offset to read more.' }] }),
			tool('t3', { name: 'Bash', input: JSON.stringify({ command: 'rm -rf build\necho done' }), result: 'denied by you', isError: true, verdict: 'denied' }),
		]);
		const { page } = chat;
		const edit = page.locator('li[data-id="t1"]');
		assert.match(await edit.locator('button.tool-toggle').innerText(), /Edit\s+src\/app\.ts[\s\S]*1\.5 s/);
		await edit.locator('button.tool-toggle').click();
		assert.equal(await edit.locator('pre.tool-input').textContent(), input);
		assert.equal(await edit.locator('pre.tool-result').textContent(), 'Edited src/app.ts');
		assert.equal(await edit.locator('pre.diff').textContent(), diff.slice(0, -1));
		assert.deepEqual(await edit.locator('.diff-add').allTextContents(), ['+const b = 3;']);
		assert.deepEqual(await edit.locator('.diff-del').allTextContents(), ['-const b = 2;\n']);
		assert.equal(await edit.locator('[data-kind="notice"]').count(), 0);

		// The notice shows even with the tool collapsed, and opens to its key and body.
		const read = page.locator('li[data-id="t2"]');
		const notice = read.locator('[data-kind="notice"] button');
		assert.equal(await notice.innerText(), '◇ System reminder (2 lines)');
		await notice.focus();
		await page.keyboard.press('Enter');
		assert.equal(await read.locator('.notice-panel .reminder-key').innerText(), 'read.truncated');
		assert.equal(await read.locator('.notice-panel pre').textContent(), 'Only the first 2000 lines were read.\nUse offset to read more.');

		const bash = page.locator('li[data-id="t3"]');
		assert.match(await bash.locator('button.tool-toggle').innerText(), /Bash\s+rm -rf build …[\s\S]*denied/);
		assert.equal(await bash.getAttribute('class'), 'row row-tool tool-denied');
		await assertCleanAndClose(chat);
	});

	it('never turns forged <system-reminder> text in a result or an answer into a reminder row', async () => {
		const chat = await withItems([
			user('u1', FORGED_REMINDER),
			tool('t1', { result: `file contents\n${FORGED_REMINDER}\n<script>alert(1)</script>` }),
			assistant('a1', `Here you go:\n${FORGED_REMINDER}`),
		]);
		const { page } = chat;
		await page.locator('li[data-id="t1"] button.tool-toggle').click();
		assert.equal(await page.locator('li[data-id="t1"] pre.tool-result').textContent(), `file contents\n${FORGED_REMINDER}\n<script>alert(1)</script>`);
		assert.equal(await page.locator('li[data-id="a1"] .assistant-text').textContent(), `Here you go:\n${FORGED_REMINDER}`);
		assert.equal(await page.locator('[data-kind="reminders"], [data-kind="notice"], .reminder-entry').count(), 0);
		assert.equal(await page.locator('.transcript script, .transcript system-reminder').count(), 0);
		await assertCleanAndClose(chat);
	});
});
