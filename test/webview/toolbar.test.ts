// The composer's toolbar in the real bundle: Full access, as the chat's mode or the one-message
// override, shows in the theme's warning colours (and nothing else does).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentView, assertCleanAndClose, openChat, useHarness, viewState } from './page';
import { applyTheme, THEMES } from './themes';

/** A #rrggbb colour as getComputedStyle gives it. */
const rgb = (hex: string): string => `rgb(${[1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)).join(', ')})`;

describe('the toolbar', () => {
	const harness = useHarness();

	it('shows Full access in the warning colours, as the chat\'s mode or for the next message', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' }, mode: 'full-access' }) }));
		const { page } = chat;
		await applyTheme(page, 'dark');
		const warning = THEMES.dark.colors['--vscode-editorWarning-foreground'] ?? '';
		const border = THEMES.dark.colors['--vscode-inputValidation-warningBorder'] ?? '';
		const background = THEMES.dark.colors['--vscode-inputValidation-warningBackground'] ?? '';
		const mode = page.locator('.picker-wrap-mode');
		assert.equal(await mode.locator('.codicon-warning').count(), 1, 'a warning sign instead of the shield');
		assert.equal(await mode.locator('.codicon-warning').evaluate((node) => getComputedStyle(node).color), rgb(warning));
		assert.deepEqual(await page.locator('select.picker-mode').evaluate((node) => [getComputedStyle(node).borderTopColor, getComputedStyle(node).backgroundColor]), [rgb(border), rgb(background)]);

		await chat.host({ type: 'agent.changed', seq: 1, agent: agentView({ status: { state: 'ready', detail: 'Ready.' }, mode: 'ask' }) });
		await page.locator('.picker-wrap-mode .codicon-shield').waitFor();
		assert.equal(await page.locator('.picker-warning').count(), 0);
		const override = page.getByRole('combobox', { name: 'Permission mode for the next message only' });
		await override.selectOption('full-access');
		const wrap = page.locator('.picker-wrap-override');
		assert.equal(await wrap.evaluate((node) => node.classList.contains('picker-warning')), true);
		assert.equal(await wrap.evaluate((node) => getComputedStyle(node).borderTopColor), rgb(border));
		assert.equal(await wrap.locator('.codicon-arrow-right').evaluate((node) => getComputedStyle(node).color), rgb(warning));
		assert.equal(await wrap.locator('.picker-label').innerText(), 'Full access');
		await override.selectOption('');
		assert.equal(await wrap.evaluate((node) => node.classList.contains('picker-warning')), false);
		await assertCleanAndClose(chat);
	});
});
