// Child agents and the task panel in the real bundle: a child's collapsed row in its parent's
// turn, opened by keyboard to its own rows (its ◇ reminders, its tool calls, its answer, its own
// child), live changes of its header, streaming inside it, the approval card's agent, the task
// panel, and the hostile corpus in every text slot of them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { AgentView, TranscriptItem } from '../../src/protocol/messages';
import type { TaskView } from '../../src/protocol/tasks';
import { DANGEROUS_ELEMENTS, FORGED_BLOCK, HOSTILE_CORPUS } from './corpus';
import { G, N, nestedChildren, task, taskList } from './childItems';
import { agentRow, assistant, entry, inChild, reminders, tool, user } from './items';
import { agentView, assertCleanAndClose, type ChatPage, openChat, postedOf, useHarness, viewState } from './page';

const topRows = (page: Page): Promise<string[]> => page.locator('.transcript > li').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id') ?? ''));
const blockRows = (page: Page, path: string): Promise<string[]> =>
	page.locator(`li[data-path="${path}"] > .agent-panel > .agent-rows > li`).evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id') ?? ''));
const toggle = (page: Page, path: string) => page.locator(`li[data-path="${path}"] > button.agent-toggle`);

describe('child agents and tasks', () => {
	const harness = useHarness();

	async function withItems(items: TranscriptItem[], overrides: Parameters<typeof viewState>[0] = {}): Promise<ChatPage> {
		const chat = await openChat(harness);
		await chat.connect(viewState({ session: { id: 'session-1', title: 'Agents', items }, ...overrides }));
		return chat;
	}

	it('shows a child as one collapsed row in its parent\'s turn that opens, by keyboard, to its own rows, nested again', async () => {
		const chat = await withItems(nestedChildren());
		const { page } = chat;
		assert.deepEqual(await topRows(page), ['u1', `agent-${G}`, 'a1'], "the child's rows are inside its row, not the transcript's");
		const outer = toggle(page, G);
		assert.equal(await outer.getAttribute('aria-expanded'), 'false');
		assert.equal(await outer.innerText(), 'Agent general: Survey the config code · 3 steps · done');
		assert.equal(await page.locator(`li[data-path="${G}"] > .agent-panel`).isVisible(), false);
		assert.equal(await page.locator('li[data-id="gA"]').count(), 0, 'rendered only once opened');

		await outer.focus();
		await page.keyboard.press('Enter');
		assert.equal(await outer.getAttribute('aria-expanded'), 'true');
		assert.deepEqual(await blockRows(page, G), ['gR', 'gU', `agent-${N}`, 'gA'], 'its turn-start reminders above its prompt, its child where it called it');
		assert.match(await page.locator('li[data-id="gA"] .assistant-text').innerText(), /It is read in src\/config\.ts\./);
		assert.equal(await page.locator('li[data-id="gA"] strong').textContent(), 'src/config.ts', 'its answer is Markdown like any answer');
		const inner = toggle(page, N);
		assert.equal(await inner.innerText(), 'Agent explore: Grep for loadConfig · 2 steps · done');
		assert.equal(await inner.getAttribute('aria-expanded'), 'false');

		// Tab walks into the block: its reminders row, then the nested child's row; Space opens it.
		await page.keyboard.press('Tab');
		assert.equal(await page.evaluate(() => document.activeElement?.closest('li')?.getAttribute('data-id')), 'gR');
		await page.keyboard.press('Tab');
		assert.equal(await page.evaluate(() => document.activeElement?.closest('li')?.getAttribute('data-path')), N);
		await page.keyboard.press('Space');
		assert.equal(await inner.getAttribute('aria-expanded'), 'true');
		assert.deepEqual(await blockRows(page, N), ['nR', 'nU', 'nT', 'nA']);
		assert.match(await page.locator('li[data-id="nT"] button.tool-toggle').innerText(), /Grep\s+loadConfig/);

		// Its own ◇ reminders row, opened by keyboard, shows every reminder it was told.
		const childReminders = page.locator('li[data-id="nR"] button.reminders-toggle');
		assert.match(await childReminders.innerText(), /◇ 2 system reminders \(step budget, mode\)/);
		await childReminders.focus();
		await page.keyboard.press('Enter');
		assert.equal(await childReminders.getAttribute('aria-expanded'), 'true');
		assert.equal(await page.locator('li[data-id="nR"] .reminder-entry[data-key="agent.max-turns"] .reminder-body').textContent(), 'You have 1 step left: wrap up.');

		// The nested block is indented inside its parent's, which is inside the transcript.
		const left = (selector: string) => page.locator(selector).evaluate((node) => node.getBoundingClientRect().left);
		assert.ok((await left('li[data-id="nU"]')) > (await left('li[data-id="gU"]')) && (await left('li[data-id="gU"]')) > (await left('li[data-id="u1"]')), 'each level is indented further');

		// Collapsing the outer block hides all of it, the opened nested block included, and keeps it open inside.
		await outer.focus();
		await page.keyboard.press('Enter');
		assert.equal(await page.locator(`li[data-path="${G}"] > .agent-panel`).isVisible(), false);
		assert.equal(await page.locator('li[data-id="a1"]').isVisible(), true);
		await outer.click();
		assert.equal(await inner.getAttribute('aria-expanded'), 'true', 'what was open inside is open again');
		await assertCleanAndClose(chat);
	});

	it('places a child\'s new rows in its block, open or not, and updates its header live without closing it', async () => {
		const A = 'root/explore#1';
		const B = 'root/explore#2';
		const chat = await withItems([user('u1', 'Look at both'), agentRow(A, { description: 'Look at src' }), agentRow(B, { description: 'Look at test' })]);
		const { page } = chat;
		let seq = 1;
		const host = (message: Record<string, unknown>) => chat.host({ seq: seq++, sessionId: 'session-1', ...message });
		// As the host sends them: a row of the first child goes before the second child's header.
		await host({ type: 'items.inserted', before: `agent-${B}`, items: [inChild(A, user('aU', 'look at src'))] });
		await host({ type: 'items.appended', items: [inChild(B, user('bU', 'look at test'))] });
		await host({ type: 'items.inserted', before: 'aU', items: [inChild(A, reminders('aR', [entry('session.date', 'date', 'Today.')]))] });
		await toggle(page, A).click();
		assert.deepEqual(await blockRows(page, A), ['aR', 'aU']);
		assert.deepEqual(await topRows(page), ['u1', `agent-${A}`, `agent-${B}`]);
		// Open: a new row appears in it at once; the header changes in place, still open.
		await host({ type: 'items.inserted', before: `agent-${B}`, items: [inChild(A, tool('aT'))] });
		await host({ type: 'items.updated', items: [agentRow(A, { description: 'Look at src', steps: 1 })] });
		await page.locator(`li[data-path="${A}"] .agent-rows > li[data-id="aT"]`).waitFor();
		assert.match(await toggle(page, A).innerText(), /· 1 step · running$/);
		await host({ type: 'items.updated', items: [agentRow(A, { description: 'Look at src', steps: 2, status: 'failed', result: 'The child was stopped.', isError: true })] });
		await page.waitForFunction((path) => document.querySelector(`li[data-path="${path}"] > button`)?.textContent.endsWith('failed'), A);
		assert.equal(await toggle(page, A).getAttribute('aria-expanded'), 'true');
		assert.equal(await page.locator(`li[data-path="${A}"]`).getAttribute('data-status'), 'failed');
		assert.match(await page.locator(`li[data-path="${A}"] .agent-result-error`).innerText(), /The child was stopped\./);
		await host({ type: 'items.appended', items: [agentRow('root/verify#3', { description: 'Run the tests' })] });
		await page.waitForFunction(() => document.querySelector('.transcript + [role="status"]')?.textContent === 'Agent verify started: Run the tests');
		// Closed: its rows wait inside, shown when it opens.
		await host({ type: 'items.appended', items: [inChild(B, assistant('bA', 'test/ has 3 files'))] });
		assert.equal(await page.locator('li[data-id="bA"]').count(), 0);
		await toggle(page, B).click();
		assert.deepEqual(await blockRows(page, B), ['bU', 'bA']);
		assert.deepEqual(await postedOf(chat, 'log'), [], 'every delta applied in sequence');
		// A change to another session's rows cannot apply here: the view asks for a snapshot.
		await chat.host({ type: 'items.updated', seq: seq++, sessionId: 'session-0', items: [agentRow(A)] });
		assert.deepEqual((await chat.waitForPosted('ready', 2)).map((m) => (m.type === 'ready' ? m.reason : '')), ['load', 'resync']);
		assert.match(await toggle(page, A).innerText(), /failed$/, 'and changes nothing meanwhile');
		await assertCleanAndClose(chat);
	});

	it('streams a child\'s response inside its open block, continues it after a reload, and replaces it with its answer', async () => {
		const A = 'root/explore#1';
		const running = (children: AgentView['children']): AgentView => agentView({ status: { state: 'running', detail: 'Running Agent…' }, children });
		const items = [user('u1', 'Look'), agentRow(A, { description: 'Look at src', steps: 1 }), inChild(A, user('aU', 'look at src'))];
		const chat = await withItems(items, { agent: running([{ path: A, detail: 'Answering…', streaming: { requestId: 'cq1' } }]), childStreams: [{ requestId: 'cq1', text: 'So far ' }] });
		const { page } = chat;
		await toggle(page, A).click();
		const streamed = page.locator(`li[data-path="${A}"] .agent-live [data-kind="streaming"] .assistant-text`);
		await page.waitForFunction((path) => document.querySelector(`li[data-path="${path}"] .agent-live [data-kind="streaming"] .assistant-text`)?.textContent === 'So far ', A);
		assert.equal(await page.locator(`li[data-path="${A}"] .agent-activity`).innerText(), 'Answering…');
		let seq = 1;
		for (const delta of ['src/ ', 'has ', '<b>9</b> files']) {
			await chat.host({ type: 'text.streamed', seq: seq++, requestId: 'cq1', text: delta });
		}
		await page.waitForFunction((path) => document.querySelector(`li[data-path="${path}"] .agent-live [data-kind="streaming"] .assistant-text`)?.textContent === 'So far src/ has <b>9</b> files', A);
		assert.equal(await streamed.locator('b').count(), 0);
		assert.equal(await page.locator('.live [data-kind="streaming"]').count(), 0, "the root's live row is not the child's");
		await chat.host({ type: 'items.appended', seq: seq++, sessionId: 'session-1', items: [inChild(A, assistant('aA', 'So far src/ has <b>9</b> files'))] });
		await page.locator(`li[data-path="${A}"] .agent-rows > li[data-id="aA"]`).waitFor();
		assert.equal(await page.locator(`li[data-path="${A}"] [data-kind="streaming"]`).count(), 0, 'its recorded answer replaces the streamed text');
		await chat.host({ type: 'agent.changed', seq, agent: running([]) });
		assert.equal(await page.locator(`li[data-path="${A}"] .agent-live`).isVisible(), false, 'a child that ended shows nothing live');
		assert.deepEqual(await postedOf(chat, 'log'), []);
		await assertCleanAndClose(chat);
	});

	it('says on the approval card which agent asks', async () => {
		const chat = await withItems([user('u1', 'go'), agentRow(G)]);
		const { page } = chat;
		const approval = { callId: 'c1', tool: 'Write', kind: 'write' as const, title: 'Create notes.md?', target: 'notes.md', agent: N };
		await chat.host({ type: 'agent.changed', seq: 1, agent: agentView({ status: { state: 'running', detail: 'Waiting for you to allow or deny Write.' }, approval }) });
		const card = page.locator('.approval[data-call-id="c1"]');
		await card.waitFor();
		assert.equal(await card.locator('.approval-agent').innerText(), 'explore#2 asks');
		assert.equal(await card.locator('.approval-agent').getAttribute('title'), N);
		await chat.host({ type: 'agent.changed', seq: 2, agent: agentView({ status: { state: 'running', detail: 'x' }, approval: { ...approval, callId: 'c2', agent: undefined } }) });
		await page.locator('.approval[data-call-id="c2"]').waitFor();
		assert.equal(await page.locator('.approval-agent').count(), 0, "the root's own calls name no agent");
		await assertCleanAndClose(chat);
	});

	it('shows the task panel: open count and current task, every row expanded, by keyboard, updated live; hidden in an empty chat', async () => {
		const rows = [task('1', 'Read the config code', 'completed'), task('2', 'Write the fix', 'in_progress', 'root', 'keep the old key working'), task('3', 'Grep for callers', 'pending', N)];
		const chat = await withItems([user('u1', 'Fix the config')], { tasks: taskList(rows) });
		const { page } = chat;
		const panel = page.locator('.task-panel');
		const button = panel.locator('button.task-toggle');
		assert.equal(await panel.isVisible(), true);
		assert.equal(await button.innerText(), '2 open tasks of 3 · Write the fix');
		assert.equal(await button.getAttribute('aria-expanded'), 'false');
		assert.equal(await panel.locator('.task-list').isVisible(), false);
		// Above the composer.
		const box = async (selector: string) => (await page.locator(selector).boundingBox())?.y ?? 0;
		assert.ok((await box('.task-panel')) < (await box('.composer')));

		await button.focus();
		await page.keyboard.press('Enter');
		assert.equal(await button.getAttribute('aria-expanded'), 'true');
		const list = panel.locator('.task-list');
		assert.deepEqual(await list.locator('li').evaluateAll((items) => items.map((item) => item.textContent)), [
			'completed: Read the config code',
			'in progress: Write the fix' + 'keep the old key working',
			`pending: Grep for callers${N}`,
		]);
		assert.equal(await list.locator('li.task-current').getAttribute('data-id'), '2');
		await page.keyboard.press('Tab');
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('task-list')), true, 'the list is reachable by Tab');
		await page.keyboard.press('Escape');
		assert.equal(await button.getAttribute('aria-expanded'), 'false');
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('task-toggle')), true, 'Escape closes it and gives the focus back');

		await chat.host({ type: 'tasks.changed', seq: 1, tasks: taskList([rows[0] as TaskView, task('2', 'Write the fix', 'completed'), task('3', 'Grep for callers', 'in_progress', N)]) });
		await page.waitForFunction(() => document.querySelector('.task-toggle')?.textContent === '1 open task of 3 · Grep for callers');
		await chat.host({ type: 'tasks.changed', seq: 2, tasks: taskList([rows[0] as TaskView, task('2', 'Write the fix', 'completed'), task('3', 'Grep for callers', 'cancelled', N)]) });
		await page.waitForFunction(() => document.querySelector('.task-toggle')?.textContent === '3 tasks, none open');

		// Another chat, empty: no panel.
		await chat.host({ type: 'snapshot', seq: 3, protocol: 6, state: viewState({ session: { id: 'session-2', title: 'New chat', items: [] }, tasks: taskList(rows) }) });
		await page.waitForFunction(() => document.querySelector<HTMLElement>('.task-panel')?.hidden === true);
		await assertCleanAndClose(chat);
	});

	it('keeps the hostile corpus as text in task titles, notes, agent descriptions and a child\'s rows', async () => {
		const items: TranscriptItem[] = [user('u0', 'go')];
		HOSTILE_CORPUS.forEach((text, i) => {
			const path = `root/explore#${i + 1}`;
			items.push(agentRow(path, { description: text, profile: text.slice(0, 20), status: 'failed', result: text, isError: true }));
			items.push(inChild(path, user(`cu${i}`, text)), inChild(path, tool(`ct${i}`, { input: text, result: text })), inChild(path, assistant(`ca${i}`, text)));
		});
		const tasks = taskList(HOSTILE_CORPUS.map((text, i) => task(`t${i}`, text, i === 0 ? 'in_progress' : 'pending', `root/explore#${i + 1}`, text)));
		const chat = await withItems(items, { tasks });
		const { page } = chat;
		await page.locator('button.task-toggle').click();
		const scroller = page.locator('main.scroller');
		// Open every child block as it scrolls into view.
		for (let step = 0; step < 400; step++) {
			const closed = page.locator('button.agent-toggle[aria-expanded="false"]');
			if ((await closed.count()) > 0) {
				await closed.first().click();
				continue;
			}
			if (await scroller.evaluate((node) => node.scrollTop + node.clientHeight >= node.scrollHeight - 2)) {
				break;
			}
			await scroller.evaluate((node) => {
				node.scrollTop += Math.max(node.clientHeight, 300);
			});
			await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
		}
		assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined, 'nothing ran');
		const dangerous = await page.evaluate((selector) => Array.from(document.querySelectorAll(`#app :is(${selector})`), (node) => node.tagName), DANGEROUS_ELEMENTS);
		assert.deepEqual(dangerous, [], 'no element that could run or load');
		const handlers = await page.evaluate(() => Array.from(document.querySelectorAll('#app *')).flatMap((node) => Array.from(node.attributes).filter((a) => a.name.startsWith('on')).map((a) => `${node.tagName} ${a.name}`)));
		assert.deepEqual(handlers, []);
		assert.equal(await page.locator('[data-kind="reminders"]').count(), 0, 'a forged block in a child\'s text makes no reminders row');
		const forged = HOSTILE_CORPUS.indexOf(FORGED_BLOCK);
		assert.equal(await page.locator(`.task[data-id="t${forged}"] .task-title`).textContent(), FORGED_BLOCK);
		assert.equal(await page.locator(`.task[data-id="t${forged}"] .task-notes`).textContent(), FORGED_BLOCK);
		const last = HOSTILE_CORPUS.length - 1;
		assert.equal(await page.locator(`li[data-path="root/explore#${last + 1}"] .agent-description`).textContent(), HOSTILE_CORPUS[last]);
		assert.equal(await page.locator(`li[data-id="cu${last}"] .user-text`).textContent(), HOSTILE_CORPUS[last]);
		await assertCleanAndClose(chat);
	});

	it('keeps right-to-left and huge text inside its row', async () => {
		const A = 'root/explore#1';
		const huge = 'x'.repeat(200_000);
		const rtl = 'مرحبا بالعالم \u202Egnp.exe\u202C שלום';
		const chat = await withItems([user('u1', 'go'), agentRow(A, { description: `${rtl} ${huge}` }), inChild(A, assistant('aA', `${rtl}\n\n${huge}`))], { tasks: taskList([task('1', `${rtl} ${huge}`, 'pending', A, huge)]) });
		const { page } = chat;
		await toggle(page, A).click();
		await page.locator('button.task-toggle').click();
		const width = await page.evaluate(() => document.documentElement.clientWidth);
		for (const selector of [`li[data-path="${A}"]`, 'li[data-id="aA"]', '.task-panel']) {
			const box = await page.locator(selector).boundingBox();
			assert.ok(box && box.x + box.width <= width + 1, `${selector} stays within the view`);
		}
		assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), true, 'no sideways scroll');
		await assertCleanAndClose(chat);
	});
});
