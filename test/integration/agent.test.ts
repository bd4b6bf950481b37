// The agent end to end in the real extension host: the OpenAI-compatible provider pointed at the
// scripted model server on loopback (it speaks the real SSE protocol and records every request),
// the real tools editing the real workspace through VS Code's document model, and the
// transcript on disk. Assertions are on the payloads that were actually dispatched.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { wrap } from '../../src/reminders/envelope';
import type { InjectionRecord } from '../../src/reminders/record';
import { type ModelServer, type ReceivedRequest, startModelServer } from '../harness/modelServer.mjs';
import { activeAside, chatRequests, driver, hasDriver, messagesOf, transcriptLines, until, useScriptedServer, workspaceFile } from './support';

/** One reminders row of the chat webview, expanded (see the driver's expandReminders). */
interface ReminderRowReading {
	readonly label: string;
	readonly collapsed: string;
	readonly expanded: string;
	readonly index: number;
	readonly order: readonly string[];
	readonly entries: readonly { readonly key: string; readonly label: string; readonly reason: string; readonly body: string }[];
}

/** How often `needle` occurs in the text of the request's messages. */
function count(request: ReceivedRequest | undefined, needle: string): number {
	const text = messagesOf(request)
		.map((message) => message.content ?? '')
		.join('\n');
	return text.split(needle).length - 1;
}

describe('the agent, with a scripted model server', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;

	before(async () => {
		server = await startModelServer({ models: ['scripted-model'] });
		restore = await useScriptedServer(server, { provider: 'openai-compatible', model: 'scripted-model', mode: 'ask' });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await restore();
		await server.close();
	});

	it('reads a file, asks before editing it, edits it on disk and in the editor; the verdict rides the next request once', async () => {
		const { api, hooks } = await activeAside();
		const file = workspaceFile('src/greeting.ts');
		server.script(
			{ text: 'Let me read it.', toolCalls: [{ id: 'call_read', name: 'Read', input: { path: 'src/greeting.ts' } }] },
			{ toolCalls: [{ id: 'call_edit', name: 'Edit', input: { path: 'src/greeting.ts', old_string: 'Hello, ${name}!', new_string: 'Good morning, ${name}!' } }] },
			{ text: 'I changed the greeting.' },
		);
		const before = chatRequests(server).length;
		const sent = api.sendMessage('Make the greeting say good morning.');
		const callId = await until(() => hooks.pendingApproval(), (id) => id !== undefined, 'the approval card');
		assert.equal(callId, 'call_edit');
		hooks.approve('call_edit', true);
		const result = await sent;
		assert.equal(result.outcome, 'done', result.error);

		assert.match(readFileSync(file.fsPath, 'utf8'), /return `Good morning, \$\{name\}!`;/, 'the file changed on disk');
		const document = await vscode.workspace.openTextDocument(file);
		assert.match(document.getText(), /Good morning/, 'and in the editor');
		assert.equal(document.isDirty, false, 'the edit was saved');

		const requests = chatRequests(server).slice(before);
		assert.equal(requests.length, 3);
		const verdict = '<system-reminder key="permission.verdict">';
		assert.deepEqual(requests.map((request) => count(request, verdict)), [0, 0, 1], 'the verdict goes out once, in the request after the call');
		const third = messagesOf(requests[2]);
		assert.equal(third.at(-2)?.role, 'tool');
		assert.equal(third.at(-2)?.tool_call_id, 'call_edit', 'the reminder comes after the complete tool results');
		assert.equal(third.at(-1)?.role, 'user');
		assert.match(third.at(-1)?.content ?? '', /^<system-reminder key="permission\.verdict">\nPERMISSION GRANTED: the user approved Edit on src\/greeting\.ts/);
		// The date goes with the first request of the chat, right after the message, and stays in
		// the history after that: exactly once in every payload.
		const date = '<system-reminder key="session.date">';
		assert.deepEqual(requests.map((request) => count(request, date)), [1, 1, 1]);
		const first = messagesOf(requests[0]);
		assert.deepEqual(first.slice(-2).map((message) => message.role), ['user', 'user']);
		assert.equal(first.at(-2)?.content, 'Make the greeting say good morning.');
		// The chat's first request also says where it works (session.environment), what its permission mode
		// allows (mode.constraints) and which agents it can start (agents.listing).
		assert.match(first.at(-1)?.content ?? '', /^<system-reminder key="session\.date">\nToday's date is \d{4}-\d\d-\d\d \(\w+\)\.\n<\/system-reminder>\n\n<system-reminder key="session\.environment">\nThe environment you work in:\n[\s\S]*<\/system-reminder>\n\n<system-reminder key="mode\.constraints">\nPermission mode now: ask\.\n[\s\S]*<\/system-reminder>\n\n<system-reminder key="agents\.listing">\nThe agent profiles you can start:\n[\s\S]*<\/system-reminder>$/);
		const second = messagesOf(requests[1]);
		assert.match(second.find((message) => message.role === 'tool')?.content ?? '', /^\s*1\t\/\/ Fixture: a file without errors\.\n/, 'Read returns the file with line numbers');

		const lines = transcriptLines(hooks.sessionsDir, result.sessionId);
		const kinds = lines.map((line) => line.kind);
		assert.deepEqual(kinds.slice(0, 2), ['session', 'user']);
		assert.ok(kinds.includes('injected-reminders'), 'the delivery is recorded in the transcript');
		assert.equal(kinds.at(-1), 'turn-end');
		const items = hooks.currentSessionItems();
		assert.ok(items.some((item) => item.kind === 'reminders' && item.entries.some((entry) => entry.key === 'permission.verdict')), 'the chat has the reminders row');
		if (hasDriver) {
			// The picture in the README: the edited file beside the chat that edited it.
			await vscode.window.showTextDocument(document);
			await vscode.commands.executeCommand('aside.focusChat');
			await driver('readChat', { waitForText: 'Make the greeting say good morning.' });
			await driver('screenshot', { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/agent-turn.png`, clip: { x: 0, y: 0, width: 1100, height: 620 } });

			// The rows in the real workbench's webview, expanded: exactly what the model server received.
			const verdictRow = await driver<ReminderRowReading>('expandReminders', { which: 'last', screenshot: { path: `${process.env.ASIDE_ARTIFACTS_DIR ?? '/tmp'}/reminders-expanded.png`, clip: { x: 0, y: 0, width: 1100, height: 720 } } });
			assert.equal(verdictRow.collapsed, 'false', 'collapsed until opened');
			assert.equal(verdictRow.expanded, 'true');
			assert.equal(verdictRow.label, '◇ 1 system reminder (permission)');
			assert.deepEqual(verdictRow.entries.map((entry) => entry.key), ['permission.verdict']);
			assert.equal(wrap('permission.verdict', verdictRow.entries[0]?.body ?? ''), third.at(-1)?.content, 'the body shown is the body sent, byte for byte');
			// Mid-turn: after the edit's tool row, inside the assistant's turn, not above a user row.
			assert.equal(verdictRow.order[verdictRow.index - 1], 'tool');
			const dateRow = await driver<ReminderRowReading>('expandReminders', { which: 'first' });
			assert.equal(dateRow.order[dateRow.index + 1], 'user', 'the turn-start row sits above the message it preceded');
			assert.deepEqual(dateRow.entries.map((entry) => entry.key), ['session.date', 'session.environment', 'mode.constraints', 'agents.listing']);
			assert.equal(dateRow.entries.map((entry) => wrap(entry.key, entry.body)).join('\n\n'), first.at(-1)?.content);
			assert.match(dateRow.entries[0]?.reason ?? '', /\S/, 'why it fired is shown');
		}
	});

	it('the aside.sendMessage command runs a turn and answers with its outcome', async () => {
		server.script({ text: 'Hello from the command.' });
		const result = await vscode.commands.executeCommand<{ sessionId: string; outcome: string }>('aside.sendMessage', 'Say hello.');
		assert.equal(result.outcome, 'done');
		const { hooks } = await activeAside();
		assert.equal(result.sessionId, hooks.currentSessionId());
		const answer = hooks.currentSessionItems().findLast((item) => item.kind === 'assistant');
		assert.equal(answer?.kind === 'assistant' ? answer.text : '', 'Hello from the command.');
		await assert.rejects(Promise.resolve(vscode.commands.executeCommand('aside.sendMessage')), /takes the text of the message/);
	});

	it('a 500 before dispatch is retried, and the retry carries the same reminder; one record', async () => {
		const { api } = await activeAside();
		const records: InjectionRecord[] = [];
		const listening = api.onDidRecordInjection((record) => records.push(record));
		const registration = api.registerReminder('aside-tests.integration', {
			type: 'marker',
			key: 'marker',
			label: 'test marker',
			purpose: 'Proves a reminder survives a retried request.',
			policy: 'on-change',
			content: () => 'The marker reminder body.',
		});
		try {
			server.script({ status: 500, message: 'the scripted server is down' }, { text: 'Recovered.' });
			const before = chatRequests(server).length;
			const result = await api.sendMessage('Hello after an outage.');
			assert.equal(result.outcome, 'done', result.error);
			const requests = chatRequests(server).slice(before);
			assert.equal(requests.length, 2, 'one failed attempt, one retry');
			assert.deepEqual(requests[1]?.body, requests[0]?.body, 'the retry sends the same payload');
			assert.equal(count(requests[1], '<system-reminder key="aside-tests.integration.marker">'), 1);
			assert.equal(records.length, 1);
			assert.deepEqual(records[0]?.entries.map((entry) => entry.key), ['aside-tests.integration.marker']);
		} finally {
			registration.dispose();
			listening.dispose();
		}
	});

	it('Stop before the provider answers leaves a readable transcript and no record for the cancelled request', async () => {
		const { api, hooks } = await activeAside();
		const records: InjectionRecord[] = [];
		const listening = api.onDidRecordInjection((record) => records.push(record));
		const registration = api.registerReminder('aside-tests.integration', {
			type: 'stopped',
			key: 'stopped',
			label: 'test stop',
			purpose: 'Proves a cancelled request records nothing.',
			policy: 'on-change',
			content: () => 'Never delivered.',
		});
		try {
			server.script({ delayMs: 20_000, text: 'too late' });
			const before = chatRequests(server).length;
			const sent = api.sendMessage('This one will be stopped.');
			await until(() => chatRequests(server).length, (n) => n > before, 'the request to reach the server');
			hooks.stop();
			const result = await sent;
			assert.equal(result.outcome, 'interrupted');
			assert.deepEqual(records, []);
			const lines = transcriptLines(hooks.sessionsDir, result.sessionId);
			assert.equal(lines.filter((line) => JSON.stringify(line).includes('Never delivered.')).length, 0, 'no record of the cancelled delivery');
			assert.deepEqual(lines.at(-1)?.kind, 'turn-end');
			assert.equal(lines.at(-1)?.outcome, 'interrupted');
			assert.equal(hooks.agentBusy(), false);
		} finally {
			registration.dispose();
			listening.dispose();
		}
	});

	it('a file the agent read and that then changed on disk is reported once, with its diff, at the next request', async () => {
		const { api, hooks } = await activeAside();
		// The change keeps the file's one type error where the diagnostics tests expect it.
		const file = workspaceFile('src/broken.ts');
		server.script({ toolCalls: [{ id: 'call_broken', name: 'Read', input: { path: 'src/broken.ts' } }] }, { text: 'It assigns a number to a string.' });
		assert.equal((await api.sendMessage('Read src/broken.ts.')).outcome, 'done');
		const before = readFileSync(file.fsPath, 'utf8');
		writeFileSync(file.fsPath, before.replace("'not a number'", "'still not a number'"));
		await until(() => hooks.pendingEditedFiles(), (n) => n > 0, 'the file watcher to see the change');
		server.script({ text: 'I see it changed.' }, { text: 'Nothing else.' });
		const first = chatRequests(server).length;
		assert.equal((await api.sendMessage('Did anything change?')).outcome, 'done');
		assert.equal((await api.sendMessage('And now?')).outcome, 'done');
		const [reported, after] = chatRequests(server).slice(first).map(messagesOf);
		const block = '<system-reminder key="files.edited">';
		const last = reported?.at(-1)?.content ?? '';
		assert.equal(count(chatRequests(server)[first], block), 1);
		assert.ok(last.includes(block), 'delivered in the synthetic message of the next request');
		assert.match(last, /changed outside Aside's tools/);
		assert.match(last, /src\/broken\.ts/);
		assert.match(last, /^-\tconst label: number = 'not a number';$/m);
		assert.match(last, /^\+\tconst label: number = 'still not a number';$/m);
		assert.doesNotMatch(last, /user or a linter|the user changed/i, 'never guesses who changed it');
		assert.ok(!(after?.at(-1)?.content ?? '').includes(block), 'not reported again');
	});

	it('reading a file deep in the tree delivers the AGENTS.md files on its path, broad to narrow, once', async () => {
		const { api } = await activeAside();
		const root = workspaceFile('.').fsPath;
		mkdirSync(join(root, 'sub', 'dir'), { recursive: true });
		writeFileSync(join(root, 'AGENTS.md'), 'Root rule: use tabs.\n');
		writeFileSync(join(root, 'sub', 'AGENTS.md'), 'Sub rule: no default exports.\n');
		writeFileSync(join(root, 'sub', 'dir', 'x.ts'), 'export const x = 1;\n');
		try {
			server.script(
				{ toolCalls: [{ id: 'call_x', name: 'Read', input: { path: 'sub/dir/x.ts' } }] },
				{ toolCalls: [{ id: 'call_x2', name: 'Read', input: { path: 'sub/dir/x.ts' } }] },
				{ text: 'Read it twice.' },
			);
			const first = chatRequests(server).length;
			assert.equal((await api.sendMessage('Look at sub/dir/x.ts.')).outcome, 'done');
			const requests = chatRequests(server).slice(first);
			const all = messagesOf(requests.at(-1)).map((message) => message.content ?? '').join('\n');
			const rootAt = all.indexOf('Root rule: use tabs.');
			const subAt = all.indexOf('Sub rule: no default exports.');
			assert.ok(rootAt !== -1 && subAt !== -1, 'both instruction files reached the model');
			assert.ok(rootAt < subAt, 'broad to narrow');
			assert.equal(all.split('Sub rule: no default exports.').length - 1, 1, 'once, although the file was read twice');
			assert.ok((messagesOf(requests[1]).at(-1)?.content ?? '').includes('Sub rule'), 'right after the Read that found it');
		} finally {
			rmSync(join(root, 'sub'), { recursive: true, force: true });
			rmSync(join(root, 'AGENTS.md'), { force: true });
		}
	});

	it('Stop mid-stream keeps what streamed as an interrupted answer and closes the connection', async () => {
		const { api, hooks } = await activeAside();
		server.script({ hangAfterAccept: true, text: 'Partial answer' });
		const disconnects = server.disconnects();
		const before = chatRequests(server).length;
		const sent = api.sendMessage('Start answering, then get stopped.');
		await until(() => chatRequests(server).length, (n) => n > before, 'the request to reach the server');
		// The server answers at once with its headers and a first event, then hangs.
		await new Promise((resolve) => setTimeout(resolve, 500));
		hooks.stop();
		const result = await sent;
		assert.equal(result.outcome, 'interrupted');
		await server.waitForDisconnects(disconnects + 1);
		const items = hooks.currentSessionItems();
		const answer = items.findLast((item) => item.kind === 'assistant');
		assert.ok(answer?.kind === 'assistant');
		assert.equal(answer.stop, 'interrupted');
		assert.equal(items.at(-1)?.kind, 'turn-end');
	});
});

describe('the agent on the Anthropic provider, with a scripted model server', function () {
	let server: ModelServer;
	let restore: () => Promise<void>;

	before(async () => {
		server = await startModelServer({ models: ['claude-scripted'] });
		restore = await useScriptedServer(server, { provider: 'anthropic', model: 'claude-scripted', mode: 'auto-edit', apiKey: 'sk-test-key-never-logged' });
		await vscode.commands.executeCommand('aside.newChat');
	});

	after(async () => {
		await restore();
		await server.close();
	});

	it('an edit that breaks the build: the next request names the new error, and the old one as context only', async () => {
		const { api, hooks } = await activeAside();
		// A file of its own (one type error already in it), so the diagnostics tests keep theirs.
		const file = workspaceFile('src/sum.ts');
		writeFileSync(file.fsPath, readFileSync(workspaceFile('src/broken.ts').fsPath, 'utf8'));
		try {
			// Not in an editor tab, so TypeScript has not checked it: Aside shows the file it edits
			// (aside.diagnostics.openEditedFiles), lets it be checked, and takes the baseline then.
			assert.ok(
				!vscode.window.tabGroups.all.some(
					(group) => group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === file.toString()),
				),
			);
			server.script(
				{ toolCalls: [{ id: 'toolu_read', name: 'Read', input: { path: 'src/sum.ts' } }] },
				{ toolCalls: [{ id: 'toolu_edit', name: 'Edit', input: { path: 'src/sum.ts', old_string: 'return sum + label;', new_string: 'return sum + label + missingName;' } }] },
				{ text: 'I will fix that.' },
			);
			const first = server.requests.length;
			const result = await api.sendMessage('Make total() add missingName.');
			assert.equal(result.outcome, 'done', result.error);
			const requests = server.requests.slice(first).filter((request) => request.path === '/v1/messages');
			const body = requests[2]?.body as { messages: { role: string; content: { type: string; text?: string }[] }[] };
			const last = body.messages.at(-1);
			const text = (last?.content ?? []).flatMap((part) => (part.type === 'text' ? [part.text ?? ''] : [])).join('\n');
			const rows = hooks.currentSessionItems().map((item) => item.kind).join(',');
			assert.equal(text.split('<system-reminder key="edit.diagnostics">').length - 1, 1, `one diagnostics block after the edit's result; sent ${JSON.stringify(last).slice(0, 600)}; rows ${rows}`);
			assert.match(text, /After your edit of src\/sum\.ts, 1 new problem:\n.*TS2304.*missingName/);
			assert.match(text, /Already there before your edit \(context only\):\n.*TS2322/);
			const tab = vscode.window.tabGroups.all.flatMap((group) => group.tabs).find(
				(candidate) => candidate.input instanceof vscode.TabInputText && candidate.input.uri.toString() === file.toString(),
			);
			assert.ok(tab, 'the edited file is in an editor tab');
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			rmSync(file.fsPath, { force: true });
		}
	});

	it('sends the key from secret storage, the system prompt on its own, and tool results first in the next user message', async () => {
		const { api, hooks } = await activeAside();
		server.script({ toolCalls: [{ id: 'toolu_1', name: 'Grep', input: { pattern: 'greet' } }] }, { text: 'Found it in src/greeting.ts.' });
		const before = server.requests.length;
		const result = await api.sendMessage('Where is greet defined?');
		assert.equal(result.outcome, 'done', result.error);
		const requests = server.requests.slice(before).filter((request) => request.path === '/v1/messages');
		assert.equal(requests.length, 2);
		assert.equal(requests[0]?.headers['x-api-key'], 'sk-test-key-never-logged');
		const body = requests[1]?.body as {
			system?: { text?: string }[];
			messages: { role: string; content: { type: string; tool_use_id?: string; text?: string; content?: string }[] }[];
		};
		// One text block, so it can carry a prompt-cache breakpoint (docs/providers.md).
		assert.equal(body.system?.length, 1);
		assert.match(body.system[0]?.text ?? '', /^You are Aside, a coding agent/);
		const last = body.messages.at(-1);
		assert.ok(last);
		const [first] = last.content;
		assert.ok(first);
		assert.deepEqual([last.role, first.type, first.tool_use_id], ['user', 'tool_result', 'toolu_1']);
		assert.match(JSON.stringify(first.content), /greeting\.ts/, 'Grep found the function');
		const log = readFileSync(join(hooks.sessionsDir, `${result.sessionId}.jsonl`), 'utf8');
		assert.ok(!log.includes('sk-test-key'), 'the key is not in the transcript');
	});
});
