// The view in Light Modern, Dark Modern and High Contrast Dark: a screenshot of each (saved as
// a test artifact in out/webview-artifacts/), and every visible piece of text checked for
// contrast against what is actually behind it (WCAG AA: 4.5:1, 3:1 for large text).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { TranscriptItem } from '../../src/protocol/messages';
import { G, N, nestedChildren, task, taskList } from './childItems';
import { assistant, entry, reminders, tool, turnEnd, user } from './items';
import { agentView, assertCleanAndClose, openChat, useHarness, viewState } from './page';
import { applyTheme, THEMES, type ThemeName } from './themes';

const ARTIFACTS = join(process.cwd(), 'out', 'webview-artifacts');

const ANSWER = [
	'The build fails because `greet` is called with a number. Two options:',
	'',
	'1. **Change the call** in `src/main.ts`:',
	'',
	'```ts',
	'// pass a string, as the signature says',
	'const message: string = greet("Ada", 3);',
	'export function twice(n: number) { return n * 2; }',
	'```',
	'',
	'2. Or widen the parameter. See [the handbook](https://www.typescriptlang.org/docs/).',
	'',
	'> Either way, run `npm test` afterwards.',
].join('\n');

function sampleItems(): TranscriptItem[] {
	return [
		reminders('r1', [
			entry('session.date', 'date', "Today's date is 2026-11-30 (Monday).", 'first delivery'),
			entry('workspace.instructions', 'instructions', 'Contents of AGENTS.md (instructions for this workspace):\n\nUse tabs. Run npm test before you finish.', 'content changed since last delivered'),
		]),
		user('u1', 'Why does the build fail?'),
		tool('t1', { result: '1\timport { greet } from "./greet";\n2\tconsole.log(greet("Ada", 3));', notices: [{ key: 'read.truncated', body: 'Showing lines 1–2 of 2,400. Read again with an offset for the rest.' }] }),
		tool('t2', { name: 'Edit', input: JSON.stringify({ path: 'src/main.ts' }, null, 2), result: 'Edited src/main.ts.', diff: '--- a/src/main.ts\n+++ b/src/main.ts\n@@ -2 +2 @@\n-console.log(greet("Ada", 3));\n+console.log(greet("Ada"));', durationMs: 130 }),
		reminders('r2', [entry('edit.diagnostics', 'diagnostics', 'New problems in src/main.ts after your edit:\n- error TS2554 (ts) 2:13 Expected 1 arguments, but got 2.', 'the edit introduced 1 problem')], 'mid-turn'),
		tool('t3', { name: 'Run', input: JSON.stringify({ command: 'npm test' }, null, 2), result: 'exit 1', isError: true }),
		assistant('a1', ANSWER),
		turnEnd('e1', 'failed', 'HTTP 529: the provider is overloaded. Nothing was lost; send the message again.'),
	];
}

/** Every visible text whose contrast with its real background is under the AA minimum. */
async function lowContrast(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		type Rgba = [number, number, number, number];
		const parse = (css: string): Rgba => {
			const srgb = /color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)(?: \/ ([\d.]+))?\)/.exec(css);
			if (srgb) {
				return [Number(srgb[1]) * 255, Number(srgb[2]) * 255, Number(srgb[3]) * 255, srgb[4] === undefined ? 1 : Number(srgb[4])];
			}
			const rgb = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(css);
			return rgb ? [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] === undefined ? 1 : Number(rgb[4])] : [0, 0, 0, 0];
		};
		const over = (top: Rgba, below: Rgba): Rgba => [0, 1, 2].map((i) => (top[i] ?? 0) * top[3] + (below[i] ?? 0) * (1 - top[3])).concat(1) as Rgba;
		const luminance = (c: Rgba) => {
			const [r, g, b] = [0, 1, 2].map((i) => {
				const v = (c[i] ?? 0) / 255;
				return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
			});
			return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
		};
		const background = (node: Element): Rgba => {
			const layers: Rgba[] = [];
			for (let at: Element | null = node; at; at = at.parentElement) {
				layers.push(parse(getComputedStyle(at).backgroundColor));
			}
			return layers.reverse().reduce<Rgba>((below, layer) => over(layer, below), [255, 255, 255, 1]);
		};
		const problems: string[] = [];
		for (const node of Array.from(document.querySelectorAll('#app *'))) {
			// A select's text is its chosen option's: checked on the select itself (the toolbar's pickers).
			const hasText = node.tagName === 'SELECT' || Array.from(node.childNodes).some((child) => child.nodeType === Node.TEXT_NODE && (child.textContent ?? '').trim() !== '');
			if (!hasText || node.closest('.sr-only, [hidden], [disabled], [aria-disabled="true"]') || node.getClientRects().length === 0) {
				continue;
			}
			const style = getComputedStyle(node);
			if (style.visibility === 'hidden' || Number(style.opacity) === 0) {
				continue;
			}
			const bg = background(node);
			const fg = over(parse(style.color), bg);
			const [light, dark] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
			const ratio = ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
			const size = parseFloat(style.fontSize);
			const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
			if (ratio < (large ? 3 : 4.5)) {
				problems.push(`${node.tagName.toLowerCase()}.${node.className} "${node.textContent.trim().slice(0, 30)}": ${ratio.toFixed(2)}:1`);
			}
		}
		return problems;
	});
}

describe('themes', () => {
	const harness = useHarness();

	before(() => {
		mkdirSync(ARTIFACTS, { recursive: true });
	});

	for (const theme of Object.keys(THEMES) as ThemeName[]) {
		it(`is legible in ${theme}: every text at least AA contrast; screenshot saved`, async () => {
			const chat = await openChat(harness);
			const { page } = chat;
			await page.setViewportSize({ width: 560, height: 1500 });
			await page.goto(harness.origin);
			await applyTheme(page, theme);
			await chat.connect(
				viewState({
					session: { id: 'session-1', title: 'Why does the build fail?', items: sampleItems() },
					agent: agentView({ status: { state: 'running', detail: 'Waiting for the model…' }, models: [{ id: 'm', name: 'Scripted model' }], model: 'm', mode: 'full-access', steering: ['Also check the tests, please.'] }),
					context: { usedTokens: 18_400, limitTokens: 200_000, autoCompactAt: 0.8, canCompact: false, reminders: [{ key: 'workspace.instructions', label: 'instructions', deliveries: 1, tokens: 31 }, { key: 'session.date', label: 'date', deliveries: 1, tokens: 20 }] },
				}),
			);
			await applyTheme(page, theme);
			assert.equal(await page.locator('.picker-wrap-mode.picker-warning').count(), 1, 'Full access, in the warning colours');
			for (const id of ['r1', 'r2', 't2']) {
				await page.locator(`li[data-id="${id}"] button.disclosure`).first().click();
			}
			await page.locator('.notice-toggle').first().click();
			await page.locator('.scroller').evaluate((node) => {
				node.scrollTop = 0;
			});
			await page.screenshot({ path: join(ARTIFACTS, `chat-${theme}.png`), fullPage: true });
			assert.deepEqual(await lowContrast(page), [], `text below AA contrast in ${theme}`);
			// The context details, open over the chat.
			await page.locator('.context-toggle').click();
			await page.locator('.context-table').waitFor();
			assert.deepEqual(await lowContrast(page), [], `details below AA contrast in ${theme}`);
			await assertCleanAndClose(chat);
		});

		it(`shows an opened nested child and the task panel legibly in ${theme}`, async () => {
			const chat = await openChat(harness);
			const { page } = chat;
			await page.setViewportSize({ width: 560, height: 900 });
			await page.goto(harness.origin);
			await applyTheme(page, theme);
			const tasks = taskList([task('1', 'Find where the config is read', 'completed'), task('2', 'Fix the default port', 'in_progress', 'root', 'keep the old key working'), task('3', 'Grep for callers', 'pending', N)]);
			await chat.connect(viewState({ session: { id: 'session-1', title: 'Find where the config is read', items: nestedChildren() }, agent: agentView({ status: { state: 'ready', detail: 'Ready.' }, models: [{ id: 'm', name: 'Scripted model' }], model: 'm' }), tasks }));
			await applyTheme(page, theme);
			for (const path of [G, N]) {
				await page.locator(`li[data-path="${path}"] > button.agent-toggle`).click();
			}
			await page.locator('li[data-id="nT"] button.tool-toggle').click();
			await page.locator('button.task-toggle').click();
			assert.deepEqual(await lowContrast(page), [], `text below AA contrast in ${theme}`);
			const pictures = process.env.ASIDE_PICTURES_DIR;
			if (theme === 'dark' && pictures !== undefined) {
				// The README's picture of a nested child, from the person's message down (written only when asked: a test run leaves the repo as it was).
				await page.locator('.scroller').evaluate((node) => {
					node.scrollTop = 0;
				});
				await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
				await page.screenshot({ path: join(pictures, 'subagent.png') });
			}
			// A goal whose budget is spent, its explanation open, and Full access for the next message.
			await chat.host({ type: 'goal.changed', seq: 1, goal: { active: { objective: 'Find where the config is read', budget: 100_000, spent: 120_000, exhausted: true } } });
			await page.getByRole('button', { name: 'Budget spent' }).click();
			await page.getByRole('combobox', { name: 'Permission mode for the next message only' }).selectOption('full-access');
			assert.deepEqual(await lowContrast(page), [], `the goal line and the toolbar below AA contrast in ${theme}`);
			await assertCleanAndClose(chat);
		});
	}
});
