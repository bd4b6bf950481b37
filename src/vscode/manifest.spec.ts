// The manifest's trust, walkthrough and command contributions agree with the code and files.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { reminderPathOf } from '../reminderServer/folders';
import { PREVIEW_COMMAND } from '../workspaceReminders/serverProtocol';
import { SETTINGS } from './settings';

interface Manifest {
	capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations?: string[] } };
	contributes: {
		commands: { command: string }[];
		menus: { commandPalette: { command: string; when?: string }[] };
		walkthroughs?: { id: string; steps: { id: string; description: string; media: { markdown?: string }; completionEvents?: string[] }[] }[];
	};
}

const root = process.cwd();
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
const commands = new Set(manifest.contributes.commands.map((command) => command.command));

describe('package.json', () => {
	it('keeps a workspace from choosing the provider, its server or the model in Restricted Mode', () => {
		const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
		for (const key of [SETTINGS.provider.key, SETTINGS.baseUrl.key, SETTINGS.model.key]) {
			assert.ok(restricted.includes(key), `${key} is restricted`);
		}
		const known = new Set(Object.values(SETTINGS).map((setting) => setting.key));
		assert.deepEqual(restricted.filter((key) => !known.has(key)), [], 'only real settings');
	});

	it('keeps an untrusted workspace\'s own settings from choosing the permission mode or rules', () => {
		const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
		assert.deepEqual([SETTINGS.permissionMode.key, SETTINGS.permissionRules.key].filter((key) => !restricted.includes(key)), []);
	});

	it('reads the permission mode and rules, and MCP sampling, from the user\'s settings only (a workspace must not allow itself anything)', () => {
		const properties: Record<string, { scope?: string }> = Object.assign(
			{},
			...(manifest.contributes as unknown as {
				configuration: { properties: Record<string, { scope?: string }> }[],
			}).configuration.map((category) => category.properties)
		) as Record<string, { scope?: string }>;
		const keys = [SETTINGS.permissionMode.key, SETTINGS.permissionRules.key, SETTINGS.mcpSampling.key];
		assert.deepEqual(keys.map((key) => properties[key]?.scope), ['application', 'application', 'application']);
	});

	it('has a getting-started walkthrough whose steps run contributed commands and ship their media', () => {
		const [walkthrough] = manifest.contributes.walkthroughs ?? [];
		assert.ok(walkthrough, 'a walkthrough');
		const linked = walkthrough.steps.flatMap((step) => [...step.description.matchAll(/\(command:([\w.]+)\)/g)].map((match) => match[1]));
		assert.deepEqual(linked, ['aside.chooseProvider', 'aside.setApiKey', 'aside.focusChat']);
		for (const command of linked) {
			assert.ok(commands.has(command), `${command} is a contributed command`);
		}
		const shipped = readFileSync(join(root, '.vscodeignore'), 'utf8');
		for (const step of walkthrough.steps) {
			const media = step.media.markdown;
			assert.ok(media && existsSync(join(root, media)), `${step.id}: ${media ?? 'no media'} exists`);
			assert.match(shipped, /^!media\/walkthrough\/\*\.md$/m, 'the .vsix carries the walkthrough media');
			assert.ok((step.completionEvents ?? []).length > 0, `${step.id} can be completed`);
		}
	});

	it('offers Preview Workspace Reminder in the palette only while a `.aside/reminders/*.md` file is the active editor, by either separator', () => {
		const entry = manifest.contributes.menus.commandPalette.find((item) => item.command === PREVIEW_COMMAND);
		const literal = /^resourcePath =~ \/(.+)\/$/.exec(entry?.when ?? '');
		assert.ok(literal?.[1], `a resourcePath regex, got ${JSON.stringify(entry?.when)}`);
		const when = new RegExp(literal[1]);
		const paths = {
			'/work/app/.aside/reminders/migrations.md': true,
			'C:\\work\\app\\.aside\\reminders\\migrations.md': true,
			'/work/app/README.md': false,
			'/work/app/.aside/reminders/notes.txt': false,
			'/work/app/.aside/reminders/old/migrations.md': false,
			'/work/app/x.aside/reminders/migrations.md': false,
			'/work/app/.aside/reminders.md': false,
		};
		for (const [path, offered] of Object.entries(paths)) {
			assert.equal(when.test(path), offered, path);
			if (path.startsWith('/')) {
				assert.equal(reminderPathOf(`file://${path}`) !== undefined, offered, `the language server agrees on ${path}`);
			}
		}
	});

	it('lists one command that focuses the chat: VS Code\'s Focus on Chat View; Aside: Focus Chat stays for links and keys, off the palette', () => {
		const palette = manifest.contributes.menus.commandPalette;
		assert.deepEqual(palette.filter((item) => item.command === 'aside.focusChat'), [{ command: 'aside.focusChat', when: 'false' }]);
		assert.ok(commands.has('aside.focusChat'), 'still contributed, so its id runs');
		// VS Code lists the view's own command from its own menu item: a `when` here would not hide it.
		assert.equal(palette.some((item) => item.command === 'aside.chat.focus'), false);
	});

	it('links the permission rules to the README the extension ships, at its Permission rules section, through a command off the palette', () => {
		const categories = (manifest.contributes as unknown as {
			configuration: { properties: Record<string, { markdownDescription?: string; default?: unknown }> }[],
		}).configuration;
		const rules = categories.map((category) => category.properties[SETTINGS.permissionRules.key]).find((property) => property !== undefined);
		const description = rules?.markdownDescription ?? '';
		assert.ok(description.includes('[Permission rules](command:aside.openReadme?%5B%22permission-rules%22%5D)'), description);
		assert.deepEqual(JSON.parse(decodeURIComponent('%5B%22permission-rules%22%5D')), ['permission-rules'], 'the command gets the anchor');
		assert.doesNotMatch(description, /docs\/[\w-]+\.md/, 'docs/ is not in the .vsix');
		assert.match(description, /"allow": \["Run\(npm test\*\)"/, 'an example rule set');
		assert.ok(commands.has('aside.openReadme'));
		assert.deepEqual(manifest.contributes.menus.commandPalette.filter((item) => item.command === 'aside.openReadme'), [{ command: 'aside.openReadme', when: 'false' }]);
		assert.deepEqual(rules?.default, { allow: [], ask: [], deny: [] }, 'the Settings UI shows the three lists');
	});
});
