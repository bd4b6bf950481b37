// Deleting a chat, on a real folder with two windows: its transcript, content and plan folders
// and index entry go, and so do its checkpoints; a chat another window holds, and the chat a
// turn runs in, are refused and keep everything; deleting the current chat starts a new one.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { MemoryCheckpointStore } from '../testing/memoryCheckpoints';
import { RecordingLogger } from '../testing/recordingLogger';
import { appendUser, testEnvironment } from '../testing/sessions';
import { deleteChat } from './chatDeletion';
import { FileSessionLibrary } from './library';
import { ChatSessions } from './sessions';

const root = mkdtempSync(join(tmpdir(), 'aside-delete-'));
after(() => {
	rmSync(root, { recursive: true, force: true });
});
let dirs = 0;

function windowOn(dir: string, prefix: string) {
	const log = new RecordingLogger();
	const env = { ...testEnvironment(new FakeClock(Date.UTC(2026, 10, 30, 9)), new SequentialIds(prefix)), log };
	const library = new FileSessionLibrary(dir, () => env.clock.now(), log);
	return { library, sessions: new ChatSessions(library, env), log };
}

async function keptFor(checkpoints: MemoryCheckpointStore, sessionId: string): Promise<void> {
	await checkpoints.recorder(sessionId, 't1').keep([{ path: '/ws/a.ts', shown: 'a.ts', before: 'a0', after: 'a1' }]);
}

describe('deleting a chat', () => {
	it('removes a stored chat: transcript, content and plan folders, index entry, checkpoints', async () => {
		const dir = join(root, `ws${++dirs}`);
		const window = windowOn(dir, 'a');
		const checkpoints = new MemoryCheckpointStore();
		const old = window.sessions.current;
		appendUser(old, 'the old chat');
		await keptFor(checkpoints, old.id);
		mkdirSync(join(dir, `${old.id}.files`));
		writeFileSync(join(dir, `${old.id}.files`, 'big.txt'), 'output');
		mkdirSync(join(dir, `${old.id}.plans`));
		window.sessions.newSession();
		appendUser(window.sessions.current, 'the chat that stays');
		await keptFor(checkpoints, window.sessions.current.id);
		assert.deepEqual(window.sessions.list().map((chat) => chat.title).sort(), ['the chat that stays', 'the old chat']);

		const deleted: string[] = [];
		window.sessions.onDidDelete((id) => deleted.push(id));
		assert.equal(await deleteChat(old.id, { sessions: window.sessions, running: () => false, checkpoints, log: window.log }), undefined);
		assert.deepEqual(deleted, [old.id], 'said, so what still runs for it ends');
		assert.equal(existsSync(join(dir, `${old.id}.jsonl`)), false);
		assert.equal(existsSync(join(dir, `${old.id}.files`)), false);
		assert.equal(existsSync(join(dir, `${old.id}.plans`)), false);
		assert.equal(existsSync(join(dir, `${old.id}.lock`)), false);
		assert.deepEqual(window.sessions.list().map((chat) => chat.title), ['the chat that stays']);
		assert.doesNotMatch(readFileSync(join(dir, 'index.json'), 'utf8'), new RegExp(old.id));
		assert.deepEqual(checkpoints.chat(old.id).entries(), []);
		assert.equal(checkpoints.chat(window.sessions.current.id).entries().length, 1, "another chat's checkpoints stay");
	});

	it('deleting the current chat starts a new one; while a turn runs it is refused', async () => {
		const dir = join(root, `ws${++dirs}`);
		const window = windowOn(dir, 'a');
		const checkpoints = new MemoryCheckpointStore();
		const current = window.sessions.current;
		appendUser(current, 'working');
		await keptFor(checkpoints, current.id);
		assert.equal(await deleteChat(current.id, { sessions: window.sessions, running: () => true, checkpoints, log: window.log }), 'This chat is working: stop it first, then delete it.');
		assert.equal(window.sessions.current, current);
		assert.equal(existsSync(join(dir, `${current.id}.jsonl`)), true);
		assert.equal(checkpoints.chat(current.id).entries().length, 1);

		assert.equal(await deleteChat(current.id, { sessions: window.sessions, running: () => false, checkpoints, log: window.log }), undefined);
		assert.notEqual(window.sessions.current.id, current.id);
		assert.equal(window.sessions.current.isEmpty, true);
		assert.equal(existsSync(join(dir, `${current.id}.jsonl`)), false);
		assert.deepEqual(checkpoints.chat(current.id).entries(), []);
	});

	it('refuses a chat another window holds, and keeps all of it', async () => {
		const dir = join(root, `ws${++dirs}`);
		const a = windowOn(dir, 'a');
		const b = windowOn(dir, 'b');
		const checkpoints = new MemoryCheckpointStore();
		const held = a.sessions.current;
		appendUser(held, 'held by window a');
		await keptFor(checkpoints, held.id);
		const refused = await deleteChat(held.id, { sessions: b.sessions, running: () => false, checkpoints, log: b.log });
		assert.match(refused ?? '', /^It is open in another window \(process \d+, since .*\); close it there first\.$/);
		assert.equal(existsSync(join(dir, `${held.id}.jsonl`)), true);
		assert.equal(checkpoints.chat(held.id).entries().length, 1);
		// Shown read-only in b (current there): refused too.
		b.sessions.open(held.id);
		assert.match((await deleteChat(held.id, { sessions: b.sessions, running: () => false, checkpoints, log: b.log })) ?? '', /open in another window/);
		assert.equal(b.sessions.current.id, held.id);
	});
});
