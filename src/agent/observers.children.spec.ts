// files.edited for sub-agents: a child waiting for the model hears of files changed outside
// Aside's tools, once, and the root still hears of them itself.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeFileEvents } from '../testing/fakeFileEvents';
import { userText } from '../testing/history';
import { MemoryWorkspaceFs } from '../testing/memoryWorkspace';
import { RecordingLogger } from '../testing/recordingLogger';
import { testSessions } from '../testing/sessions';
import type { Owner } from '../reminders/definition';
import type { ReminderEngine } from '../reminders/engine';
import { createSessionObservers } from './currentObservers';

const A = '/w/a.ts';
const signal = new AbortController().signal;
let requests = 0;

/** The files.edited body `owner`'s next request carries (committed as dispatched), if any. */
async function edited(engine: ReminderEngine, owner: Owner): Promise<string | undefined> {
	const injection = engine.wait({ requestId: `r${++requests}`, owner, phase: 'mid-turn', messages: [userText('go')] }, undefined);
	await injection.commit();
	return injection.record?.entries.find((entry) => entry.key === 'files.edited')?.body ?? undefined;
}

describe('files changed outside Aside, for sub-agents', () => {
	it('a child is told at its next WAIT, once; the root is told too', async () => {
		const files = new Map([[A, 'one\n']]);
		const events = new FakeFileEvents();
		const engine = testSessions().current.reminders;
		const observers = createSessionObservers(engine, { fs: new MemoryWorkspaceFs(files), fileEvents: events, roots: () => ['/w'], editedFiles: {}, log: new RecordingLogger() });
		const root = engine.beginUserTurn('t1');
		await observers.afterTool({ name: 'Read' }, { content: 'shown', touched: [{ path: A, access: 'read', text: 'one\n' }] }, root, signal);
		const child = engine.spawnAgent('root/explore#1').owner;
		files.set(A, 'two\n');
		events.fireChange(A);

		await observers.beforeWait(child, signal);
		assert.match((await edited(engine, child)) ?? '', /a\.ts[\s\S]*-one[\s\S]*\+two/);
		await observers.beforeWait(child, signal);
		assert.equal(await edited(engine, child), undefined, 'told once');

		await observers.beforeWait(root, signal);
		assert.match((await edited(engine, root)) ?? '', /a\.ts[\s\S]*\+two/, 'the child did not take the report from the root');
		await observers.beforeWait(root, signal);
		assert.equal(await edited(engine, root), undefined);
		observers.dispose();
	});
});
