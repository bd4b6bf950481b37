// Workspace reminders in the real extension host (docs/workspace-reminders.md): a
// `.aside/reminders/migrations.md` with `when.read` written into the workspace is picked up by
// VS Code's watcher (a broken one beside it is reported, not used); the request after the scripted
// model reads a matching file carries `workspace.migrations` once, its record reaches
// onDidRecordInjection, and its row shows in the real webview with label, key, reason and body.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { parseReminders, wrap } from '../../src/reminders/envelope';
import type { InjectionRecord } from '../../src/reminders/record';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, driver, hasDriver, messagesOf, until, useScriptedServer, workspaceFile } from './support';

const MIGRATIONS = `---
key: migrations
label: migrations
policy: on-change
when:
  read: "db/migrations/**"
---
Migrations are append-only: never edit an applied one; add a new file. {{files}} matched.
`;

const BROKEN = `---
key: broken
polcy: every
---
Never sent.
`;

interface ReminderRowReading {
	readonly label: string;
	readonly entries: readonly { readonly key: string; readonly label: string; readonly reason: string; readonly body: string }[];
}

function blocks(request: ReceivedRequest | undefined, key: string): string[] {
	return messagesOf(request).flatMap((message) => parseReminders(message.content ?? '').filter((block) => block.key === key).map((block) => block.body));
}

describe('workspace reminders in VS Code', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;
	const remindersDir = () => workspaceFile('.aside/reminders').fsPath;
	const migrationsDir = () => workspaceFile('db/migrations').fsPath;

	before(async () => {
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'ask' });
	});

	after(async () => {
		rmSync(workspaceFile('.aside').fsPath, { recursive: true, force: true });
		rmSync(workspaceFile('db').fsPath, { recursive: true, force: true });
		await restore();
		await server.close();
	});

	it('a when.read reminder fires once, in the request after the model read a matching file, and shows as a row', async () => {
		const { api, hooks } = await activeAside();
		assert.equal(vscode.workspace.isTrusted, true);
		mkdirSync(remindersDir(), { recursive: true });
		mkdirSync(migrationsDir(), { recursive: true });
		writeFileSync(`${migrationsDir()}/001_init.sql`, 'create table users (id integer);\n');
		writeFileSync(`${remindersDir()}/migrations.md`, MIGRATIONS);
		writeFileSync(`${remindersDir()}/broken.md`, BROKEN);
		const found = await until(
			() => hooks.workspaceReminders(),
			({ keys, problems }) => keys.includes('workspace.migrations') && problems.some((problem) => problem.includes('broken.md')),
			'the workspace watcher to pick up the reminder files',
		);
		assert.deepEqual(found.keys, ['workspace.migrations'], 'the broken file is not used');

		await vscode.commands.executeCommand('aside.newChat');
		const recorded: InjectionRecord[] = [];
		const listening = api.onDidRecordInjection((record) => recorded.push(record));
		server.script(
			{ toolCalls: [{ id: 'call_m1', name: 'Read', input: { path: 'db/migrations/001_init.sql' } }] },
			{ toolCalls: [{ id: 'call_m2', name: 'Read', input: { path: 'db/migrations/001_init.sql' } }] },
			{ text: 'Read the migration.' },
		);
		const start = chatRequests(server).length;
		try {
			assert.equal((await api.sendMessage('Look at the first migration.')).outcome, 'done');
		} finally {
			listening.dispose();
		}
		const [first, afterRead, afterSecondRead] = chatRequests(server).slice(start);
		assert.deepEqual(blocks(first, 'workspace.migrations'), [], 'nothing read yet');
		const sent = blocks(afterRead, 'workspace.migrations');
		assert.deepEqual(sent, ['Migrations are append-only: never edit an applied one; add a new file. db/migrations/001_init.sql matched.']);
		assert.equal(blocks(afterSecondRead, 'workspace.migrations').length, 1, 'once: the same body is not sent again, only replayed in the history');
		assert.equal(blocks(first, 'workspace.broken').length + blocks(afterRead, 'workspace.broken').length, 0);

		const entries = recorded.flatMap((record) => record.entries).filter((entry) => entry.key === 'workspace.migrations');
		assert.equal(entries.length, 1, 'onDidRecordInjection saw it once');
		const [heard] = entries;
		assert.ok(heard);
		assert.equal(heard.label, 'migrations');
		assert.equal(heard.reason, 'read db/migrations/001_init.sql (.aside/reminders/migrations.md)');

		if (hasDriver) {
			await vscode.commands.executeCommand('aside.focusChat');
			const row = await driver<ReminderRowReading>('expandReminders', { which: 'last' });
			const entry = row.entries.find((candidate) => candidate.key === 'workspace.migrations');
			assert.ok(entry, `the row shows it: ${JSON.stringify(row.entries.map((candidate) => candidate.key))}`);
			assert.equal(entry.label, 'migrations');
			assert.match(entry.reason, /read db\/migrations\/001_init\.sql/);
			assert.ok(messagesOf(afterRead).some((message) => (message.content ?? '').includes(wrap('workspace.migrations', entry.body))), 'the body shown is the body sent');
		}
	});
});
