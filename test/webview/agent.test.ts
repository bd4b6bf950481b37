// The live agent in the real bundle: streaming text, the status line, pending steering, the
// approval card, Stop, and the model and mode pickers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AgentView, type ApprovalView, parseViewMessage, PROTOCOL_VERSION } from '../../src/protocol/messages';
import { DANGEROUS_ELEMENTS, HOSTILE_CORPUS } from './corpus';
import { assistant, user } from './items';
import { agentView, assertCleanAndClose, type ChatPage, openChat, postedOf, useHarness, viewState } from './page';

const running = (overrides: Partial<AgentView> = {}): AgentView => agentView({ status: { state: 'running', detail: 'Waiting for the model…' }, ...overrides });

describe('live agent', () => {
	const harness = useHarness();

	async function connected(agent: AgentView = agentView({ status: { state: 'ready', detail: 'Ready.' } })): Promise<ChatPage> {
		const chat = await openChat(harness);
		await chat.connect(viewState({ session: { id: 'session-1', title: 'Live', items: [user('u1', 'do it')] }, agent }));
		return chat;
	}

	it('accumulates streamed text and replaces the row with the recorded answer', async () => {
		const chat = await connected();
		const { page } = chat;
		const streaming = page.locator('[data-kind="streaming"] .assistant-text');
		await chat.host({ type: 'agent.changed', seq: 1, agent: running({ streaming: { requestId: 'req-1' } }) });
		await chat.host({ type: 'text.streamed', seq: 2, requestId: 'req-1', text: 'Hel' });
		await page.waitForFunction(() => document.querySelector('[data-kind="streaming"] .assistant-text')?.textContent === 'Hel');
		let seq = 3;
		for (const delta of ['lo', ', ', 'world', '\n  <b>not bold</b>']) {
			await chat.host({ type: 'text.streamed', seq: seq++, requestId: 'req-1', text: delta });
		}
		// A delta of another request is stale and ignored.
		await chat.host({ type: 'text.streamed', seq: seq++, requestId: 'req-0', text: 'STALE' });
		await page.waitForFunction(() => document.querySelector('[data-kind="streaming"] .assistant-text')?.textContent === 'Hello, world\n  <b>not bold</b>');
		assert.equal(await streaming.locator('b').count(), 0);
		assert.equal(await page.locator('.agent-status').innerText(), 'Waiting for the model…');

		await chat.host({ type: 'items.appended', seq: seq++, sessionId: 'session-1', items: [assistant('a1', 'Hello, world\n  <b>not bold</b>')] });
		await page.locator('li[data-id="a1"]').waitFor();
		assert.equal(await page.locator('[data-kind="streaming"]').count(), 0, 'the recorded answer replaces the streaming row');
		// The host's next agent view may still carry the finished stream: it must not come back.
		await chat.host({ type: 'agent.changed', seq: seq++, agent: running({ streaming: { requestId: 'req-1' } }) });
		await chat.host({ type: 'agent.changed', seq: seq++, agent: running({ streaming: { requestId: 'req-2' } }) });
		await chat.host({ type: 'text.streamed', seq: seq++, requestId: 'req-2', text: 'Next step' });
		await page.waitForFunction(() => document.querySelector('[data-kind="streaming"] .assistant-text')?.textContent === 'Next step');
		assert.equal(await page.locator('[data-kind="streaming"]').count(), 1);
		await chat.host({ type: 'agent.changed', seq, agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) });
		await page.locator('[data-kind="streaming"]').waitFor({ state: 'detached' });
		assert.equal(await page.locator('.agent-status').isVisible(), false);
		assert.deepEqual(await postedOf(chat, 'log'), [], 'every message applied in sequence');
		await assertCleanAndClose(chat);
	});

	it('connected mid-stream, shows the text so far from the snapshot once, and goes on with the deltas', async () => {
		const chat = await openChat(harness);
		const { page } = chat;
		const stream = { requestId: 'req-1', text: 'Hello, ' };
		await chat.connect(viewState({ session: { id: 'session-1', title: 'Live', items: [user('u1', 'do it')] }, agent: running({ streaming: { requestId: 'req-1' } }), stream }));
		await page.waitForFunction(() => document.querySelector('[data-kind="streaming"] .assistant-text')?.textContent === 'Hello, ');
		await chat.host({ type: 'text.streamed', seq: 1, requestId: 'req-1', text: 'world' });
		await chat.host({ type: 'agent.changed', seq: 2, agent: running({ streaming: { requestId: 'req-1' }, steering: ['and tests'] }) });
		await page.locator('[data-kind="steering"]').waitFor();
		await page.waitForFunction(() => document.querySelector('[data-kind="streaming"] .assistant-text')?.textContent === 'Hello, world');
		// A resync snapshot carries the text as the host has it: it replaces what the view pieced together.
		await chat.host({ type: 'snapshot', seq: 3, protocol: PROTOCOL_VERSION, state: viewState({ agent: running({ streaming: { requestId: 'req-1' } }), stream: { requestId: 'req-1', text: 'Hello, world, again' } }) });
		await page.waitForFunction(() => document.querySelector('[data-kind="streaming"] .assistant-text')?.textContent === 'Hello, world, again');
		assert.equal(await page.locator('[data-kind="streaming"]').count(), 1);
		assert.deepEqual(await postedOf(chat, 'log'), [], 'every message applied in sequence');
		await assertCleanAndClose(chat);
	});

	it('shows steering messages as pending until the agent takes them', async () => {
		const chat = await connected(running({ steering: ['also update the docs', '<i>and</i> tests'] }));
		const { page } = chat;
		const rows = page.locator('[data-kind="steering"]');
		assert.equal(await rows.count(), 2);
		assert.equal(await rows.nth(1).locator('.user-text').textContent(), '<i>and</i> tests');
		assert.match(await rows.nth(0).innerText(), /will be delivered at the agent's next step/i);
		await chat.host({ type: 'agent.changed', seq: 1, agent: running() });
		await rows.first().waitFor({ state: 'detached' });
		await assertCleanAndClose(chat);
	});

	it('asks for approval: Allow posts granted, Deny posts the note, the card leaves with the approval', async () => {
		const diff = '--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-old\n+new\n';
		const approval = { callId: 'call-1', tool: 'Edit', kind: 'write', title: 'Edit a.ts?', target: 'src/a.ts', diff } as const;
		const chat = await connected(running({ approval }));
		const { page } = chat;
		const card = page.getByRole('region', { name: 'Edit a.ts?' });
		await card.waitFor();
		assert.match(await card.innerText(), /src\/a\.ts/);
		assert.deepEqual(await card.locator('.diff-add').allTextContents(), ['+new']);
		assert.deepEqual(await card.locator('.diff-del').allTextContents(), ['-old\n']);
		// The same approval repeated (another agent.changed) keeps the note being typed.
		await card.getByRole('textbox', { name: 'Note for the agent (optional)' }).fill('keep it short');
		await chat.host({ type: 'agent.changed', seq: 1, agent: running({ approval, steering: ['x'] }) });
		await page.locator('[data-kind="steering"]').waitFor();
		assert.equal(await card.getByRole('textbox').inputValue(), 'keep it short');
		await card.getByRole('button', { name: 'Deny' }).click();
		const [deny] = await chat.waitForPosted('approval');
		assert.deepEqual(deny, { type: 'approval', callId: 'call-1', granted: false, note: 'keep it short' });
		assert.ok(parseViewMessage(deny).ok);
		assert.equal(await card.getByRole('button', { name: 'Allow' }).getAttribute('aria-disabled'), 'true', 'answered once');
		await card.getByRole('button', { name: 'Allow' }).evaluate((node: HTMLElement) => {
			node.click();
		});
		assert.equal((await postedOf(chat, 'approval')).length, 1, 'a second answer is not sent');

		// The next call, by keyboard: Tab to Allow, Enter. No note, no note field in the message.
		await chat.host({ type: 'agent.changed', seq: 2, agent: running({ approval: { callId: 'call-2', tool: 'Bash', kind: 'run', title: 'Run a command?', target: 'npm test' } }) });
		const next = page.getByRole('region', { name: 'Run a command?' });
		await next.waitFor();
		assert.equal(await next.evaluate((node) => node === document.activeElement), true, 'the focus moves to the next card, not to its Allow button');
		await next.getByRole('textbox').focus();
		await page.keyboard.press('Tab');
		assert.equal(await next.getByRole('button', { name: 'Allow' }).evaluate((node) => node === document.activeElement), true);
		await page.keyboard.press('Enter');
		const approvals = await chat.waitForPosted('approval', 2);
		assert.deepEqual(approvals[1], { type: 'approval', callId: 'call-2', granted: true });

		await chat.host({ type: 'agent.changed', seq: 3, agent: running() });
		await next.waitFor({ state: 'detached' });
		assert.equal(await page.locator('.approval').count(), 0);
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message Aside', 'the focus returns to the composer');
		await assertCleanAndClose(chat);
	});

	it('the review card, keyboard only: its files with Open diff, Allow / Deny, and a hostile note posted as text', async () => {
		const diff = '--- a.ts\n+++ a.ts\n@@ -1 +1 @@\n-old\n+new\n--- /dev/null\n+++ b.ts\n@@ -0,0 +1 @@\n+made\n';
		const approval: ApprovalView = {
			callId: 'call-7',
			tool: 'ApplyPatch',
			kind: 'write',
			title: 'Apply a patch to 2 files',
			target: 'src/a.ts, src/b.ts',
			diff,
			review: { files: [{ path: 'src/a.ts', change: 'modify' }, { path: 'src/b.ts', change: 'create' }] },
		};
		const chat = await connected(running({ approval }));
		const { page } = chat;
		const card = page.getByRole('region', { name: 'Apply a patch to 2 files' });
		await card.waitFor();
		assert.deepEqual(await card.locator('.review-path').allTextContents(), ['src/a.ts', 'src/b.ts']);
		assert.deepEqual(await card.locator('.review-change').allTextContents(), ['changed', 'new file']);
		assert.deepEqual(await card.locator('.approval-actions button').allTextContents(), ['Allow', 'Deny'], 'the same two words as every other decision on a tool call');
		assert.equal(await card.getByRole('button', { name: /Accept|Reject/ }).count(), 0);
		const focused = (name: string) => card.getByRole('button', { name, exact: true }).evaluate((node) => node === document.activeElement);
		// From the composer, back into the card: Deny, Allow, the note, then the files' Open diff.
		await page.getByRole('textbox', { name: 'Message Aside' }).focus();
		await page.keyboard.press('Shift+Tab');
		assert.equal(await focused('Deny'), true);
		await page.keyboard.press('Shift+Tab');
		assert.equal(await focused('Allow'), true);
		await page.keyboard.press('Shift+Tab');
		const note = card.getByRole('textbox', { name: 'Note for the agent (optional)' });
		assert.equal(await note.evaluate((node) => node === document.activeElement), true);
		const hostile = HOSTILE_CORPUS.join('\n').slice(0, 2000);
		await note.fill(hostile);
		await page.keyboard.press('Shift+Tab');
		assert.equal(await card.locator('pre.diff').evaluate((node) => node === document.activeElement), true, 'the combined diff scrolls by keyboard');
		await page.keyboard.press('Shift+Tab');
		assert.equal(await focused('Open diff of src/b.ts'), true);
		await page.keyboard.press('Enter');
		const [show] = await chat.waitForPosted('review.show');
		assert.deepEqual(show, { type: 'review.show', callId: 'call-7', path: 'src/b.ts' });
		assert.ok(parseViewMessage(show).ok);
		// Forward again (the diff, the note, Allow) to Deny, which sends the note as it was typed.
		for (let step = 0; step < 4; step++) {
			await page.keyboard.press('Tab');
		}
		assert.equal(await focused('Deny'), true);
		await page.keyboard.press('Enter');
		const [reject] = await chat.waitForPosted('approval');
		assert.deepEqual(reject, { type: 'approval', callId: 'call-7', granted: false, note: hostile.trim() });
		assert.ok(parseViewMessage(reject).ok);
		assert.equal(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), undefined, 'nothing in the note ran');
		assert.equal(await card.locator(DANGEROUS_ELEMENTS).count(), 0);
		await assertCleanAndClose(chat);
	});

	it('turns Send into Stop while running; Escape stops; typing still sends', async () => {
		const chat = await connected();
		const { page } = chat;
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		assert.equal(await page.getByRole('button', { name: 'Stop' }).count(), 0);
		await chat.host({ type: 'agent.changed', seq: 1, agent: running() });
		const stop = page.getByRole('button', { name: 'Stop' });
		await stop.waitFor();
		assert.equal(await page.getByRole('button', { name: 'Send' }).count(), 0);
		await stop.click();
		await chat.waitForPosted('stop');
		await input.fill('steer: use the other file');
		await input.press('Escape');
		await chat.waitForPosted('stop', 2);
		assert.equal(await input.inputValue(), 'steer: use the other file', 'Escape keeps the text');
		await input.press('Enter');
		const [submit] = await chat.waitForPosted('submit');
		assert.deepEqual(submit, { type: 'submit', text: 'steer: use the other file' });
		assert.deepEqual(await postedOf(chat, 'stop'), [{ type: 'stop' }, { type: 'stop' }]);

		await chat.host({ type: 'agent.changed', seq: 2, agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) });
		await page.getByRole('button', { name: 'Send' }).waitFor();
		await input.press('Escape');
		assert.equal((await postedOf(chat, 'stop')).length, 2, 'Escape does nothing when idle');
		await assertCleanAndClose(chat);
	});

	it('posts model.select and mode.select from the pickers', async () => {
		const models = [
			{ id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5' },
			{ id: 'claude-haiku-4-5', name: 'Claude Haiku 4.5' },
		];
		const chat = await connected(agentView({ status: { state: 'ready', detail: 'Ready.' }, model: 'claude-sonnet-4-5', models, mode: 'ask' }));
		const { page } = chat;
		const model = page.getByRole('combobox', { name: 'Model' });
		const mode = page.getByRole('combobox', { name: 'Permission mode of this chat' });
		assert.equal(await model.inputValue(), 'claude-sonnet-4-5');
		assert.deepEqual(await model.locator('option').allTextContents(), ['Claude Sonnet 4.5', 'Claude Haiku 4.5']);
		assert.deepEqual(await mode.locator('option').allTextContents(), ['Ask', 'Auto-edit', 'Plan', 'Full access']);
		assert.equal(await page.locator('.picker-warning').count(), 0, 'Ask: no warning');
		await model.selectOption('claude-haiku-4-5');
		assert.deepEqual(await chat.waitForPosted('model.select'), [{ type: 'model.select', model: 'claude-haiku-4-5' }]);
		await mode.selectOption('plan');
		assert.deepEqual(await chat.waitForPosted('mode.select'), [{ type: 'mode.select', mode: 'plan' }]);

		// The host's answer sets what is shown.
		await chat.host({ type: 'agent.changed', seq: 1, agent: agentView({ status: { state: 'ready', detail: 'Ready.' }, model: 'qwen2.5-coder:7b', models: [], mode: 'auto-edit' }) });
		await page.waitForFunction(() => document.querySelector<HTMLSelectElement>('select.picker-mode')?.value === 'auto-edit');
		assert.deepEqual(await model.locator('option').allTextContents(), ['qwen2.5-coder:7b']);
		await chat.host({ type: 'agent.changed', seq: 2, agent: agentView() });
		await model.locator('option', { hasText: 'No model available' }).waitFor({ state: 'attached' });
		assert.equal(await model.isDisabled(), true);
		await assertCleanAndClose(chat);
	});

	it('a one-message override goes with the next message only, by keyboard; none while the agent works', async () => {
		const chat = await connected(agentView({ status: { state: 'ready', detail: 'Ready.' }, mode: 'auto-edit' }));
		const { page } = chat;
		const override = page.getByRole('combobox', { name: 'Permission mode for the next message only' });
		assert.deepEqual(await override.locator('option').allTextContents(), ["Next message: this chat's mode", 'Next message: Ask', 'Next message: Auto-edit', 'Next message: Plan', 'Next message: Full access']);
		assert.equal(await override.inputValue(), '');
		const shown = page.locator('.picker-wrap-override .picker-label');
		assert.equal(await shown.isVisible(), false, 'no override: the picker is its icon');
		await override.focus();
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('ArrowDown');
		assert.equal(await override.inputValue(), 'plan', 'the keyboard moves through the modes');
		assert.match((await override.getAttribute('title')) ?? '', /^The next message runs in Plan/);
		assert.equal(await shown.innerText(), 'Plan', 'the chosen mode, by its short name');
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		await input.focus();
		await page.keyboard.type('look only');
		await page.keyboard.press('Enter');
		await page.keyboard.type('then as usual');
		await page.keyboard.press('Enter');
		assert.deepEqual(await chat.waitForPosted('submit', 2), [
			{ type: 'submit', text: 'look only', mode: 'plan' },
			{ type: 'submit', text: 'then as usual' },
		]);
		assert.equal(await override.inputValue(), '', 'back to the chat\'s mode once sent');

		await override.selectOption('auto-edit');
		await input.fill('the same mode as the chat');
		await input.press('Enter');
		assert.deepEqual((await chat.waitForPosted('submit', 3)).at(-1), { type: 'submit', text: 'the same mode as the chat' }, 'the chat\'s own mode is no override');

		await chat.host({ type: 'agent.changed', seq: 1, agent: running({ mode: 'auto-edit' }) });
		await page.waitForFunction(() => document.querySelector<HTMLSelectElement>('select.picker-override')?.disabled === true);
		await assertCleanAndClose(chat);
	});

	it('explains an unavailable agent in the empty state, from its status detail', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'unavailable', detail: 'Set aside.baseUrl to your Ollama server.' } }) }));
		assert.match(await chat.page.locator('.empty-state-status').innerText(), /Set aside\.baseUrl to your Ollama server\./);
		assert.equal(await chat.page.locator('.agent-status').isVisible(), false, 'said once, in the empty state');
		await assertCleanAndClose(chat);
	});
});
