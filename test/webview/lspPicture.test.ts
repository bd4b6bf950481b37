// The README's picture of the LSP tool: a chat whose LSP row is opened on a `references` result —
// places as `path:line:col: text`, one outside the workspace marked — taken from the real bundle in
// headless Chromium under VS Code's dark theme colours. The test checks that the row shows what the
// picture shows; with ASIDE_PICTURES_DIR set it also writes docs/images/lsp.png into that folder.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { TranscriptItem } from '../../src/protocol/messages';
import { assistant, tool, user } from './items';
import { agentView, assertCleanAndClose, openChat, useHarness, viewState } from './page';
import { applyTheme } from './themes';

const AT = Date.UTC(2026, 11, 7, 21, 30);

const REFERENCES = [
	'5 references of src/lsp/shapes.ts:12:17: export function area(shape: Square): number {',
	'src/lsp/measure.ts:1:10: import { area, Square } from \'./shapes\';',
	'src/lsp/measure.ts:4:9: return area(new Square(size));',
	'src/lsp/report.ts:2:10: import { area, Square } from \'./shapes\';',
	'src/lsp/report.ts:5:12: return `${area(new Square(2)).toFixed(1)} and ${measure(3)}`;',
	'src/lsp/shapes.ts:12:17: export function area(shape: Square): number {',
].join('\n');

describe('the README picture of LSP', () => {
	const harness = useHarness();

	it('an LSP row opened on its references: workspace-relative places with their lines', async () => {
		const page = await openChat(harness);
		await page.page.setViewportSize({ width: 760, height: 600 });
		const input = JSON.stringify({ operation: 'references', symbol: 'area' }, null, 2);
		const items: TranscriptItem[] = [
			{ ...user('u1', 'Where is area used? I want to rename it to surface.'), at: AT },
			tool('t1', { callId: 'c1', name: 'LSP', input, result: REFERENCES, durationMs: 310 }),
			{
				...assistant('a1', '`area` is declared in src/lsp/shapes.ts and called from measure.ts and report.ts (5 references). A rename would change those three files: shall I do it?'),
				at: AT + 5_000,
			},
		];
		const agent = agentView({ status: { state: 'ready', detail: 'Ready.' }, models: [{ id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5' }], model: 'claude-sonnet-4-5' });
		await page.connect(viewState({ agent, session: { id: 'session-lsp', title: 'Where is area used', items } }));
		await applyTheme(page.page, 'dark');
		const row = page.page.locator('li[data-id="t1"]');
		await row.locator('button.tool-toggle').click();
		assert.match(await row.locator('button.tool-toggle').innerText(), /LSP/);
		assert.equal(await row.locator('pre.tool-result').textContent(), REFERENCES);
		const dir = process.env.ASIDE_PICTURES_DIR;
		if (dir) {
			await page.page.screenshot({ path: join(dir, 'lsp.png') });
		}
		await assertCleanAndClose(page);
	});
});
