// The integration tier: the mocha suite in test/integration/ runs inside a real VS Code
// extension host (the pinned code-server), over the *packaged* extension (the unpacked .vsix),
// with the workbench driven by headless Chromium.
//
// The suite runs in the extension host and cannot touch the webview DOM, so it asks this
// driver to act in the browser: it logs `[aside-driver] {"id":…,"action":…}` and waits for
// `<driverDir>/<id>.json`, which the driver writes after acting. The suite's closing line
// `[aside-results] {...}` carries its counts back.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { format } from 'node:util';
import { join } from 'node:path';
import { launchChromium } from './browser.mjs';
import { buildIntegrationTests, buildLmExtension } from './buildTests.mjs';
import { startCodeServer } from './codeServer.mjs';
import { startModelServer } from './modelServer.mjs';
import { ensureTools, repoRoot } from './tools.mjs';
import { unpackedVsix } from '../../scripts/vsix.mjs';

const RUN_TIMEOUT_MS = Number(process.env.ASIDE_INTEGRATION_TIMEOUT_MS ?? 10 * 60_000);
const DRIVER_PREFIX = '[aside-driver] ';
const RESULTS_PREFIX = '[aside-results] ';
const MOCHA_PREFIX = '[aside-mocha] ';

/** The chat's message box, emptied, with `typed` typed into it key by key (so its lists and hints open). */
async function typeAfresh(page, typed) {
	const frame = chatFrame(page);
	const input = frame.getByRole('textbox', { name: 'Message Aside' });
	await input.waitFor({ timeout: 60_000 });
	await input.click();
	await input.fill('');
	await input.pressSequentially(typed);
	return { frame, input };
}

/** The chat webview inside the workbench: outer webview iframe, then its active frame. */
function chatFrame(page) {
	return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

/** Browser-side actions the suite can ask for. Each returns JSON-able details. */
const actions = {
	async typeInChat(page, { text }) {
		const input = chatFrame(page).getByRole('textbox', { name: 'Message Aside' });
		await input.waitFor({ timeout: 60_000 });
		await input.click();
		await input.fill(text);
		await input.press('Enter');
		return {};
	},
	/** Types `typed` into the composer, moves through its `@` list with the arrows to `pick`, takes it with Enter, and sends with Enter. */
	async mentionInChat(page, { typed, pick }) {
		const { frame, input } = await typeAfresh(page, typed);
		await frame.locator('.mention-option .mention-label', { hasText: pick }).first().waitFor({ timeout: 30_000 });
		const options = await frame.locator('.mention-option .mention-label').allInnerTexts();
		for (let step = 0; step < options.length; step++) {
			const active = await input.getAttribute('aria-activedescendant');
			if ((await frame.locator(`#${active} .mention-label`).innerText()) === pick) {
				break;
			}
			await input.press('ArrowDown');
		}
		await input.press('Enter');
		const value = await input.inputValue();
		await input.press('Enter');
		return { options, value };
	},
	/** Types `typed`, takes the image file `pick` from the `@` list (it becomes an attachment), waits for its thumbnail, then sends with Enter. */
	async attachImageInChat(page, { typed, pick }) {
		const { frame, input } = await typeAfresh(page, typed);
		const option = frame.locator('.mention-option', { hasText: pick }).first();
		await option.waitFor({ timeout: 30_000 });
		await option.click();
		await frame.locator('.image-tray-item img').first().waitFor({ timeout: 30_000 });
		const value = await input.inputValue();
		await input.press('Enter');
		return { value };
	},
	/**
	 * Types `typed` into the emptied composer and reads its slash hint (once it shows `waitForHint`) and
	 * the values offered for the argument being typed (once `waitForOption` is one); `then`: a key pressed after.
	 */
	async slashInChat(page, { typed, waitForHint, waitForOption, then }) {
		const { frame, input } = await typeAfresh(page, typed);
		if (waitForHint !== undefined) {
			await frame.locator('.slash-hint', { hasText: waitForHint }).waitFor({ timeout: 60_000 });
		}
		if (waitForOption !== undefined) {
			await frame.locator('.argument-menu [role="option"]', { hasText: waitForOption }).first().waitFor({ timeout: 30_000 });
		}
		const hint = (await frame.locator('.slash-hint:not([hidden])').count()) > 0 ? await frame.locator('.slash-hint').innerText() : null;
		const options = await frame.locator('.argument-menu [role="option"]').allInnerTexts();
		if (then !== undefined) {
			await input.press(then);
		}
		return { hint, options, value: await input.inputValue() };
	},
	/** Types with the keyboard into whatever has the focus: no click, so focus handling is tested. */
	async typeKeys(page, { text, then }) {
		await page.keyboard.type(text);
		if (then) {
			await page.keyboard.press(then);
		}
		return {};
	},
	async readChat(page, { waitForText, waitForCount } = {}) {
		const frame = chatFrame(page);
		await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 60_000 });
		if (waitForText !== undefined) {
			await frame.locator('.user-text', { hasText: waitForText }).first().waitFor({ timeout: 30_000 });
		}
		if (waitForCount !== undefined) {
			// Frames have no waitForFunction: poll. On timeout the caller's assertion reports the count.
			const rows = frame.locator('.transcript > li');
			const deadline = Date.now() + 30_000;
			while ((await rows.count()) !== waitForCount && Date.now() < deadline) {
				await page.waitForTimeout(100);
			}
		}
		return {
			title: await frame.locator('.session-title').textContent(),
			userTexts: await frame.locator('.user-text').allInnerTexts(),
			emptyState: await frame.locator('.empty-state').count() > 0 ? await frame.locator('.empty-state').innerText() : null,
			actions: await frame.locator('.empty-state-actions button').allInnerTexts(),
			placeholder: await frame.getByRole('textbox', { name: 'Message Aside' }).getAttribute('placeholder'),
			access: (await frame.locator('.session-access:not([hidden])').count()) > 0 ? await frame.locator('.session-access').innerText() : null,
			notices: await frame.locator('.notices .notice-text').allInnerTexts(),
		};
	},
	/** The chat's rows in order, each one's kind and text (a compaction row says its tokens); waits for a row of `waitForKind` first. */
	/** The first progress bar of a running tool's live row, once it has a value: its percentage and label. */
	async readProgress(page) {
		const bar = chatFrame(page).locator('.row-tool-progress [role="progressbar"][aria-valuenow]').first();
		await bar.waitFor({ timeout: 30_000 });
		return { valueNow: Number(await bar.getAttribute('aria-valuenow')), label: await bar.getAttribute('aria-label') };
	},
	async readRows(page, { waitForKind } = {}) {
		const frame = chatFrame(page);
		await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 60_000 });
		if (waitForKind !== undefined) {
			await frame.locator(`.transcript > li[data-kind="${waitForKind}"]`).first().waitFor({ timeout: 30_000 });
		}
		const rows = await frame.locator('.transcript > li').evaluateAll((lis) => lis.map((li) => ({ kind: li.getAttribute('data-kind'), text: (li.textContent ?? '').slice(0, 300) })));
		return { rows };
	},
	/**
	 * The last user row: its text, its chips (waiting for one in `waitForState`), its hook-context part;
	 * `press`: a chip's label to focus and press Enter on.
	 */
	async readUserRow(page, { waitForState, waitForHookContext, press } = {}) {
		const row = chatFrame(page).locator('.transcript > li[data-kind="user"]').last();
		await row.waitFor({ timeout: 60_000 });
		if (waitForState !== undefined) {
			await row.locator(`.mention-chip[data-state="${waitForState}"]`).first().waitFor({ timeout: 30_000 });
		}
		if (waitForHookContext) {
			await row.locator('.hook-context-toggle').waitFor({ timeout: 30_000 });
		}
		if (press !== undefined) {
			const chip = row.locator('.mention-chip', { hasText: press }).first();
			await chip.focus();
			await chip.press('Enter');
		}
		const chips = await row.locator('.mention-chip').evaluateAll((els) => els.map((el) => ({ label: el.querySelector('.mention-chip-label')?.textContent ?? '', state: el.getAttribute('data-state'), name: el.getAttribute('aria-label'), tag: el.tagName.toLowerCase() })));
		const command = await row.locator('.user-command').allInnerTexts();
		return { text: await row.locator('.user-text').innerText(), chips, hookContext: await row.locator('.hook-context-toggle').allInnerTexts(), command: command[0] ?? null };
	},
	/** The composer's text once it is `waitForValue` (polled: frames have no waitForFunction), and the notices shown. */
	async readComposer(page, { waitForValue } = {}) {
		const frame = chatFrame(page);
		const input = frame.getByRole('textbox', { name: 'Message Aside' });
		const deadline = Date.now() + 30_000;
		while (waitForValue !== undefined && (await input.inputValue()) !== waitForValue && Date.now() < deadline) {
			await page.waitForTimeout(100);
		}
		return { value: await input.inputValue(), notices: await frame.locator('.notices .notice-text').allInnerTexts() };
	},
	/**
	 * Clicks the approval card's allow or deny button (`which`) and reads the status line the
	 * moment the card is gone: what the person sees right after deciding.
	 */
	async decideAndReadStatus(page, { which }) {
		const frame = chatFrame(page);
		const card = frame.locator('.approval');
		await card.waitFor({ timeout: 60_000 });
		await card.locator(`.approval-${which === 'deny' ? 'deny' : 'allow'}`).click();
		const deadline = Date.now() + 30_000;
		for (;;) {
			// One read of the page: whether the card is there, and the status beside it.
			const seen = await frame.locator('#app').evaluate((app) => ({ card: app.querySelector('.approval') !== null, status: app.querySelector('.agent-status:not([hidden]) .agent-status-text')?.textContent ?? '' }));
			if (!seen.card || Date.now() > deadline) {
				return seen;
			}
			await page.waitForTimeout(10);
		}
	},
	/** Opens a saved chat from the view's chat list (the Chats button), by its title. */
	async openFromChatList(page, { title }) {
		const frame = chatFrame(page);
		await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 60_000 });
		await frame.getByRole('button', { name: 'Chats' }).click();
		await frame.locator('.session-item-title', { hasText: title }).first().click({ timeout: 30_000 });
		return {};
	},
	/** Deletes a saved chat from the chat list by its title: its Delete button, then the confirmation's Delete. */
	async deleteFromChatList(page, { title }) {
		const frame = chatFrame(page);
		await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 60_000 });
		await frame.getByRole('button', { name: 'Chats' }).click();
		const row = frame.locator('.session-row', { has: frame.locator('.session-item-title', { hasText: title }) }).first();
		await row.locator('.session-delete').click({ timeout: 30_000 });
		// The row now holds only the question (its title went with the row's buttons).
		await frame.locator('.session-delete-confirmation .session-delete-confirm').click({ timeout: 30_000 });
		// The list stays open (to delete another); close it once the host listed the chats again, as the next action expects.
		await frame.locator('.session-delete-confirmation').waitFor({ state: 'detached', timeout: 30_000 });
		await frame.getByRole('button', { name: 'Chats' }).click();
		await frame.locator('.session-list').waitFor({ state: 'hidden', timeout: 30_000 });
		return {};
	},
	/**
	 * Expands the first or last reminders row of the chat and reads it: its label, where it sits
	 * among the rows, and each entry as shown (key, label, reason, body).
	 */
	async expandReminders(page, { which = 'last', screenshot } = {}) {
		const frame = chatFrame(page);
		await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 60_000 });
		const rows = frame.locator('.transcript > li[data-kind="reminders"]');
		await rows.first().waitFor({ timeout: 30_000 });
		const row = which === 'first' ? rows.first() : rows.last();
		const toggle = row.locator('button.reminders-toggle');
		const collapsed = await toggle.getAttribute('aria-expanded');
		await toggle.click();
		await row.locator('.reminder-body').first().waitFor({ timeout: 10_000 });
		const entries = [];
		for (const entry of await row.locator('.reminder-entry').all()) {
			entries.push({
				key: await entry.getAttribute('data-key'),
				label: await entry.locator('.reminder-label').textContent(),
				reason: await entry.locator('.reminder-reason').textContent(),
				body: await entry.locator('.reminder-body').textContent(),
			});
		}
		const order = await frame.locator('.transcript > li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-kind')));
		if (screenshot) {
			// The opened row at the top of the chat, so its whole body is in the picture.
			await row.evaluate((element) => {
				element.scrollIntoView({ block: 'start' });
			});
			await page.waitForTimeout(200);
			await page.screenshot({ path: screenshot.path, ...(screenshot.clip ? { clip: screenshot.clip } : {}) });
		}
		return {
			label: await row.locator('.reminders-label').textContent(),
			collapsed,
			expanded: await toggle.getAttribute('aria-expanded'),
			index: order.lastIndexOf('reminders') === -1 ? -1 : which === 'first' ? order.indexOf('reminders') : order.lastIndexOf('reminders'),
			order,
			entries,
		};
	},
	/**
	 * The child agents' rows of the chat: opens the rows of the children in `expand` (owner paths,
	 * outer first), and with `openReminders` every ◇ reminders row inside them; reads each child's
	 * header, its rows and the keys of its reminders rows.
	 */
	async readAgents(page, { expand = [], openReminders = false } = {}) {
		const frame = chatFrame(page);
		await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 60_000 });
		for (const path of expand) {
			const toggle = frame.locator(`li[data-path="${path}"] > button.agent-toggle`);
			await toggle.waitFor({ timeout: 30_000 });
			if ((await toggle.getAttribute('aria-expanded')) !== 'true') {
				await toggle.click();
			}
			// The child's rows are built on its first expand: wait for them before reading or opening any.
			const rows = `li[data-path="${path}"] > .agent-panel > .agent-rows`;
			await frame.locator(`${rows} > li`).first().waitFor({ timeout: 30_000 });
			if (openReminders) {
				for (const reminders of await frame.locator(`${rows} > li[data-kind="reminders"] button.reminders-toggle[aria-expanded="false"]`).all()) {
					await reminders.click();
				}
				if ((await frame.locator(`${rows} > li[data-kind="reminders"]`).count()) > 0) {
					await frame.locator(`${rows} > li[data-kind="reminders"] .reminder-entry`).first().waitFor({ timeout: 30_000 });
				}
			}
		}
		return {
			top: await frame.locator('.transcript > li').evaluateAll((lis) => lis.map((li) => `${li.getAttribute('data-kind')}:${li.getAttribute('data-id')}`)),
			agents: await frame.locator('li[data-kind="agent"]').evaluateAll((lis) =>
				lis.map((li) => ({
					path: li.getAttribute('data-path'),
					label: li.querySelector(':scope > button')?.textContent ?? '',
					expanded: li.querySelector(':scope > button')?.getAttribute('aria-expanded') === 'true',
					status: li.getAttribute('data-status'),
					rows: Array.from(li.querySelectorAll(':scope > .agent-panel > .agent-rows > li'), (row) => `${row.getAttribute('data-kind')}:${row.getAttribute('data-id')}`),
					reminderKeys: Array.from(li.querySelectorAll(':scope > .agent-panel > .agent-rows > li[data-kind="reminders"] .reminder-entry'), (entry) => entry.getAttribute('data-key')),
				})),
			),
		};
	},
	/** The task panel above the composer: whether it shows, its summary, and (opened with `expand`) its rows. */
	async readTasks(page, { expand = false, waitFor } = {}) {
		const frame = chatFrame(page);
		await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 60_000 });
		const panel = frame.locator('.task-panel');
		const toggle = panel.locator('button.task-toggle');
		const deadline = Date.now() + 30_000;
		while (waitFor !== undefined && !((await toggle.textContent()) ?? '').includes(waitFor) && Date.now() < deadline) {
			await page.waitForTimeout(100);
		}
		if (expand && (await panel.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') {
			await toggle.click();
		}
		return {
			shown: await panel.isVisible(),
			summary: await toggle.textContent(),
			rows: await panel.locator('.task').evaluateAll((items) => items.map((item) => ({ id: item.getAttribute('data-id'), status: item.className.replace(/^task task-/, '').replace(/ task-current$/, ''), title: item.querySelector('.task-title')?.textContent, owner: item.querySelector('.task-owner')?.textContent ?? null }))),
		};
	},
	/**
	 * Reads the context line of the chat: its text and the meter (shown only when both the use
	 * and the window are known). `waitFor`: poll until the text contains it.
	 */
	async readContext(page, { waitFor } = {}) {
		const frame = chatFrame(page);
		const line = frame.getByRole('group', { name: 'Context use' });
		await line.waitFor({ timeout: 60_000 });
		const deadline = Date.now() + 30_000;
		while (waitFor !== undefined && !(await line.innerText()).includes(waitFor) && Date.now() < deadline) {
			await page.waitForTimeout(100);
		}
		const meter = line.getByRole('meter', { name: 'Context used' });
		return { text: await line.innerText(), meterShown: await meter.isVisible(), percent: await meter.getAttribute('aria-valuenow') };
	},
	/** Expands the chat's last compaction row and reads it: the rows' kinds in order, its label, what was kept, the summary as shown. */
	async readCompaction(page) {
		const frame = chatFrame(page);
		const row = frame.locator('.transcript > li[data-kind="compaction"]').last();
		await row.waitFor({ timeout: 30_000 });
		const toggle = row.locator('button.compaction-toggle');
		if ((await toggle.getAttribute('aria-expanded')) !== 'true') {
			await toggle.click();
		}
		const summary = row.locator('.compaction-summary');
		await summary.waitFor({ timeout: 10_000 });
		const instructions = row.locator('.compaction-instructions');
		return {
			order: await frame.locator('.transcript > li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-kind'))),
			label: await toggle.innerText(),
			instructions: (await instructions.count()) > 0 ? await instructions.innerText() : null,
			summary: await summary.innerText(),
			headings: await summary.locator('.md-heading').allInnerTexts(),
		};
	},
	/** Picks `value` in a select of the chat webview (the toolbar's pickers), found by its accessible name. */
	async selectInChat(page, { name, value }) {
		const select = chatFrame(page).getByRole('combobox', { name, exact: true });
		await select.waitFor({ timeout: 60_000 });
		await select.selectOption(value);
		return { value: await select.inputValue() };
	},
	/** The approval card as the person reads it (waiting for it): its title, its target, its kind's class. */
	async readApproval(page) {
		const card = chatFrame(page).locator('.approval').first();
		await card.waitFor({ timeout: 60_000 });
		return {
			title: await card.locator('.approval-title').innerText(),
			target: (await card.locator('.approval-target').count()) > 0 ? await card.locator('.approval-target').innerText() : null,
			className: await card.getAttribute('class'),
		};
	},
	/** Clicks a button of the chat webview by its accessible name, or the start of it (waiting for it to appear). */
	async clickInChat(page, { name, prefix }) {
		const starts = prefix === undefined ? undefined : new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
		const button = starts ? chatFrame(page).getByRole('button', { name: starts }).first() : chatFrame(page).getByRole('button', { name, exact: true });
		await button.waitFor({ timeout: 60_000 });
		await button.click();
		return {};
	},
	/** Checks a radio button or checkbox (`role`) of the chat webview, or fills a text box (with `value`), found by a part of its accessible name. */
	async checkInChat(page, { role, name, value }) {
		const control = chatFrame(page).getByRole(role, { name }).first();
		await control.waitFor({ timeout: 60_000 });
		if (value === undefined) {
			await control.check();
		} else {
			await control.fill(value);
		}
		return {};
	},
	/**
	 * Clicks an action in an editor's title bar (the workbench's, not the webview's) by the start of
	 * its accessible name, waiting for it to appear: what the person clicks there.
	 */
	async clickEditorAction(page, { label }) {
		const action = page.locator(`.editor-group-container .editor-actions .action-label[aria-label^="${label.replace(/["\\]/g, '\\$&')}"]`).first();
		try {
			await action.waitFor({ timeout: 30_000 });
		} catch (error) {
			const shown = await page.locator('.editor-group-container .action-label').evaluateAll((labels) => labels.map((label) => label.getAttribute('aria-label')));
			throw new Error(`${error instanceof Error ? error.message : String(error)}; the editor title actions shown: ${JSON.stringify(shown)}`, { cause: error });
		}
		await action.click();
		return { label: await action.getAttribute('aria-label') };
	},
	/**
	 * Answers VS Code's quick input (the workbench's, not the webview's): waits for the one whose
	 * title contains `title`, types `value`, then clicks the row showing `pick`, or presses Enter.
	 */
	async answerQuickInput(page, { title, value = '', pick }) {
		const widget = page.locator('.quick-input-widget');
		const titled = widget.locator('.quick-input-title', { hasText: title });
		await titled.waitFor({ timeout: 60_000 });
		// The next step may have a longer title with this one in it: wait for this exact one to go.
		const shown = (await titled.textContent()) ?? '';
		const exact = new RegExp('^' + shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$');
		const input = widget.locator('.quick-input-box input');
		await input.fill(value);
		if (pick) {
			const row = widget.locator('.quick-input-list .monaco-list-row', { hasText: pick }).first();
			await row.waitFor({ timeout: 30_000 });
			await row.click();
		} else {
			await input.press('Enter');
		}
		await widget.locator('.quick-input-title', { hasText: exact }).waitFor({ state: 'hidden', timeout: 30_000 });
		return {};
	},
	/**
	 * The rows VS Code's quick input shows (the Command Palette the suite opened with
	 * `workbench.action.quickOpen`, '>…'), each row's accessible label, once one shows any of
	 * `waitForTexts`; then closes it with Escape.
	 */
	async readQuickInput(page, { waitForTexts }) {
		const widget = page.locator('.quick-input-widget');
		const rows = widget.locator('.quick-input-list .monaco-list-row');
		const wanted = new RegExp(waitForTexts.map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));
		await rows.filter({ hasText: wanted }).first().waitFor({ timeout: 60_000 });
		const labels = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label') ?? element.textContent ?? ''));
		await page.keyboard.press('Escape');
		await widget.waitFor({ state: 'hidden', timeout: 30_000 });
		return { rows: labels };
	},
	/**
	 * The Settings editor the suite opened (`workbench.action.openSettings`): the table of contents'
	 * rows, and the setting `key`'s description and value table as shown; optionally a screenshot,
	 * then a click on the link `link` in its description.
	 */
	async readSetting(page, { key, link, screenshot }) {
		const item = page.locator(`.setting-item-contents[data-key="${key}"]`);
		await item.waitFor({ timeout: 60_000 });
		const description = await item.locator('.setting-item-description').innerText();
		const table = await item.locator('.setting-list-widget, .setting-list-object-widget').allInnerTexts();
		const toc = await page.locator('.settings-toc-container .monaco-list-row').allInnerTexts();
		if (screenshot) {
			await page.screenshot(screenshot);
		}
		if (link) {
			await item.locator('.setting-item-description a', { hasText: link }).first().click();
		}
		return { description, table, toc };
	},
	/** What the harness's own model servers (which outlive a window, see originServers) received. */
	async originRequests(_page, { which }) {
		const server = originServers?.[which];
		if (!server) {
			throw new Error(`no origin server ${JSON.stringify(which)}`);
		}
		return {
			requests: server.requests.map((request) => ({
				method: request.method,
				path: request.path,
				authorization: request.headers.authorization ?? null,
				apiKey: request.headers['x-api-key'] ?? null,
				// The tools a chat request offered, by name (OpenAI-compatible and Anthropic shapes).
				tools: Array.isArray(request.body?.tools) ? request.body.tools.map((tool) => tool.function?.name ?? tool.name) : null,
			})),
		};
	},
	/** What the chat shows as text (rows, header, toolbar choices) and whether the workbench's panel (Output, Problems…) is open. */
	async readWorkbench(page) {
		const frame = chatFrame(page);
		await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 60_000 });
		const text = await frame.locator('#app').evaluate((app) => [app.innerText, ...Array.from(app.querySelectorAll('select')).map((select) => select.selectedOptions[0]?.textContent ?? '')].join('\n'));
		const panel = await page.locator('.part.panel').isVisible().catch(() => false);
		return { text, panel };
	},
	async screenshot(page, { path, clip }) {
		await page.screenshot({ path, ...(clip ? { clip } : {}) });
		return { path };
	},
	/**
	 * The plan card: waits for it, reads its plan text and modes, optionally takes a screenshot,
	 * picks `mode`, types `note` and presses the button for `decision` (Approve, Revise, Reject).
	 */
	async decidePlan(page, { decision, mode, note, screenshot }) {
		const card = chatFrame(page).getByRole('region', { name: 'Proposed plan' });
		await card.waitFor({ timeout: 60_000 });
		const plan = await card.locator('.plan-text').innerText();
		const modes = await card.getByRole('combobox', { name: 'Implement in' }).locator('option').evaluateAll((options) => options.map((option) => option.value));
		if (screenshot) {
			await page.screenshot(screenshot);
		}
		if (mode) {
			await card.getByRole('combobox', { name: 'Implement in' }).selectOption(mode);
		}
		if (note) {
			await card.getByRole('textbox', { name: 'Note' }).fill(note);
		}
		const label = { approve: 'Approve', revise: 'Revise', reject: 'Reject' }[decision];
		await card.getByRole('button', { name: label, exact: true }).click();
		return { plan, modes };
	},
};

/**
 * Model servers the harness runs for the whole tier, outside any extension host: `a` and `b`
 * across the window reload (origins.test.ts leaves the settings pointing at them, and
 * origins.reload.test.ts reads what a fresh extension host sent them at activation); `user`,
 * `workspace` and `local` for the untrusted window (what Restricted Mode must not contact).
 */
let originServers;

function parseLine(line, prefix) {
	const at = line.indexOf(prefix);
	if (at === -1) {
		return undefined;
	}
	try {
		return JSON.parse(line.slice(at + prefix.length));
	} catch {
		return undefined;
	}
}

/**
 * `ASIDE_INTEGRATION_FILES=agent,session` runs only the test files whose names contain one of the
 * fragments (a development aid; `npm test` runs them all). The reload phase runs only when one of
 * its files matches.
 */
function selectedFiles() {
	return (process.env.ASIDE_INTEGRATION_FILES ?? '')
		.split(',')
		.map((fragment) => fragment.trim())
		.filter((fragment) => fragment !== '');
}

export async function runIntegration() {
	const started = Date.now();
	const onlyFiles = selectedFiles();
	const reloadFiles = readdirSync(join(repoRoot, 'test', 'integration')).filter((name) => name.endsWith('.reload.test.ts'));
	const testFiles = readdirSync(join(repoRoot, 'test', 'integration'));
	const selected = (suffix) => testFiles.some(
		(name) => name.endsWith(suffix) && (onlyFiles.length === 0 || onlyFiles.some((fragment) => name.includes(fragment))),
	);
	const phases = [
		'main',
		...(onlyFiles.length === 0 || reloadFiles.some((name) => onlyFiles.some((fragment) => name.includes(fragment))) ? ['reload'] : []),
		// A second, short code-server with workspace trust on: the workspace opens in Restricted Mode.
		...(selected('.untrusted.test.ts') ? ['untrusted'] : []),
	];
	if (onlyFiles.length > 0) {
		console.log(`only the integration files matching ${onlyFiles.join(', ')} (phases: ${phases.join(', ')})`);
	}
	ensureTools();
	const work = mkdtempSync(join(tmpdir(), 'aside-integration-'));
	const failures = [];
	let server;
	let untrusted;
	let browser;
	try {
		// The extension under test is exactly what the .vsix holds.
		const extensionPath = unpackedVsix(join(work, 'vsix'));
		const testsIndex = await buildIntegrationTests();
		// A chat model for vscode.lm, as Copilot would provide one (test/lmExtension/), beside Aside in
		// the development folder: the workbench keeps one extensionDevelopmentPath (its payload is a
		// map), and a folder without a package.json is scanned for the extensions in it.
		await buildLmExtension(join(work, 'vsix', 'scripted-models'));
		const workspace = join(work, 'workspace');
		cpSync(join(repoRoot, 'test', 'fixtures', 'workspace'), workspace, { recursive: true });
		const driverDir = join(work, 'driver');
		mkdirSync(driverDir);
		const artifacts = join(repoRoot, 'out', 'integration-artifacts');
		rmSync(artifacts, { recursive: true, force: true });
		mkdirSync(artifacts, { recursive: true });

		originServers = {};
		for (const name of ['a', 'b', 'user', 'workspace', 'local']) {
			originServers[name] = await startModelServer({ models: [`model-${name}`] });
		}
		server = await startCodeServer({ stateDir: join(work, 'state'), extraArgs: ['--vscode-option', 'enable-smoke-test-driver'] });
		console.log(`code-server ${server.url} up after ${((Date.now() - started) / 1000).toFixed(1)} s`);
		const environment = {
			ASIDE_TEST_HOOKS: '1',
			ASIDE_DRIVER_DIR: driverDir,
			ASIDE_ARTIFACTS_DIR: artifacts,
			ASIDE_EXPECTED_EXTENSION_PATH: extensionPath,
			ASIDE_ORIGIN_SERVERS: JSON.stringify(Object.fromEntries(Object.entries(originServers).map(([name, origin]) => [name, origin.url]))),
			...(onlyFiles.length > 0 ? { ASIDE_INTEGRATION_FILES: onlyFiles.join(',') } : {}),
		};
		const urlFor = (phase, target = { server, folder: workspace, environment: {} }) => {
			const remote = (path) => `vscode-remote://127.0.0.1:${target.server.port}${path}`;
			const payload = [
				['extensionDevelopmentPath', remote(join(work, 'vsix'))],
				['extensionTestsPath', remote(testsIndex)],
				['extensionEnvironment', JSON.stringify({ ...environment, ...target.environment, ASIDE_PHASE: phase })],
				['skipWelcome', 'true'],
			];
			return `${target.server.url}/?folder=${encodeURIComponent(target.folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
		};
		/** The untrusted window: user settings point at `user`, the workspace's at `workspace`, the Ollama probe at `local`. */
		const untrustedTarget = async () => {
			const folder = join(work, 'workspace-untrusted');
			cpSync(join(repoRoot, 'test', 'fixtures', 'workspace'), folder, { recursive: true });
			mkdirSync(join(folder, '.vscode'));
			writeFileSync(join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'aside.baseUrl': `${originServers.workspace.url}/v1`, 'aside.model': 'model-workspace' }, null, '\t'));
			untrusted = await startCodeServer({
				stateDir: join(work, 'state-untrusted'),
				trust: true,
				settings: { 'aside.provider': 'openai-compatible', 'aside.baseUrl': `${originServers.user.url}/v1`, 'aside.model': 'model-user' },
				extraArgs: ['--vscode-option', 'enable-smoke-test-driver'],
			});
			return { server: untrusted, folder, environment: { ASIDE_TEST_LOCAL_PORTS: `ollama=${originServers.local.port},lmstudio=${originServers.local.port}` } };
		};

		browser = await launchChromium();
		const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
		let results;
		let resolveExit = () => undefined;
		const pending = [];
		const hostLog = [];

		await page.exposeFunction('codeAutomationLog', (level, args) => {
			// The workbench passes console arguments through unformatted (`'%s (%dms)', title, 12`).
			const line = Array.isArray(args) ? format(...args) : String(args);
			hostLog.push(`[${level}] ${line}`);
			const request = parseLine(line, DRIVER_PREFIX);
			if (request) {
				pending.push(respond(page, driverDir, request));
				return;
			}
			const parsed = parseLine(line, RESULTS_PREFIX);
			if (parsed) {
				results = parsed;
				return;
			}
			const at = line.indexOf(MOCHA_PREFIX);
			if (at !== -1) {
				console.log(`  ${line.slice(at + MOCHA_PREFIX.length)}`);
			}
		});
		await page.exposeFunction('codeAutomationExit', (code) => {
			resolveExit(code);
		});
		page.on('pageerror', (error) => hostLog.push(`[pageerror] ${error.message}`));

		// Phase 1 is the suite; phase 'reload' opens the same workspace again in a fresh window (a
		// new extension host over the same storage), as a window reload does.
		const totals = { passed: 0, failed: 0, skipped: 0, failures: [] };
		for (const phase of phases) {
			results = undefined;
			const exited = new Promise((resolve) => {
				resolveExit = resolve;
			});
			if (phase === 'reload') {
				console.log('  (window reloaded)');
			} else if (phase === 'untrusted') {
				console.log('  (an untrusted workspace, in a second code-server with workspace trust on)');
			}
			await page.goto(phase === 'main' ? urlFor(phase) : 'about:blank');
			if (phase === 'reload') {
				await page.goto(urlFor(phase));
			} else if (phase === 'untrusted') {
				await page.goto(urlFor(phase, await untrustedTarget()));
			}
			const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), RUN_TIMEOUT_MS));
			const outcome = await Promise.race([exited, timeout]);
			await Promise.allSettled(pending);
			writeFileSync(join(artifacts, `host-${phase}.log`), hostLog.join('\n'));
			if (outcome === 'timeout') {
				await page.screenshot({ path: join(artifacts, `timeout-${phase}.png`) }).catch(() => undefined);
				failures.push(`integration (${phase}): no exit from the test run within ${RUN_TIMEOUT_MS / 1000} s (see out/integration-artifacts/)`);
			}
			if (!results) {
				failures.push(`integration (${phase}): the suite reported no results (exit ${String(outcome)}; see out/integration-artifacts/host-${phase}.log)`);
				break;
			}
			if (outcome !== 'timeout' && outcome !== 0 && results.failed === 0) {
				failures.push(`integration (${phase}): the test run exited with code ${outcome}`);
			}
			totals.passed += results.passed;
			totals.failed += results.failed;
			totals.skipped += results.skipped ?? 0;
			totals.failures.push(...results.failures);
		}
		results = totals;
		return {
			passed: results.passed,
			failed: results.failed + failures.length,
			skipped: results.skipped ?? 0,
			failures: [...results.failures.map((title) => `integration › ${title}`), ...failures],
		};
	} finally {
		await browser?.close().catch(() => undefined);
		await server?.stop();
		await untrusted?.stop();
		await Promise.all(Object.values(originServers ?? {}).map((origin) => origin.close()));
		originServers = undefined;
		if (process.env.ASIDE_KEEP_WORK !== '1') {
			rmSync(work, { recursive: true, force: true });
		} else {
			console.log(`kept ${work}`);
		}
		console.log(`integration tier finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	}
}

async function respond(page, driverDir, request) {
	const { id, action, args } = request;
	let response;
	try {
		const handler = actions[action];
		if (!handler) {
			throw new Error(`unknown driver action ${JSON.stringify(action)}`);
		}
		response = { ok: true, details: await handler(page, args ?? {}) };
	} catch (error) {
		response = { ok: false, error: error instanceof Error ? error.message : String(error) };
	}
	const file = join(driverDir, `${id}.json`);
	writeFileSync(`${file}.tmp`, JSON.stringify(response));
	// Rename so the suite never reads a half-written file.
	renameSync(`${file}.tmp`, file);
}
