// The README's pictures of Restore…, Fork from here, the goal line, MCP and background processes,
// taken from the real bundle in headless Chromium under VS Code's dark theme colours. Each test
// checks that what the picture shows is there; with ASIDE_PICTURES_DIR set it also writes the
// picture into that folder (`ASIDE_PICTURES_DIR=docs/images node test/run.mjs webview` refreshes
// the README's).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { GoalView } from '../../src/protocol/goal';
import type { McpServersView } from '../../src/protocol/mcp';
import type { ProcessesView } from '../../src/protocol/processes';
import type { RestorePreviewView, TranscriptItem } from '../../src/protocol/messages';
import { assistant, entry, reminders, tool, user } from './items';
import { agentView, assertCleanAndClose, openChat, useHarness, viewState } from './page';
import { applyTheme } from './themes';

const AT = Date.UTC(2026, 11, 2, 9, 30);

async function picture(page: Page, name: string): Promise<void> {
	const dir = process.env.ASIDE_PICTURES_DIR;
	if (dir) {
		await page.screenshot({ path: join(dir, name) });
	}
}

const chat: TranscriptItem[] = [
	{ ...user('u1', 'Rename greet to welcome everywhere'), at: AT },
	{ ...assistant('a1', 'Renamed `greet` to `welcome` in src/greeting.ts and its two callers.'), at: AT + 20_000 },
	{ ...user('u2', 'Now add a test for welcome'), at: AT + 60_000 },
	{ ...assistant('a2', 'Added test/welcome.test.ts.'), at: AT + 80_000 },
];

describe('the README pictures', () => {
	const harness = useHarness();

	it('Restore…: the preview lists every file with its diff, and flags the one changed since', async () => {
		const page = await openChat(harness);
		await page.page.setViewportSize({ width: 560, height: 1000 });
		await page.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Rename greet', items: chat } }));
		await applyTheme(page.page, 'dark');
		const preview: RestorePreviewView = {
			id: 'p1',
			to: 'u1',
			scope: 'both',
			message: 'Rename greet to welcome everywhere',
			turns: 2,
			tracked: true,
			files: [
				{ shown: 'src/greeting.ts', action: 'change', diff: '--- src/greeting.ts\n+++ src/greeting.ts\n@@ -1,3 +1,3 @@\n-export function welcome(name: string): string {\n+export function greet(name: string): string {\n \treturn `Hello, ${name}!`;\n }\n' },
				{ shown: 'test/welcome.test.ts', action: 'delete', diff: '--- test/welcome.test.ts\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-import { welcome } from \'../src/greeting\';\n-test(\'welcome\', () => expect(welcome(\'Ada\')).toBe(\'Hello, Ada!\'));\n' },
				{ shown: 'src/app.ts', action: 'person-changed', overwrite: 'change', diff: '--- src/app.ts\n+++ src/app.ts\n@@ -2 +2 @@\n-console.log(welcome(user) + \' (edited by you)\');\n+console.log(greet(user));\n' },
			],
		};
		await page.host({ type: 'restore.preview', seq: 1, preview });
		const card = page.page.locator('.restore-card');
		await card.waitFor();
		assert.equal(await card.locator('.restore-file').count(), 3);
		assert.equal(await card.locator('.restore-person-changed .codicon-warning').count(), 1);
		// The card scrolled to Restore, which has the focus; the picture starts at its title.
		await card.evaluate((node) => {
			node.scrollTop = 0;
		});
		await picture(page.page, 'restore-preview.png');
		await assertCleanAndClose(page);
	});

	it('a fork: its first row says where it came from, and the chat list shows it with its parent', async () => {
		const page = await openChat(harness);
		await page.page.setViewportSize({ width: 560, height: 480 });
		const fork: TranscriptItem = { kind: 'fork', id: 'f1', at: AT + 90_000, source: { id: 's0', title: 'Rename greet' }, worktree: { folder: '/home/ada/app-worktrees/try-hello', branch: 'try-hello', base: '3f9c2e1a7b5d4c6e8f0a1b2c3d4e5f6a7b8c9d0e' } };
		await page.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-2', title: 'Rename greet (fork)', items: [fork, ...chat.slice(0, 2)] } }));
		await applyTheme(page.page, 'dark');
		await page.page.getByRole('button', { name: 'Chats' }).click();
		await page.waitForPosted('sessions.list');
		await page.host({
			type: 'sessions.listed',
			seq: 1,
			sessions: [
				{ id: 'session-2', title: 'Rename greet (fork)', at: AT + 90_000, current: true, forkOf: { id: 's0', title: 'Rename greet' } },
				{ id: 's0', title: 'Rename greet', at: AT + 80_000, current: false },
			],
		});
		await page.page.locator('.session-item-parent').waitFor();
		assert.equal((await page.page.locator('.row-fork .fork-branch').innerText()).trim(), 'try-hello');
		await picture(page.page, 'fork.png');
		await assertCleanAndClose(page);
	});

	it('the goal line: the objective and its spend against the budget', async () => {
		const page = await openChat(harness);
		await page.page.setViewportSize({ width: 560, height: 360 });
		await page.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-1', title: 'Rename greet', items: chat } }));
		await applyTheme(page.page, 'dark');
		const goal: GoalView = { active: { objective: 'Rename greet to welcome, with tests', budget: 200_000, spent: 164_000, exhausted: false } };
		await page.host({ type: 'goal.changed', seq: 1, goal });
		assert.equal(await page.page.locator('.goal-spend').innerText(), '164k / 200k (82%)');
		assert.equal(await page.page.locator('.goal-spend').getAttribute('title'), 'Spent: 164k / 200k tokens (82%)');
		await picture(page.page, 'goal.png');
		await assertCleanAndClose(page);
	});

	it('MCP: the server list opened from the header, and a ◇ row that names the server whose resource changed', async () => {
		const page = await openChat(harness);
		await page.page.setViewportSize({ width: 560, height: 760 });
		const uri = 'demo://resource/static/document/features.md';
		const items: TranscriptItem[] = [
			{ ...user('u1', 'Keep the features document in mind while you update the changelog.'), at: AT },
			tool('t1', { callId: 'c1', name: 'McpReadResource', input: JSON.stringify({ server: 'everything', uri }, null, 2), result: `Resource ${uri} (text/markdown):\n# Features`, durationMs: 35 }),
			{
				...reminders('r1', [
					entry(
						'mcp.resources-updated',
						'MCP resources updated: everything',
						'Resources you read from MCP servers changed since you read them (their new content is not included: read them again with McpReadResource before relying on what they said):\n' +
							`- everything: ${uri} — updated 2 times, last at 09:31:12 UTC`,
						'content changed since last delivered',
					),
				], 'mid-turn'),
				at: AT + 40_000,
			},
			{ ...assistant('a1', 'The features document changed while I worked: reading it again before I finish the changelog.'), at: AT + 45_000 },
		];
		const agent = agentView({ status: { state: 'ready', detail: 'Ready.' }, models: [{ id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5' }], model: 'claude-sonnet-4-5' });
		await page.connect(viewState({ agent, session: { id: 'session-3', title: 'Changelog', items } }));
		await applyTheme(page.page, 'dark');
		const servers: McpServersView = {
			trusted: true,
			problems: [],
			servers: [
				{ name: 'everything', state: 'connected', words: 'connected', origin: 'user settings', user: true, toolCount: 13, specTokens: 3400 },
				{ name: 'docs', state: 'connected', words: 'connected', origin: '.vscode/mcp.json', user: false, toolCount: 2, specTokens: 310 },
			],
		};
		await page.host({ type: 'mcp.servers', seq: 1, view: servers });
		await page.page.getByRole('button', { name: 'MCP servers: 2 of 2 connected' }).click();
		const row = page.page.locator('.transcript > li[data-kind="reminders"]');
		await row.locator('button.reminders-toggle').click();
		assert.equal((await row.locator('.reminder-label').innerText()).trim(), 'MCP resources updated: everything');
		assert.equal(await page.page.locator('.mcp-servers').isVisible(), true);
		await picture(page.page, 'mcp-servers.png');
		await assertCleanAndClose(page);
	});

	it('background processes: the panel of the running ones above the composer, and the ◇ row of one that ended', async () => {
		const page = await openChat(harness);
		await page.page.setViewportSize({ width: 560, height: 640 });
		const started = (id: string, command: string): string =>
			`Started ${id} in the background in the terminal "Aside: ${id} ${command}": \`${command}\`. Its whole output goes to /home/ada/.aside/processes/${id}.log. You are told when it ends (run.background.exit).`;
		const run = (id: string, command: string) => tool(`t-${id}`, { callId: `c-${id}`, name: 'Run', input: JSON.stringify({ command, background: true }, null, 2), result: started(id, command), durationMs: 900 });
		const items: TranscriptItem[] = [
			{ ...user('u1', 'Install the dependencies, then start the dev server and the type checker in watch mode.'), at: AT },
			run('p1', 'npm install'),
			run('p2', 'npm run dev'),
			run('p3', 'npx tsc --watch'),
			{
				...reminders('r1', [
					entry('run.background.exit', 'background process ended', 'p1 `npm install` exited: exit code 0, at 09:30:41 UTC after 38.2 s.\nIts last 2 lines:\nadded 312 packages in 38s\nfound 0 vulnerabilities\nIts whole output: /home/ada/.aside/processes/p1.log'),
				], 'mid-turn'),
				at: AT + 41_000,
			},
			{ ...assistant('a1', 'The dependencies are installed; the dev server (p2) serves http://localhost:5173/ and the type checker (p3) found no errors. Both keep running.'), at: AT + 50_000 },
		];
		await page.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }), session: { id: 'session-4', title: 'Dev server', items } }));
		await applyTheme(page.page, 'dark');
		const processes: ProcessesView = {
			rows: [
				{ id: 'p2', command: 'npm run dev', startedAt: '09:30:42 UTC', lastLine: '  ➜  Local:   http://localhost:5173/', hasTerminal: true, stopping: false },
				{ id: 'p3', command: 'npx tsc --watch', startedAt: '09:30:43 UTC', lastLine: 'Found 0 errors. Watching for file changes.', hasTerminal: true, stopping: false },
			],
		};
		await page.host({ type: 'processes.changed', seq: 1, processes });
		const panel = page.page.locator('.processes-panel');
		await panel.waitFor();
		assert.deepEqual(await panel.locator('.process-command').allInnerTexts(), ['npm run dev', 'npx tsc --watch']);
		const row = page.page.locator('.transcript > li[data-kind="reminders"]');
		assert.equal((await row.locator('.reminders-label').innerText()).trim(), '◇ 1 system reminder (background process ended)');
		assert.equal(await row.locator('button.reminders-toggle').getAttribute('aria-expanded'), 'false', 'collapsed');
		await picture(page.page, 'processes.png');
		await assertCleanAndClose(page);
	});
});
