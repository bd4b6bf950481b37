// The MCP server list in the real bundle in headless Chromium: nothing before servers are
// configured; the header's button opens the list by keyboard; each state, the tool count, the spec
// cost and a failed server's stderr; Restart, Show output and Disable / Enable post their messages
// (a workspace server's Disable explains instead); Sign in, Sign out, and Approve… for a declined
// server; a live update keeps the focus; Restricted Mode; hostile names and stderr stay text; it
// fits the 300 px sidebar.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { McpServersView, McpServerView } from '../../src/protocol/mcp';
import { DANGEROUS_ELEMENTS, HOSTILE_CORPUS } from './corpus';
import { assertCleanAndClose, type ChatPage, openChat, postedOf, useHarness, viewState } from './page';

const server = (name: string, state: McpServerView['state'], extra: Partial<McpServerView> = {}): McpServerView => ({
	name,
	state,
	words: state,
	origin: 'user settings',
	user: true,
	toolCount: 0,
	specTokens: 0,
	...extra,
});

const SERVERS: McpServersView = {
	trusted: true,
	servers: [
		server('everything', 'connected', { toolCount: 12, specTokens: 3400 }),
		server('docs', 'failed', { words: 'failed: the server exited with code 3; its stderr ends: Error: no token', stderr: 'Starting…\nError: no token' }),
		server('shared', 'connected', { origin: '.mcp.json', user: false, toolCount: 1, specTokens: 90 }),
		server('later', 'disabled', { words: 'disabled in its configuration' }),
		server('flaky', 'reconnecting', { words: 'reconnecting (attempt 2 of 5) after the connection ended' }),
		server('boot', 'starting'),
		server('team', 'declined', { origin: '.vscode/mcp.json', user: false, words: 'not approved: a workspace server starts only once you approve it' }),
	],
	problems: [],
};

/** Posts the list as the host does, and waits until the header's button says it. */
async function update(chat: ChatPage, seq: number, view: McpServersView, label: string | undefined): Promise<void> {
	await chat.host({ type: 'mcp.servers', seq, view });
	await chat.page.waitForFunction(
		(expected) => {
			const toggle = document.querySelector<HTMLElement>('.mcp-servers-toggle');
			return expected === undefined ? toggle?.hidden === true : toggle?.getAttribute('aria-label') === expected;
		},
		label,
	);
}

async function connect(chat: ChatPage, view: McpServersView, label: string): Promise<void> {
	await chat.page.setViewportSize({ width: 300, height: 700 });
	await chat.connect(viewState());
	await update(chat, 1, view, label);
}

describe('the MCP server list', () => {
	const harness = useHarness();

	it('shows nothing before servers are configured', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState());
		assert.equal(await chat.page.locator('.mcp-servers-toggle').isVisible(), false, 'none before the host says');
		await update(chat, 1, { trusted: true, servers: [], problems: [] }, undefined);
		assert.equal(await chat.page.locator('.mcp-servers-toggle').isVisible(), false, 'none while none is configured');
		// One configured, then removed from the configuration again.
		await update(chat, 2, { trusted: true, servers: [server('everything', 'stopped')], problems: [] }, 'MCP servers: 0 of 1 connected');
		assert.equal(await chat.page.locator('.mcp-servers-toggle').isVisible(), true);
		await chat.page.locator('.mcp-servers-toggle').click();
		await update(chat, 3, { trusted: true, servers: [], problems: [] }, undefined);
		assert.equal(await chat.page.locator('.mcp-servers-toggle').isVisible(), false);
		assert.equal(await chat.page.locator('.mcp-servers').isVisible(), false, 'the open list closes with it');
		await assertCleanAndClose(chat);
	});

	it('opens from the header by keyboard and lists every state, tool count, cost and stderr; its buttons post their messages', async () => {
		const chat = await openChat(harness);
		await connect(chat, SERVERS, 'MCP servers: 2 of 7 connected, 1 failed');
		const { page } = chat;
		const toggle = page.getByRole('button', { name: 'MCP servers: 2 of 7 connected, 1 failed' });
		assert.equal(await toggle.evaluate((node) => node.closest('header') !== null), true, 'the button is in the header');
		assert.equal(await page.locator('.mcp-servers-mark').isVisible(), true, 'a failed server marks the button');
		await toggle.focus();
		await page.keyboard.press('Enter');
		assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
		const list = page.getByRole('region', { name: 'MCP servers' });
		await list.waitFor();
		const rows = page.locator('.mcp-server');
		assert.deepEqual(await rows.locator('.mcp-server-state').allInnerTexts(), ['Connected', 'Failed', 'Connected', 'Disabled', 'Reconnecting', 'Starting', 'Not approved']);
		assert.equal(await rows.nth(0).locator('.mcp-server-cost').innerText(), '12 tools · ~3.4k tokens a request');
		assert.equal(await rows.nth(1).locator('.mcp-server-words').innerText(), 'failed: the server exited with code 3; its stderr ends: Error: no token');
		assert.equal(await rows.nth(1).locator('pre.mcp-server-stderr').innerText(), 'Starting…\nError: no token');
		assert.equal(await rows.nth(4).locator('.mcp-server-words').innerText(), 'reconnecting (attempt 2 of 5) after the connection ended');
		assert.match(await rows.nth(6).locator('.mcp-server-words').innerText(), /^not approved/);
		assert.equal(await rows.nth(3).getByRole('button', { name: 'Restart later' }).count(), 0, 'a disabled server is not restarted');

		// Keyboard: Tab from the button reaches the list's buttons; each posts its message.
		await page.getByRole('button', { name: 'Restart docs' }).focus();
		await page.keyboard.press('Enter');
		await page.keyboard.press('Tab');
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Show output of docs');
		await page.keyboard.press('Space');
		await page.keyboard.press('Tab');
		await page.keyboard.press('Enter');
		await page.getByRole('button', { name: 'Enable later' }).click();
		assert.deepEqual(await postedOf(chat, 'mcp.restart'), [{ type: 'mcp.restart', server: 'docs' }]);
		assert.deepEqual(await postedOf(chat, 'mcp.showOutput'), [{ type: 'mcp.showOutput', server: 'docs' }]);
		assert.deepEqual(await postedOf(chat, 'mcp.setDisabled'), [{ type: 'mcp.setDisabled', server: 'docs', disabled: true }, { type: 'mcp.setDisabled', server: 'later', disabled: false }]);

		// A workspace server's entry is its file's: the button says so and posts nothing.
		const shared = page.getByRole('button', { name: /^Disable shared: configured in \.mcp\.json, so only that file can disable it/ });
		assert.equal(await shared.getAttribute('aria-disabled'), 'true');
		await shared.focus();
		await page.keyboard.press('Enter');
		assert.equal((await postedOf(chat, 'mcp.setDisabled')).length, 2);

		// A live update (docs restarted and connected) replaces the list; the focus stays on the same button.
		await page.getByRole('button', { name: 'Show output of docs' }).focus();
		const next = { ...SERVERS, servers: SERVERS.servers.map((entry) => (entry.name === 'docs' ? server('docs', 'connected', { toolCount: 3, specTokens: 500 }) : entry)) };
		await update(chat, 2, next, 'MCP servers: 3 of 7 connected');
		assert.equal(await rows.nth(1).locator('.mcp-server-state').innerText(), 'Connected');
		assert.equal(await rows.nth(1).locator('.mcp-server-stderr').count(), 0);
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Show output of docs');
		assert.equal(await page.locator('.mcp-servers-mark').isVisible(), false, 'nothing failed now');

		await page.keyboard.press('Escape');
		assert.equal(await list.isVisible(), false, 'Escape closes it');
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('mcp-servers-toggle')), true, 'and gives the focus back');
		await assertCleanAndClose(chat);
	});

	it('says the tools are deferred, and that MCP does not run in Restricted Mode (no Restart there)', async () => {
		const chat = await openChat(harness);
		await connect(chat, { ...SERVERS, deferred: 'the MCP tools\' schemas take about 20000 tokens, more than aside.mcp.deferAt allows: 12800' }, 'MCP servers: 2 of 7 connected, 1 failed');
		const { page } = chat;
		await page.locator('.mcp-servers-toggle').click();
		assert.match(await page.locator('.mcp-servers-note').innerText(), /^The tools are deferred: .*20000 tokens/);
		assert.equal(await page.locator('.mcp-server').nth(0).locator('.mcp-server-cost').innerText(), '12 tools · ~3.4k tokens, deferred (not sent with each request)');

		const restricted = { trusted: false, servers: [server('everything', 'stopped'), server('team', 'stopped', { origin: '.mcp.json', user: false })], problems: [] };
		await update(chat, 2, restricted, 'MCP servers: not running in Restricted Mode');
		assert.match(await page.locator('.mcp-servers-note').innerText(), /^MCP does not run here: in Restricted Mode no MCP server starts/);
		assert.equal(await page.getByRole('button', { name: /^Restart/ }).count(), 0);
		assert.equal(await page.getByRole('button', { name: 'Show output of everything' }).count(), 1);
		await assertCleanAndClose(chat);
	});

	it('offers Sign in where a server asks for it and Sign out where tokens are kept; a declined server asks for approval again', async () => {
		const chat = await openChat(harness);
		const view: McpServersView = {
			trusted: true,
			servers: [
				server('remote', 'needs-sign-in', { words: 'needs sign-in: the server asks you to sign in before it answers' }),
				server('linear', 'connected', { toolCount: 4, specTokens: 800, signedIn: true }),
				server('team', 'declined', { origin: '.vscode/mcp.json', user: false, words: 'not approved: a workspace server starts only once you approve it' }),
			],
			problems: [],
		};
		await connect(chat, view, 'MCP servers: 1 of 3 connected, 1 needs sign-in');
		const { page } = chat;
		assert.equal(await page.locator('.mcp-servers-mark').isVisible(), true, 'a server that needs sign-in marks the button');
		await page.locator('.mcp-servers-toggle').click();
		const rows = page.locator('.mcp-server');
		assert.equal(await rows.nth(0).locator('.mcp-server-state').innerText(), 'Needs sign-in');
		assert.equal(await rows.nth(0).locator('.mcp-server-words').innerText(), 'needs sign-in: the server asks you to sign in before it answers');
		assert.deepEqual(await rows.nth(0).locator('button').allInnerTexts(), ['Sign in', 'Restart', 'Output', 'Disable']);
		assert.equal(await rows.nth(0).getByRole('button', { name: 'Sign out of remote' }).count(), 0, 'nothing to sign out of');
		assert.equal(await rows.nth(1).getByRole('button', { name: 'Sign in to linear' }).count(), 0, 'a connected server has no Sign in');
		assert.deepEqual(await rows.nth(2).locator('button').allInnerTexts(), ['Approve…', 'Output', 'Disable']);
		assert.equal(await rows.nth(2).getByRole('button', { name: /^Restart/ }).count(), 0, 'a declined server is approved, not restarted');
		assert.deepEqual(await postedOf(chat, 'mcp.signIn'), [], 'the browser opens only on the click');

		await page.getByRole('button', { name: 'Sign in to remote' }).click();
		await page.getByRole('button', { name: 'Sign out of linear' }).focus();
		await page.keyboard.press('Enter');
		await page.getByRole('button', { name: 'Approve team…' }).click();
		assert.deepEqual(await postedOf(chat, 'mcp.signIn'), [{ type: 'mcp.signIn', server: 'remote' }]);
		assert.deepEqual(await postedOf(chat, 'mcp.signOut'), [{ type: 'mcp.signOut', server: 'linear' }]);
		assert.deepEqual(await postedOf(chat, 'mcp.restart'), [{ type: 'mcp.restart', server: 'team' }]);

		// Restricted Mode: no server starts, so nothing to sign in to; Sign out still forgets.
		await update(chat, 2, { ...view, trusted: false }, 'MCP servers: not running in Restricted Mode');
		assert.equal(await page.getByRole('button', { name: /^Sign in to/ }).count(), 0);
		assert.equal(await page.getByRole('button', { name: /^Approve/ }).count(), 0);
		assert.equal(await page.getByRole('button', { name: 'Sign out of linear' }).count(), 1);
		await assertCleanAndClose(chat);
	});

	it('keeps hostile names, messages, problems and stderr as text, and fits 300 px', async () => {
		const chat = await openChat(harness);
		const hostile = HOSTILE_CORPUS.slice(0, 12);
		const long = `server-${'x'.repeat(180)}`;
		await connect(chat, {
			trusted: true,
			servers: [
				...hostile.map((text, index) => server(`${index} ${text}`.slice(0, 200), 'failed', { words: `failed: ${text}`, stderr: `${text}\n${'y'.repeat(300)}` })),
				server(long, 'connected', { toolCount: 1234, specTokens: 987_654 }),
			],
			problems: hostile.slice(0, 3).map((text) => `MCP server "${text}" (.mcp.json): no command nor url`),
		}, 'MCP servers: 1 of 13 connected, 12 failed');
		const { page } = chat;
		await page.locator('.mcp-servers-toggle').click();
		const panel = page.locator('.mcp-servers');
		assert.equal(await panel.locator(DANGEROUS_ELEMENTS).count(), 0);
		assert.equal(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), undefined, 'nothing in the list ran');
		assert.equal(await page.locator('.mcp-server-name').first().innerText(), `0 ${hostile[0] ?? ''}`);
		assert.equal(await page.locator('.mcp-servers-problems li').count(), 3);

		const fit = await page.evaluate(() => {
			const wide = [...document.querySelectorAll<HTMLElement>('.mcp-servers, .mcp-server, .mcp-server-head, .mcp-server-actions, header')]
				.filter((node) => node.scrollWidth > node.clientWidth + 1)
				.map((node) => `${node.className}: ${node.scrollWidth} > ${node.clientWidth}`);
			const outside = [...document.querySelectorAll<HTMLElement>('.mcp-servers button, .header button')]
				.filter((node) => node.getBoundingClientRect().right > window.innerWidth + 0.5)
				.map((node) => node.getAttribute('aria-label'));
			return { wide, outside, page: document.documentElement.scrollWidth };
		});
		assert.deepEqual(fit.wide, [], 'nothing scrolls sideways');
		assert.deepEqual(fit.outside, [], 'every button is inside the view');
		assert.ok(fit.page <= 300, `the page is ${fit.page} px wide`);
		const name = page.locator('.mcp-server-name').last();
		assert.ok(await name.evaluate((node) => node.scrollWidth > node.clientWidth), 'a long name is cut with an ellipsis');
		assert.equal(await name.getAttribute('title'), long, 'and whole in its tooltip');
		await assertCleanAndClose(chat);
	});
});
