// A fork in a git worktree, with real git in temporary repositories: the
// worktree is made from the chosen base with the chat's files restored into it (shared paths and
// missing blobs listed), nothing is left behind when git refuses, and the handoff to the new
// window is written, taken once, and ignored when stale or malformed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { entriesFrom, planRestore } from '../../checkpoints/restorePlan';
import { FileCheckpointStore } from '../../checkpoints/store';
import type { CheckpointEntry } from '../../checkpoints/types';
import { restoreReport } from '../../reminders/builtin/sessionFork';
import { MemoryCheckpointStore } from '../../testing/memoryCheckpoints';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { RecordingLogger } from '../../testing/recordingLogger';
import { MemoryLibrary, testEnvironment } from '../../testing/sessions';
import type { AgentRecord } from '../../transcript/records';
import { ChatSessions } from '../sessions';
import { addWorktree, branchProblem, GitError } from './git';
import { discardHandoff, HANDOFF_MAX_AGE_MS, handoffBlobsPath, handoffPath, sweepHandoffs, takeHandoff, writeHandoff } from './handoff';
import { adoptHandoff, defaultWorktreeFolder, folderProblem, makeWorktreeFork } from './worktreeFork';
import { insideRepository, latestChanges } from './worktreeRestore';

const T0 = Date.UTC(2026, 11, 1, 9);
const root = realpathSync(mkdtempSync(join(tmpdir(), 'aside-worktrees-')));
after(() => {
	rmSync(root, { recursive: true, force: true });
});
let repos = 0;

function run(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' } }).trim();
}

/** A repository with two commits: `a.ts` is "one" in the first, "two" in the second. */
function repository(): { repo: string; first: string; second: string } {
	const repo = join(root, `repo${++repos}`);
	mkdirSync(join(repo, 'src'), { recursive: true });
	run(repo, 'init', '-q', '-b', 'main');
	writeFileSync(join(repo, 'src', 'a.ts'), 'one\n');
	run(repo, 'add', '.');
	run(repo, 'commit', '-q', '-m', 'first');
	const first = run(repo, 'rev-parse', 'HEAD');
	writeFileSync(join(repo, 'src', 'a.ts'), 'two\n');
	run(repo, 'commit', '-q', '-am', 'second');
	return { repo, first, second: run(repo, 'rev-parse', 'HEAD') };
}

const hash = (text: string): string => createHash('sha256').update(text).digest('hex');

function entry(turnId: string, path: string, before: string | null, after: string | null, at: number): CheckpointEntry {
	return { turnId, at, path, shown: path, before: before === null ? null : hash(before), after: after === null ? null : hash(after) };
}

function chatOfTwoTurns(sessions: ChatSessions): void {
	const records: AgentRecord[] = [
		{ kind: 'user', id: 'u1', turnId: 't1', at: T0, text: 'change a' },
		{ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'r1', at: T0, text: 'done', toolCalls: [], stop: 'end' },
		{ kind: 'turn-end', turnId: 't1', at: T0, outcome: 'done' },
		{ kind: 'user', id: 'u2', turnId: 't2', at: T0, text: 'change again' },
		{ kind: 'assistant', id: 'a2', turnId: 't2', requestId: 'r2', at: T0, text: 'done', toolCalls: [], stop: 'end' },
		{ kind: 'turn-end', turnId: 't2', at: T0, outcome: 'done' },
	];
	for (const record of records) {
		sessions.current.append(record);
	}
}

describe('the git a worktree fork runs', () => {
	it('refuses a branch name git refuses, and one that exists', async () => {
		const { repo } = repository();
		assert.match((await branchProblem(repo, 'bad..name')) ?? '', /not a valid branch name/);
		assert.match((await branchProblem(repo, 'main')) ?? '', /exists already/);
		assert.equal(await branchProblem(repo, 'aside/try'), undefined);
	});

	it('makes the worktree from the base; a folder that exists or a base that is no commit leaves nothing behind', async () => {
		const { repo, first } = repository();
		const folder = join(root, `wt${repos}`);
		await addWorktree(repo, 'try', folder, first);
		assert.equal(readFileSync(join(folder, 'src', 'a.ts'), 'utf8'), 'one\n');
		assert.match(run(repo, 'worktree', 'list'), new RegExp(`${folder} +[0-9a-f]+ \\[try\\]`));

		await assert.rejects(addWorktree(repo, 'other', folder, first), (error: unknown) => error instanceof GitError && /exists already/.test(error.message));
		const bad = join(root, `wt${repos}-bad`);
		await assert.rejects(addWorktree(repo, 'broken', bad, '0000000000000000000000000000000000000000'), GitError);
		assert.equal(existsSync(bad), false, 'no folder left');
		assert.equal(run(repo, 'branch', '--list', 'broken', 'other'), '', 'no branch left');
		assert.doesNotMatch(run(repo, 'worktree', 'list'), /wt\d+-bad/);
	});

	it('puts the default folder beside the repository, never inside the workspace', () => {
		assert.equal(defaultWorktreeFolder('/src/app', 'aside/try'), '/src/app-worktrees/aside-try');
		assert.match(folderProblem('/src/app/sub', ['/src/app']) ?? '', /inside the workspace folder/);
		assert.match(folderProblem('/src/app', ['/src/app']) ?? '', /inside the workspace folder/);
		assert.equal(folderProblem('/src/app-worktrees/x', ['/src/app']), undefined);
		assert.match(folderProblem('relative/x', []) ?? '', /absolute/);
	});
});

describe('restoring the chat\'s files into the worktree', () => {
	it('takes each path\'s last change in the copied turns only', () => {
		const kept = [entry('t1', '/r/a', 'x', 'y', 1), entry('t1', '/r/b', null, 'b', 2), entry('t1', '/r/a', 'y', 'z', 3), entry('t2', '/r/a', 'z', 'later', 4)];
		assert.deepEqual(latestChanges(kept, new Set(['t1'])).map((change) => [change.path, change.after]), [['/r/b', hash('b')], ['/r/a', hash('z')]]);
		assert.equal(insideRepository('/r', '/r/src/a.ts'), 'src/a.ts');
		assert.equal(insideRepository('/r', '/r-other/a.ts'), undefined);
		assert.equal(insideRepository('/r', '/elsewhere/a.ts'), undefined);
	});

	it('makes the fork\'s records and restore report: restored, missing blob, shared, deleted', async () => {
		const { repo, first } = repository();
		const outside = join(root, 'notes.md');
		const kept = [
			entry('t1', join(repo, 'src', 'a.ts'), 'two\n', 'three\n', 1),
			entry('t1', join(repo, 'src', 'new.ts'), null, 'created\n', 2),
			entry('t1', join(repo, 'src', 'gone.ts'), null, 'lost\n', 3),
			entry('t1', outside, 'n', 'n2', 4),
			entry('t1', join(repo, 'src', 'a.ts'), 'three\n', 'four\n', 5),
			entry('t2', join(repo, 'src', 'a.ts'), 'four\n', 'after the fork point\n', 6),
		];
		const blobs = new Map(['three\n', 'created\n', 'n2', 'four\n', 'after the fork point\n'].map((text) => [hash(text), text]));
		const sessions = new ChatSessions(new MemoryLibrary(), testEnvironment(new FakeClock(T0), new SequentialIds('w')));
		chatOfTwoTurns(sessions);
		const source = sessions.current;
		const folder = join(root, `wt${repos}`);
		const checkpoints = new MemoryCheckpointStore();
		checkpoints.chats.set(source.id, kept);
		for (const [key, text] of blobs) {
			checkpoints.texts.set(key, text);
		}
		const handoff = await makeWorktreeFork({ sessions, checkpoints, now: () => T0 }, 'u1', undefined, { root: repo, branch: 'try', base: 'HEAD~1', folder });

		assert.equal(sessions.current, source, 'nothing is adopted until the handoff is taken');
		assert.equal(readFileSync(join(folder, 'src', 'a.ts'), 'utf8'), 'four\n', 'the text as of the fork point, not the later one');
		assert.equal(readFileSync(join(folder, 'src', 'new.ts'), 'utf8'), 'created\n');
		assert.deepEqual(handoff.report, { restored: ['src/new.ts', 'src/a.ts'], failed: [{ path: 'src/gone.ts', why: 'its kept text is gone from the checkpoint store' }], shared: [outside] });
		const fork = handoff.records[0];
		assert.deepEqual(fork?.kind === 'fork' ? fork.worktree : undefined, { folder, branch: 'try', base: first });
		assert.deepEqual(handoff.records.slice(1, -1).map((record) => ('id' in record ? record.id : record.kind)), ['u1', 'a1', 'turn-end']);
		// The fork's checkpoints, for its window: the copied turn's entries, the repository's at their worktree paths.
		assert.deepEqual(
			handoff.checkpoints?.entries.map((kept) => [kept.path, kept.shown]),
			[
				[join(folder, 'src', 'a.ts'), 'src/a.ts'],
				[join(folder, 'src', 'new.ts'), 'src/new.ts'],
				[join(folder, 'src', 'gone.ts'), 'src/gone.ts'],
				[outside, outside],
				[join(folder, 'src', 'a.ts'), 'src/a.ts'],
			],
		);
	});

	it('never writes or deletes through a symbolic link of the base commit that leads out of the worktree: such paths are skipped and listed', async () => {
		const { repo } = repository();
		const n = repos;
		const outside = join(root, `outside${n}`);
		mkdirSync(outside);
		writeFileSync(join(outside, 'old.md'), 'theirs\n');
		writeFileSync(join(outside, 'linked.md'), 'theirs too\n');
		// In the base commit: a folder and a file that lead out of any checkout of the repository (the worktree is root/wtN).
		symlinkSync(`../outside${n}`, join(repo, 'docs'));
		symlinkSync(`../outside${n}/linked.md`, join(repo, 'notes.md'));
		run(repo, 'add', '.');
		run(repo, 'commit', '-q', '-m', 'links');
		const sessions = new ChatSessions(new MemoryLibrary(), testEnvironment(new FakeClock(T0), new SequentialIds('w')));
		chatOfTwoTurns(sessions);
		const checkpoints = new MemoryCheckpointStore();
		checkpoints.chats.set(sessions.current.id, [
			entry('t1', join(repo, 'docs', 'new.md'), null, 'created\n', 1),
			entry('t1', join(repo, 'docs', 'deep', 'er.md'), null, 'deeper\n', 2),
			entry('t1', join(repo, 'docs', 'old.md'), 'theirs\n', null, 3),
			entry('t1', join(repo, 'notes.md'), 'theirs too\n', 'mine\n', 4),
			entry('t1', join(repo, 'src', 'a.ts'), 'two\n', 'three\n', 5),
		]);
		for (const text of ['created\n', 'deeper\n', 'mine\n', 'three\n']) {
			checkpoints.texts.set(hash(text), text);
		}
		const folder = join(root, `wt${n}`);
		const handoff = await makeWorktreeFork({ sessions, checkpoints, now: () => T0 }, 'u1', undefined, { root: repo, branch: 'try', base: 'HEAD', folder });

		assert.deepEqual(readdirSync(outside).sort(), ['linked.md', 'old.md'], 'nothing created outside');
		assert.equal(readFileSync(join(outside, 'old.md'), 'utf8'), 'theirs\n', 'nothing deleted outside');
		assert.equal(readFileSync(join(outside, 'linked.md'), 'utf8'), 'theirs too\n', 'nothing written outside');
		assert.equal(readFileSync(join(folder, 'src', 'a.ts'), 'utf8'), 'three\n', 'the rest is restored');
		const why = 'it leads out of the worktree through a symbolic link, so it was skipped';
		assert.deepEqual(handoff.report, {
			restored: ['src/a.ts'],
			failed: ['docs/new.md', 'docs/deep/er.md', 'docs/old.md', 'notes.md'].map((path) => ({ path, why })),
			shared: [],
		});
		assert.match(restoreReport(handoff.report, folder).body ?? '', /docs\/new\.md \(it leads out of the worktree through a symbolic link/);
	});

	it('a message that cannot be forked is refused before any worktree is made', async () => {
		const { repo } = repository();
		const sessions = new ChatSessions(new MemoryLibrary(), testEnvironment(new FakeClock(T0), new SequentialIds('w')));
		chatOfTwoTurns(sessions);
		const folder = join(root, `wt${repos}`);
		await assert.rejects(makeWorktreeFork({ sessions, now: () => T0 }, 'u2', 't2', { root: repo, branch: 'try', base: 'HEAD', folder }), /still running/);
		assert.equal(existsSync(folder), false);
		assert.equal(run(repo, 'branch', '--list', 'try'), '');
	});
});

describe('the handoff to the worktree\'s window', () => {
	const dir = join(root, 'handoffs');
	const folder = join(root, 'some-worktree');
	const log = new RecordingLogger();

	async function handoff() {
		const { repo } = repository();
		const sessions = new ChatSessions(new MemoryLibrary(), testEnvironment(new FakeClock(T0), new SequentialIds('w')));
		chatOfTwoTurns(sessions);
		return makeWorktreeFork({ sessions, now: () => T0 }, 'u2', undefined, { root: repo, branch: 'try', base: 'HEAD', folder: join(root, `wt${repos}`) });
	}

	it('is written, taken once by the window of its folder, and becomes that window\'s current chat with the report queued', async () => {
		const made = await handoff();
		await writeHandoff(dir, made);
		assert.equal(takeHandoff(dir, join(root, 'another-folder'), T0, log), undefined, 'another window has none');
		const taken = takeHandoff(dir, made.folder, T0 + 1000, log);
		assert.deepEqual(taken?.records, made.records);
		assert.equal(takeHandoff(dir, made.folder, T0 + 1000, log), undefined, 'consumed once');

		const there = new ChatSessions(new MemoryLibrary(), testEnvironment(new FakeClock(T0), new SequentialIds('there')));
		assert.ok(taken);
		const adopted = await adoptHandoff(there, taken, undefined, log);
		assert.equal(there.current, adopted);
		assert.equal(adopted.fork?.worktree?.branch, 'try');
		assert.equal(adopted.title, 'change a (fork)');
	});

	it('carries the fork\'s checkpoints to the other window\'s store: Restore there puts back the worktree\'s files, never the original\'s', async () => {
		const { repo } = repository();
		const clock = new FakeClock(T0);
		const sourceStore = new FileCheckpointStore({ dir: join(root, `store-a${repos}`), clock, log });
		const theirStore = new FileCheckpointStore({ dir: join(root, `store-b${repos}`), clock, log });
		const sessions = new ChatSessions(new MemoryLibrary(), testEnvironment(clock, new SequentialIds('w')));
		chatOfTwoTurns(sessions);
		const source = sessions.current;
		// Turn t1 changed a.ts and made new.ts in the repository; t2 (after the fork point) changed a.ts again.
		await sourceStore.recorder(source.id, 't1').keep([
			{ path: join(repo, 'src', 'a.ts'), shown: 'src/a.ts', before: 'two\n', after: 'three\n' },
			{ path: join(repo, 'src', 'new.ts'), shown: 'src/new.ts', before: null, after: 'created\n' },
		]);
		await sourceStore.recorder(source.id, 't2').keep([{ path: join(repo, 'src', 'a.ts'), shown: 'src/a.ts', before: 'three\n', after: 'later\n' }]);
		const worktree = join(root, `wt${repos}`);
		const made = await makeWorktreeFork({ sessions, checkpoints: sourceStore, now: () => T0 }, 'u1', undefined, { root: repo, branch: 'carry', base: 'HEAD', folder: worktree });
		const handoffs = join(root, `handoffs${repos}`);
		await writeHandoff(handoffs, made);
		assert.equal(existsSync(handoffBlobsPath(handoffs, worktree)), true, 'the texts beside the handoff');
		// The source chat is deleted meanwhile: the handoff has its own copy of the texts.
		await sourceStore.deleteChat(source.id);

		// The worktree's window.
		const there = new ChatSessions(new MemoryLibrary(), testEnvironment(clock, new SequentialIds('there')));
		const taken = takeHandoff(handoffs, worktree, T0 + 1000, log);
		assert.ok(taken);
		const adopted = await adoptHandoff(there, taken, theirStore, log);
		discardHandoff(handoffs, worktree);
		assert.deepEqual(readdirSync(handoffs), [], 'nothing of the handoff is left');
		const checkpoints = theirStore.chat(adopted.id);
		assert.deepEqual(
			checkpoints.entries().map((kept) => [kept.turnId, kept.path, kept.shown]),
			[
				['t1', join(worktree, 'src', 'a.ts'), 'src/a.ts'],
				['t1', join(worktree, 'src', 'new.ts'), 'src/new.ts'],
			],
		);
		assert.equal(readFileSync(join(worktree, 'src', 'a.ts'), 'utf8'), 'three\n', 'restored into the worktree at fork time');
		const plan = await planRestore(entriesFrom(checkpoints.entries(), new Set(['t1'])), checkpoints, { read: (path) => Promise.resolve(existsSync(path) ? readFileSync(path, 'utf8') : undefined), roots: [worktree] });
		assert.deepEqual(
			plan.files.map((file) => [file.path, file.action, file.target]),
			[
				[join(worktree, 'src', 'a.ts'), 'change', 'two\n'],
				[join(worktree, 'src', 'new.ts'), 'delete', null],
			],
		);
		await Promise.all([sourceStore.shardsMade, theirStore.shardsMade]);
	});

	it('hands over entries whose texts are not known as they are (a crash before they were kept), not as a malformed handoff', async () => {
		const unknown = join(root, 'unknown-texts');
		const fork = { kind: 'fork', id: 'f', at: T0, source: { id: 's', title: 't' }, from: 'u1' } as const;
		const lost: CheckpointEntry = { turnId: 't1', at: 1, path: '/x/a', shown: 'a', before: undefined, after: undefined };
		await writeHandoff(
			unknown,
			{
				folder,
				createdAt: T0,
				records: [fork],
				report: { restored: [], failed: [], shared: [] },
				checkpoints: { entries: [lost], text: () => Promise.resolve(undefined) },
			},
		);
		const taken = takeHandoff(unknown, folder, T0, log);
		assert.deepEqual(taken?.checkpoints?.entries, [lost]);
	});

	it('handoffs no window took within a day are swept, with their texts', async () => {
		const swept = join(root, 'swept');
		const fork = { kind: 'fork', id: 'f', at: T0, source: { id: 's', title: 't' }, from: 'u1' } as const;
		await writeHandoff(swept, { folder, createdAt: T0, records: [fork], report: { restored: [], failed: [], shared: [] }, checkpoints: { entries: [entry('t1', '/x/a', 'old', 'new', 1)], text: (key) => Promise.resolve(key === hash('old') ? 'old' : undefined) } });
		assert.equal(sweepHandoffs(swept, Date.now(), log), 0, 'a young one stays');
		assert.equal(readdirSync(swept).length, 2);
		assert.equal(sweepHandoffs(swept, Date.now() + HANDOFF_MAX_AGE_MS + 60_000, log), 2);
		assert.deepEqual(readdirSync(swept), []);
	});

	it('a malformed, stale or foreign handoff is ignored with a log line, and removed', async () => {
		mkdirSync(dir, { recursive: true });
		writeFileSync(handoffPath(dir, folder), '{"v":1,"folder":');
		assert.equal(takeHandoff(dir, folder, T0, log), undefined);
		assert.equal(existsSync(handoffPath(dir, folder)), false);
		assert.ok(log.at('warn').some((line) => /malformed fork handoff/.test(line)), 'logged');

		const fork = { kind: 'fork', id: 'f', at: T0, source: { id: 's', title: 't' }, from: 'u1' } as const;
		await writeHandoff(dir, { folder, createdAt: T0, records: [fork], report: { restored: [], failed: [], shared: [] } });
		assert.equal(takeHandoff(dir, folder, T0 + HANDOFF_MAX_AGE_MS + 1, log), undefined);
		assert.ok(log.at('warn').some((line) => /stale fork handoff/.test(line)));

		await writeHandoff(dir, { folder, createdAt: T0, records: [{ kind: 'user', id: 'u', turnId: 't', at: T0, text: 'no fork record' }], report: { restored: [], failed: [], shared: [] } });
		assert.equal(takeHandoff(dir, folder, T0, log), undefined);
		assert.ok(log.at('warn').some((line) => /does not start with its fork record/.test(line)));

		writeFileSync(handoffPath(dir, folder), JSON.stringify({ v: 1, folder, createdAt: T0, records: [fork, { kind: 'user', id: '' }], report: { restored: [], failed: [], shared: [] } }));
		assert.equal(takeHandoff(dir, folder, T0, log), undefined);
		assert.ok(log.at('warn').some((line) => /record that is not valid/.test(line)));
	});
});
