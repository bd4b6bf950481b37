// The manifest's trust, walkthrough and command contributions agree with the code and files.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SETTINGS } from './settings';

interface Manifest {
	capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations?: string[] } };
	contributes: {
		commands: { command: string }[];
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

	it('reads the permission mode and rules from the user\'s settings only (a workspace must not allow itself anything)', () => {
		const properties = (manifest.contributes as unknown as { configuration: { properties: Record<string, { scope?: string }> } }).configuration.properties;
		assert.deepEqual([SETTINGS.permissionMode.key, SETTINGS.permissionRules.key].map((key) => properties[key]?.scope), ['application', 'application']);
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
});
