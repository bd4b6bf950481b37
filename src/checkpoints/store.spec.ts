// The checkpoint store on a real temp folder: what a keep writes (created, changed, deleted),
// dedup, the manifest's damaged lines, copyChat and deleteChat, the bound (oldest chats first)
// and the collector, and that a crash mid-write never leaves a half blob under a real name.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { FakeClock } from '../testing/fakeClock';
import { RecordingLogger } from '../testing/recordingLogger';
import type { FileChange } from '../tools/changes';
import { hashText } from './blobs';
import { FileCheckpointStore, storedBytes } from './store';

const folders: string[] = [];
const stores: FileCheckpointStore[] = [];
afterEach(async () => {
	// A store makes its shard folders at startup, in the background: done before its folder goes.
	await Promise.all(stores.splice(0).map((store) => store.shardsMade));
	for (const folder of folders.splice(0)) {
		rmSync(folder, { recursive: true, force: true });
	}
});

function makeStore(graceMs = 0): { store: FileCheckpointStore; dir: string; clock: FakeClock; log: RecordingLogger } {
	const dir = mkdtempSync(join(tmpdir(), 'aside-checkpoints-'));
	folders.push(dir);
	const clock = new FakeClock(Date.now());
	const log = new RecordingLogger();
	const store = new FileCheckpointStore({ dir, clock, log, graceMs });
	stores.push(store);
	return { store, dir, clock, log };
}

const change = (shown: string, before: string | null, after: string | null): FileChange => ({ path: `/ws/${shown}`, shown, before, after });

function blobFiles(dir: string): string[] {
	const root = join(dir, 'blobs');
	return readdirSync(root).flatMap((shard) => readdirSync(join(root, shard)));
}

describe('FileCheckpointStore', () => {
	it('a change that starts from the text last kept names its blob without writing it again, and writes it again when it is gone', async () => {
		const { store, dir } = makeStore();
		await store.recorder('s1', 't1').keep([change('a.ts', 'v1\n', 'v2\n')]);
		await store.settled();
		const blob = join(dir, 'blobs', hashText('v2\n').slice(0, 2), hashText('v2\n'));
		const written = statSync(blob).ino;
		await store.recorder('s1', 't2').keep([change('a.ts', 'v2\n', 'v3\n')]);
		await store.settled();
		assert.equal(statSync(blob).ino, written, 'the same file: not written again');
		assert.equal(store.chat('s1').entries()[1]?.before, hashText('v2\n'));
		// Another window's bound took the blob meanwhile: the next keep puts it back.
		rmSync(join(dir, 'blobs', hashText('v3\n').slice(0, 2), hashText('v3\n')));
		await store.recorder('s1', 't3').keep([change('a.ts', 'v3\n', 'v4\n')]);
		await store.settled();
		assert.equal(await store.chat('s1').text(hashText('v3\n')), 'v3\n');
		// A text that is not the one last kept (the person changed the file) is kept as itself.
		await store.recorder('s1', 't4').keep([change('a.ts', 'v4 edited\n', 'v5\n')]);
		await store.settled();
		assert.equal(await store.chat('s1').text(hashText('v4 edited\n')), 'v4 edited\n');
	});

	it('keeps before and after of a changed, a created and a deleted file, grouped by turn, and reads the texts back', async () => {
		const { store, clock } = makeStore();
		await store.recorder('s1', 't1').keep([change('a.ts', 'old a\n', 'new a\n'), change('b.ts', null, 'made b\n'), change('c.ts', 'gone c\n', null)]);
		clock.advance(10);
		await store.recorder('s1', 't2').keep([change('a.ts', 'new a\n', 'newer a\n')]);
		await store.settled();
		const chat = store.chat('s1');
		const entries = chat.entries();
		assert.deepEqual(
			entries.map((entry) => [entry.turnId, entry.shown, entry.before, entry.after]),
			[
				['t1', 'a.ts', hashText('old a\n'), hashText('new a\n')],
				['t1', 'b.ts', null, hashText('made b\n')],
				['t1', 'c.ts', hashText('gone c\n'), null],
				['t2', 'a.ts', hashText('new a\n'), hashText('newer a\n')],
			],
		);
		const [first, , , last] = entries;
		assert.ok(first && last);
		assert.equal(first.path, '/ws/a.ts');
		assert.equal(last.at, first.at + 10);
		assert.equal(await chat.text(hashText('old a\n')), 'old a\n');
		assert.equal(await chat.text(hashText('gone c\n')), 'gone c\n');
		assert.equal(await chat.text(hashText('never kept')), undefined);
		assert.deepEqual(store.chat('other').entries(), []);
	});

	it('writes a text once: the same content in two files, two turns and two chats is one blob', async () => {
		const { store, dir } = makeStore();
		await store.recorder('s1', 't1').keep([change('a.ts', 'same\n', 'x\n'), change('b.ts', 'same\n', 'x\n')]);
		await store.settled();
		const path = store.blobs.pathOf(hashText('same\n'));
		const first = statSync(path);
		await store.recorder('s2', 't9').keep([change('c.ts', 'same\n', null)]);
		await store.settled();
		assert.deepEqual(blobFiles(dir).sort(), [hashText('same\n'), hashText('x\n')].sort());
		// Not written again (same inode, same size); only touched for the collector's grace period.
		assert.equal(statSync(path).ino, first.ino);
		assert.equal(readFileSync(path, 'utf8'), 'same\n');
	});

	it('before the write copies the previous text aside and records the change; just after, hashes both texts into blobs and settles the line', async () => {
		const { store, dir } = makeStore();
		await store.shardsMade;
		await store.recorder('s1', 't1').keep([change('a.ts', 'was\n', 'is now\n')]);
		// Before the write: a copy of the previous text aside, no blob, an entry whose texts are not known yet.
		assert.deepEqual(readdirSync(join(dir, 'pending')).map((name) => readFileSync(join(dir, 'pending', name), 'utf8')), ['was\n']);
		assert.deepEqual(blobFiles(dir), []);
		assert.deepEqual(
			store.chat('s1').entries().map((entry) => [entry.before, entry.after]),
			[[undefined, undefined]],
		);
		await store.settled();
		assert.deepEqual(readdirSync(join(dir, 'pending')), [], 'the copy moved into the blobs');
		assert.equal(readFileSync(store.blobs.pathOf(hashText('was\n')), 'utf8'), 'was\n');
		const after = store.blobs.pathOf(hashText('is now\n'));
		assert.equal(readFileSync(after, 'utf8'), 'is now\n');
		assert.deepEqual(
			store.chat('s1').entries().map((entry) => [entry.before, entry.after]),
			[[hashText('was\n'), hashText('is now\n')]],
		);
		const lines = readFileSync(join(dir, 'chats', 's1.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
		assert.equal(lines.length, 2);
		assert.equal(lines[1]?.settles, lines[0]?.id);
		// The next change starts from it: nothing copied aside, the blob written just now not written again.
		const written = statSync(after).ino;
		await store.recorder('s1', 't2').keep([change('a.ts', 'is now\n', 'then\n')]);
		assert.deepEqual(readdirSync(join(dir, 'pending')), []);
		assert.equal(statSync(after).ino, written);
		assert.equal(store.chat('s1').entries()[1]?.before, hashText('is now\n'));
		await store.settled();
	});

	it('a copy aside that a crash left unsettled is recovered at the next start: hashed, moved into the blobs, settled into its chat', async () => {
		const { store, dir, log, clock } = makeStore();
		// As a window that crashed between the write and settling its line left it.
		writeFileSync(join(dir, 'chats', 's1.jsonl'), `${JSON.stringify({ turnId: 't1', at: 1, path: '/ws/a.ts', shown: 'a.ts', id: 'abc123' })}\n`);
		writeFileSync(join(dir, 'pending', 's1.abc123'), 'the text before\n');
		writeFileSync(join(dir, 'pending', 's1.abc124.beef.tmp'), 'half a cop');
		assert.deepEqual(
			store.chat('s1').entries().map((entry) => [entry.before, entry.after]),
			[[undefined, undefined]],
		);
		clock.advance(1000);
		await store.enforceBound(1 << 30);
		assert.deepEqual(readdirSync(join(dir, 'pending')), [], 'the copy recovered, the torn temporary file removed');
		const [entry] = store.chat('s1').entries();
		assert.equal(entry?.before, hashText('the text before\n'));
		assert.equal(entry.after, undefined, 'the new text was never kept: not known');
		assert.equal(await store.chat('s1').text(hashText('the text before\n')), 'the text before\n');
		assert.match(log.at('info').join('\n'), /recovered 1 earlier file content/);
	});

	it('an entry no line settles (the window closed first) has an unknown new text; a settle line for a damaged entry settles nothing', async () => {
		const { store, dir, log } = makeStore();
		const manifest = join(dir, 'chats', 's1.jsonl');
		writeFileSync(
			manifest,
			[
				JSON.stringify({ turnId: 't1', at: 1, path: '/ws/a.ts', shown: 'a.ts', before: hashText('a0'), id: 'one' }),
				JSON.stringify({ turnId: 't1', at: 2, path: '/ws/b.ts', shown: 'b.ts', before: null, id: 'two' }),
				JSON.stringify({ settles: 'two', after: hashText('b1') }),
				JSON.stringify({ settles: 'nobody', after: hashText('x') }),
				JSON.stringify({ turnId: 't1', at: 3, path: '/ws/c.ts', shown: 'c.ts', before: null }),
				'',
			].join('\n'),
		);
		assert.deepEqual(
			store.chat('s1').entries().map((entry) => [entry.shown, entry.after]),
			[
				['a.ts', undefined],
				['b.ts', hashText('b1')],
			],
		);
		assert.match(log.at('warn').join('\n'), /line 5 is damaged/);
		// Copied to a fork, it stays unknown there.
		await store.copyChat('s1', 'fork', new Set(['t1']));
		assert.deepEqual(
			store.chat('fork').entries().map((entry) => [entry.shown, entry.after]),
			[
				['a.ts', undefined],
				['b.ts', hashText('b1')],
			],
		);
	});

	it('a change that starts from a text whose blob is still waiting waits for it; flush() writes what waits at once', async () => {
		const { store } = makeStore();
		const recorder = store.recorder('s1', 't1');
		await recorder.keep([change('a.ts', 'one\n', 'two\n')]);
		// No turn of the event loop in between: the blob of 'two' is still waiting.
		assert.equal(existsSync(store.blobs.pathOf(hashText('two\n'))), false);
		await recorder.keep([change('a.ts', 'two\n', 'three\n')]);
		assert.equal(readFileSync(store.blobs.pathOf(hashText('two\n')), 'utf8'), 'two\n', 'written before it is named as a before');
		assert.equal(existsSync(store.blobs.pathOf(hashText('three\n'))), false);
		store.flush();
		assert.equal(readFileSync(store.blobs.pathOf(hashText('three\n')), 'utf8'), 'three\n');
		await store.settled();
	});

	it('a new text whose blob cannot be written is logged, and the next change of that file keeps it again as its before', async () => {
		const { store, log } = makeStore();
		const hash = hashText('unlucky\n');
		const shard = join(store.blobs.dir, hash.slice(0, 2));
		await store.shardsMade;
		rmSync(shard, { recursive: true, force: true });
		writeFileSync(shard, 'not a folder');
		await store.recorder('s1', 't1').keep([change('u.ts', 'fine\n', 'unlucky\n')]);
		await store.settled();
		assert.match(log.at('warn').join('\n'), /could not keep the new content of u\.ts/);
		assert.equal(await store.chat('s1').text(hash), undefined);
		rmSync(shard, { force: true });
		await store.recorder('s1', 't2').keep([change('u.ts', 'unlucky\n', 'better\n')]);
		await store.settled();
		assert.equal(await store.chat('s1').text(hash), 'unlucky\n');
	});

	it('skips a damaged manifest line with a warning and keeps the lines around it', async () => {
		const { store, dir, log } = makeStore();
		await store.recorder('s1', 't1').keep([change('a.ts', 'a0', 'a1')]);
		appendFileSync(join(dir, 'chats', 's1.jsonl'), '{"turnId":"t1","at":1,"path":"/ws/x","shown":"x","before":"not a hash"}\n{torn');
		await store.recorder('s1', 't2').keep([change('b.ts', 'b0', 'b1')]);
		assert.deepEqual(
			store.chat('s1').entries().map((entry) => entry.shown),
			['a.ts', 'b.ts'],
		);
		assert.equal(log.at('warn').length, 2);
		assert.match(log.at('warn')[0] ?? '', /s1\.jsonl line 2 is damaged/);
	});

	it('reads a blob that does not hash to its name as gone (the restore preview says its content was not kept)', async () => {
		const { store } = makeStore();
		await store.recorder('s1', 't1').keep([change('a.ts', 'precious\n', 'b\n')]);
		await store.settled();
		const hash = hashText('precious\n');
		writeFileSync(store.blobs.pathOf(hash), 'precio');
		assert.equal(await store.chat('s1').text(hash), undefined);
	});

	it('a previous text that cannot be copied aside fails the keep (the write is refused), and nothing is recorded', async () => {
		const { store, dir } = makeStore();
		rmSync(join(dir, 'pending'), { recursive: true, force: true });
		// A file where the folder should be: the copy fails as on a full disk.
		writeFileSync(join(dir, 'pending'), 'not a folder');
		await assert.rejects(store.recorder('s1', 't1').keep([change('a.ts', 'big text', 'small')]), /could not keep the content of a\.ts/);
		assert.deepEqual(store.chat('s1').entries(), []);
		await store.settled();
		assert.equal(existsSync(store.blobs.pathOf(hashText('small'))), false, 'nothing kept after the write that did not happen');
	});

	it('never leaves a half blob: a blob that cannot be written leaves no blob under the real name', async () => {
		const { store } = makeStore();
		const hash = hashText('big text');
		await store.shardsMade;
		const shard = join(store.blobs.dir, hash.slice(0, 2));
		rmSync(shard, { recursive: true, force: true });
		writeFileSync(shard, 'not a folder');
		await assert.rejects(store.blobs.put('big text'));
		assert.equal(existsSync(store.blobs.pathOf(hash)), false);
	});

	it('collects the temporary files a crash left, and unreferenced blobs, only past the grace period', async () => {
		const { store, dir, clock } = makeStore(60_000);
		await store.recorder('s1', 't1').keep([change('a.ts', 'kept', 'k2')]);
		const orphan = await store.blobs.put('nobody names me');
		const crashed = `${store.blobs.pathOf(hashText('half'))}.abc.tmp`;
		mkdirSync(dirname(crashed), { recursive: true });
		writeFileSync(crashed, 'ha');
		let report = await store.enforceBound(1 << 30);
		assert.equal(report.removedBlobs, 0, 'young orphans stay: a keep may be between its blob and its line');
		clock.advance(61_000);
		report = await store.enforceBound(1 << 30);
		assert.equal(report.removedBlobs, 2);
		assert.equal(existsSync(store.blobs.pathOf(orphan)), false);
		assert.equal(existsSync(crashed), false);
		assert.deepEqual(blobFiles(dir).sort(), [hashText('kept'), hashText('k2')].sort());
	});

	it('drops whole chats, oldest last change first, until the blobs fit, then the blobs only they named', async () => {
		const { store, clock } = makeStore();
		const text = (name: string) => name.padEnd(8, '_') + 'x'.repeat(992);
		await store.recorder('old', 't1').keep([change('a.ts', text('old-a'), text('shared'))]);
		clock.advance(1000);
		await store.recorder('newest', 't1').keep([change('a.ts', text('new-a'), text('new-b'))]);
		clock.advance(1000);
		await store.recorder('middle', 't1').keep([change('m.ts', text('mid-a'), text('shared'))]);
		clock.advance(1000);
		// The chat made first changed last: its last change counts, not its first.
		await store.recorder('newest', 't2').keep([change('z.ts', null, text('z'))]);
		await store.settled();
		assert.equal(await storedBytes(store), 6000);
		const report = await store.enforceBound(4000);
		// Dropping `old` frees only its own blob (middle still names `shared`): 5000 > 4000, so middle goes too.
		assert.deepEqual(report.droppedChats, ['old', 'middle']);
		assert.equal(report.bytesAfter, 3000);
		assert.equal(await storedBytes(store), 3000);
		assert.equal(store.chat('newest').entries().length, 2);
		assert.equal(await store.chat('newest').text(hashText(text('new-a'))), text('new-a'));
		assert.deepEqual(store.chat('middle').entries(), []);
	});

	it('keeps dropping until under the bound, and leaves the chats alone when under it', async () => {
		const { store, clock } = makeStore();
		const text = (name: string) => `${name}:${'y'.repeat(100)}`;
		for (const id of ['c1', 'c2', 'c3']) {
			await store.recorder(id, 't').keep([change('f.ts', text(`${id}-before`), text(`${id}-after`))]);
			clock.advance(10);
		}
		assert.deepEqual((await store.enforceBound(10_000)).droppedChats, []);
		const report = await store.enforceBound(2 * 110);
		assert.deepEqual(report.droppedChats, ['c1', 'c2']);
		assert.deepEqual(store.chat('c1').entries(), []);
		assert.equal(store.chat('c3').entries().length, 1);
		assert.equal(await storedBytes(store), report.bytesAfter);
		assert.equal(report.bytesAfter <= 2 * 110, true);
	});

	it('copyChat gives a fork the entries of the turns it copies, without copying blobs', async () => {
		const { store, dir } = makeStore();
		await store.recorder('src', 't1').keep([change('a.ts', 'a0', 'a1')]);
		await store.recorder('src', 't2').keep([change('b.ts', null, 'b1')]);
		await store.recorder('src', 't3').keep([change('a.ts', 'a1', 'a3')]);
		await store.settled();
		const blobsBefore = blobFiles(dir).length;
		await store.copyChat('src', 'fork', new Set(['t1', 't2']));
		assert.deepEqual(
			store.chat('fork').entries().map((entry) => [entry.turnId, entry.shown]),
			[
				['t1', 'a.ts'],
				['t2', 'b.ts'],
			],
		);
		assert.equal(blobFiles(dir).length, blobsBefore);
		assert.equal(await store.chat('fork').text(hashText('a0')), 'a0');
		// Deleting the source leaves the fork's texts.
		await store.deleteChat('src');
		assert.equal(await store.chat('fork').text(hashText('a0')), 'a0');
		assert.equal(await store.chat('fork').text(hashText('a3')), undefined);
	});

	it('deleteChat removes the manifest and the blobs no other chat names', async () => {
		const { store, dir } = makeStore(60_000);
		await store.recorder('gone', 't1').keep([change('a.ts', 'only mine', 'shared')]);
		await store.recorder('stays', 't1').keep([change('b.ts', 'theirs', 'shared')]);
		await store.deleteChat('gone');
		assert.equal(existsSync(join(dir, 'chats', 'gone.jsonl')), false);
		assert.deepEqual(blobFiles(dir).sort(), [hashText('shared'), hashText('theirs')].sort());
		await store.deleteChat('never-had-any');
	});

	it('refuses a session id that is not a plain file name', () => {
		const { store } = makeStore();
		assert.throws(() => store.recorder('../escape', 't1'), /Not a chat id/);
		assert.throws(() => store.chat('a/b'), /Not a chat id/);
	});

	it('survives a manifest line torn by a crash: the next keep starts a new line', async () => {
		const { store, dir } = makeStore();
		await store.recorder('s1', 't1').keep([change('a.ts', 'a0', 'a1')]);
		appendFileSync(join(dir, 'chats', 's1.jsonl'), '{"turnId":"t1","at":');
		await store.recorder('s1', 't2').keep([change('b.ts', 'b0', 'b1')]);
		assert.deepEqual(
			store.chat('s1').entries().map((entry) => entry.turnId),
			['t1', 't2'],
		);
	});

	it('an old blob that a new keep names again is touched, so the collector of another window leaves it', async () => {
		const { store } = makeStore(60_000);
		await store.recorder('s1', 't1').keep([change('a.ts', 'reused', 'r2')]);
		await store.settled();
		const path = store.blobs.pathOf(hashText('reused'));
		const old = new Date(Date.now() - 3_600_000);
		utimesSync(path, old, old);
		await store.recorder('s2', 't1').keep([change('b.ts', 'reused', null)]);
		await store.settled();
		assert.equal(statSync(path).mtimeMs > old.getTime() + 1000, true);
	});
});
