// Aside's settings in the real Settings editor: grouped in their categories, and the permission
// rules shown with an example and a link that opens the installed extension's README at its
// "Permission rules" section (the docs/ pages are not shipped).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { waitForEvent } from '../../src/base/event';
import { activeAside, driver, hasDriver } from './support';

interface SettingReading {
	readonly description: string;
	readonly table: string[];
	readonly toc: string[];
}

/** The Markdown preview of the extension's README, once a tab shows it. */
function readmePreview(): Promise<readonly vscode.Tab[]> {
	const previews = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('markdown.preview') && /readme\.md/i.test(tab.label));
	if (previews().length > 0) {
		return Promise.resolve(previews());
	}
	return waitForEvent((listener: (tabs: readonly vscode.Tab[]) => void) => vscode.window.tabGroups.onDidChangeTabs(() => {
		listener(previews());
	}), (tabs) => tabs.length > 0, 60_000, 'the README preview');
}

describe('the Settings editor', function () {
	before(async function () {
		if (!hasDriver) {
			this.skip();
		}
		await activeAside();
	});

	afterEach(async () => {
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('aside.openReadme opens a preview of the installed extension\'s README', async () => {
		const { extension } = await activeAside();
		const shown = readmePreview();
		const readme = await vscode.commands.executeCommand<vscode.Uri | undefined>('aside.openReadme', 'permission-rules');
		assert.ok(readme && existsSync(readme.fsPath), 'a README file');
		assert.equal(readme.fsPath.startsWith(extension.extensionUri.fsPath), true, `inside the installed extension: ${readme.fsPath}`);
		await shown;
	});

	it('groups Aside\'s settings provider first, and shows the permission rules with an example and a link to the README section', async () => {
		await vscode.commands.executeCommand('workbench.action.openSettings', 'aside.permissions.rules');
		const shown = readmePreview();
		const setting = await driver<SettingReading>('readSetting', {
			key: 'aside.permissions.rules',
			link: 'Permission rules',
			screenshot: { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/settings-permission-rules.png` },
		});
		assert.match(setting.description, /"allow": \["Run\(npm test\*\)", "Edit\(docs\/\*\*\)"\]/, 'an example rule set');
		assert.match(setting.description, /Permission rules/);
		await shown;

		await vscode.commands.executeCommand('workbench.action.openSettings', '@ext:aside-dev.aside');
		const all = await driver<SettingReading>('readSetting', { key: 'aside.provider', screenshot: { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/settings-aside.png` } });
		const categories = ['Provider', 'Permissions', 'Reminders', 'Context', 'Checkpoints', 'Advanced'];
		const shownCategories = all.toc.filter((row) => categories.some((title) => row.includes(title)));
		assert.deepEqual(shownCategories.map((row) => categories.find((title) => row.includes(title))), categories, `the table of contents: ${JSON.stringify(all.toc)}`);
	});
});
