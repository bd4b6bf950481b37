// The reminder settings as a person edits them: contributed by the real package.json, read by
// the real configuration API, handed to the engine's interface, with a clear message for a bad value.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeAside, until } from './support';

describe('reminder settings', () => {
	const reminders = () => vscode.workspace.getConfiguration('aside.reminders');

	afterEach(async () => {
		await reminders().update('agentNudge.enabled', undefined, vscode.ConfigurationTarget.Global);
		await reminders().update('contextUsage.interval', undefined, vscode.ConfigurationTarget.Global);
	});

	it('are contributed with their defaults', () => {
		const inspect = reminders().inspect<number>('contextUsage.interval');
		assert.equal(inspect?.defaultValue, 10);
		assert.equal(reminders().inspect<boolean>('agentNudge.enabled')?.defaultValue, true);
		assert.equal(reminders().inspect('userSteering.enabled')?.defaultValue, undefined, 'steering cannot be turned off');
	});

	it('turn a reminder off and override an interval for the engine', async () => {
		const { hooks } = await activeAside();
		assert.equal(hooks.reminderConfig.isEnabled('agentNudge'), true);
		assert.equal(hooks.reminderConfig.intervalOf('contextUsage'), 10);
		await reminders().update('agentNudge.enabled', false, vscode.ConfigurationTarget.Global);
		await reminders().update('contextUsage.interval', 3, vscode.ConfigurationTarget.Global);
		assert.equal(await until(() => hooks.reminderConfig.isEnabled('agentNudge'), (on) => !on, 'the engine to see agentNudge off', 15_000), false);
		assert.equal(await until(() => hooks.reminderConfig.intervalOf('contextUsage'), (n) => n === 3, 'the engine to see interval 3', 15_000), 3);
		assert.equal(hooks.reminderConfig.isEnabled('contextUsage'), true, 'other types are untouched');
	});

	it('a bad value gets a message naming the setting, and the default is used', async () => {
		const { hooks } = await activeAside();
		await reminders().update('contextUsage.interval', 0, vscode.ConfigurationTarget.Global);
		const problems = await until(hooks.settingProblems, (list) => list.length > 0, 'the settings problem', 15_000);
		assert.equal(problems.length, 1);
		assert.match(problems[0]?.message ?? '', /^The setting "aside\.reminders\.contextUsage\.interval" has an invalid value 0 \(.*\); using the default, 10\.$/);
		assert.equal(hooks.reminderConfig.intervalOf('contextUsage'), 10);
	});
});
