// A chat switched away from and back (the same as a reload: the session is opened again from its
// records) keeps what its agent saw of each file: the real Read, Edit and Write over a temporary
// workspace, their results recorded as a turn records them, and the current session's observers.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { after, describe, it } from 'node:test';
import { FakeFileEvents } from '../testing/fakeFileEvents';
import { userText } from '../testing/history';
import { NodeWorkspaceFs, nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { RecordingLogger } from '../testing/recordingLogger';
import { testSessions } from '../testing/sessions';
import { editTool } from '../tools/edit';
import { readTool } from '../tools/read';
import type { Tool } from '../tools/tool';
import { writeTool } from '../tools/write';
import { CurrentObservers } from './currentObservers';
import type { SessionObservers } from './observers';
import type { ChatSession } from './session';

const workspace = tempWorkspace('aside-reopened-');
after(() => {
	workspace.dispose();
});
const { root } = workspace;
const file = (name: string): string => nodePath.join(root, name);
const signal = new AbortController().signal;
let calls = 0;

/** Runs a real tool with the session's guard and records its call and result as a turn does. */
async function call<I>(session: ChatSession, observers: SessionObservers, tool: Tool<I>, input: I): Promise<string> {
	const id = `c${++calls}`;
	const result = await tool.run(input, nodeToolContext([root], signal, observers.seen));
	session.append({ kind: 'assistant', id: `a${id}`, turnId: 't1', requestId: `r${id}`, at: 0, text: '', toolCalls: [{ id, name: tool.name, input }], stop: 'tool-use' });
	session.append({ kind: 'tool-result', id: `t${id}`, turnId: 't1', callId: id, name: tool.name, at: 0, content: result.content, isError: false, ...(result.notices ? { notices: [...result.notices] } : {}), ...(result.detail ? { detail: result.detail } : {}) });
	await observers.afterTool({ name: tool.name }, result, { kind: 'root', id: 't1' }, signal);
	return result.content;
}

describe('a reopened chat\'s stale-write guard and edited-files cache', () => {
	it('are rebuilt from its records: Edit goes on where the file is as the agent saw it, asks for a Read where it changed, and the change is reported', async () => {
		writeFileSync(file('a.ts'), 'export const a = 1;\nexport const b = 2;\n');
		writeFileSync(file('b.ts'), 'one\r\ntwo\r\n');
		writeFileSync(file('long.ts'), 'l1\nl2\nl3\n');
		writeFileSync(file('noeol.ts'), 'last line without a break');
		const events = new FakeFileEvents();
		const sessions = testSessions();
		const current = new CurrentObservers(
			sessions,
			{ fs: new NodeWorkspaceFs(), fileEvents: events, roots: () => [root], editedFiles: {}, log: new RecordingLogger() },
		);
		const first = sessions.current;
		first.append({ kind: 'user', id: 'u1', turnId: 't1', at: 0, text: 'Work on the files.' });
		const observers = current.current as SessionObservers;
		await call(first, observers, readTool, { path: 'a.ts' });
		await call(first, observers, editTool, { path: 'a.ts', old_string: 'const b = 2', new_string: 'const b = 3' });
		await call(first, observers, readTool, { path: 'b.ts' });
		await call(first, observers, readTool, { path: 'noeol.ts' });
		await call(first, observers, writeTool, { path: 'c.ts', content: 'created\n' });
		await call(first, observers, readTool, { path: 'long.ts', limit: 1 });
		const id = first.id;

		sessions.newSession();
		// While the chat is closed, someone changes b.ts.
		writeFileSync(file('b.ts'), 'one\r\nTWO\r\n');
		const reopened = sessions.open(id);
		assert.equal(await current.filesRestored, 4, 'a.ts (read, then edited), b.ts, noeol.ts and c.ts (written)');
		const again = current.current as SessionObservers;
		assert.notEqual(again, observers);

		const edit = (path: string, from: string, to: string) => editTool.run(
			{ path, old_string: from, new_string: to },
			nodeToolContext([root], signal, again.seen),
		);
		await edit('a.ts', 'const a = 1', 'const a = 10');
		assert.equal(readFileSync(file('a.ts'), 'utf8'), 'export const a = 10;\nexport const b = 3;\n');
		await edit('c.ts', 'created', 'changed');
		await edit('noeol.ts', 'last line', 'the last line');
		await assert.rejects(edit('b.ts', 'one', 'ONE'), /b\.ts changed since you last read it/);
		await assert.rejects(edit('long.ts', 'l1', 'L1'), /long\.ts has not been read in this chat/, 'a partial Read does not say what the rest was');

		// What changed while it was closed is told at the next WAIT, as a change outside Aside's tools.
		const owner = reopened.reminders.beginUserTurn('t2');
		await again.beforeWait(owner, signal);
		const injection = reopened.reminders.wait({ requestId: 'r-next', owner, phase: 'turn-start', messages: [userText('Go on.')] }, undefined);
		const report = injection.record?.entries.find((entry) => entry.key === 'files.edited')?.body ?? '';
		assert.match(report, /b\.ts/);
		assert.match(report, /-two/);
		assert.match(report, /\+TWO/);
		assert.doesNotMatch(report, /a\.ts|c\.ts|noeol\.ts/);
		await injection.commit();
		await edit('b.ts', 'one', 'ONE');

		// The cache holds the files again: a later outside change of one is reported.
		writeFileSync(file('a.ts'), 'export const a = 11;\nexport const b = 3;\n');
		events.fireChange(file('a.ts'));
		assert.equal(again.pendingCount, 1);
		current.dispose();
	});
});
