// A reminder another extension contributes, turned off and on again by the person through the
// real setting `aside.reminders.contributed`: the real configuration API, the real engine, and
// the payloads the scripted model server received.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type ModelServer, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, messagesOf, until, useScriptedServer } from './support';

const BLOCK = '<system-reminder key="aside-tests.integration.switched">';

describe('a contributed reminder\'s switch', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;
	const reminders = () => vscode.workspace.getConfiguration('aside.reminders');

	before(async () => {
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'ask' });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await reminders().update('contributed', undefined, vscode.ConfigurationTarget.Global);
		await restore();
		await server.close();
	});

	it('is contributed as an empty map, and a key set to false there is not sent until it is on again', async () => {
		assert.deepEqual(reminders().inspect('contributed')?.defaultValue, {});
		const { api, hooks } = await activeAside();
		const registration = api.registerReminder('aside-tests.integration', {
			type: 'switched',
			key: 'switched',
			label: 'test switch',
			purpose: 'Proves the person can turn a contributed reminder off.',
			policy: 'every-turn',
			content: () => 'The switched reminder body.',
		});
		const lastText = () => messagesOf(chatRequests(server).at(-1)).map((message) => message.content ?? '').join('\n');
		try {
			await reminders().update('contributed', { 'aside-tests.integration.switched': false }, vscode.ConfigurationTarget.Global);
			await until(() => hooks.contributedReminderOn('aside-tests.integration.switched'), (on) => !on, 'the engine to see the key off', 15_000);
			server.script({ text: 'Off.' });
			assert.equal((await api.sendMessage('First, with the reminder off.')).outcome, 'done');
			assert.equal(lastText().includes(BLOCK), false, 'not sent while off');
			await reminders().update('contributed', undefined, vscode.ConfigurationTarget.Global);
			await until(() => hooks.contributedReminderOn('aside-tests.integration.switched'), (on) => on, 'the engine to see the key on', 15_000);
			server.script({ text: 'On.' });
			assert.equal((await api.sendMessage('Then with it on again.')).outcome, 'done');
			assert.equal(lastText().includes(BLOCK), true, 'sent once on again');
		} finally {
			registration.dispose();
		}
	});
});
