import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryCheckpointStore } from '../testing/memoryCheckpoints';
import { MemoryDocumentWriter, MemoryWorkspaceFs } from '../testing/memoryWorkspace';
import { applyRestore } from './restoreApply';
import { entriesFrom, MAX_PREVIEW_DIFF_CHARS, planRestore, type PlannedFile, type RestorePlan } from './restorePlan';

const ROOT = '/ws';
const at = (name: string): string => `${ROOT}/${name}`;

/** A chat whose turns t1 and t2 changed files, and the files as they are now. */
function fixture() {
	const store = new MemoryCheckpointStore();
	const files = new Map<string, string>();
	const keep = (turn: string, name: string, before: string | null, after: string | null) => {
		store.keep('chat', turn, at(name), name, before, after);
	};
	const plan = async (turns: readonly string[], roots: readonly string[] = [ROOT]): Promise<RestorePlan> => {
		const chat = store.chat('chat');
		return planRestore(entriesFrom(chat.entries(), new Set(turns)), chat, { read: (path) => Promise.resolve(files.get(path)), roots });
	};
	return { store, files, keep, plan };
}

const byName = (plan: RestorePlan): Map<string, PlannedFile> => new Map(plan.files.map((file) => [file.shown, file]));

describe('restore plans', () => {
	it('changes a modified file back to its text before the earliest change from the restore point, with a diff from now', async () => {
		const { files, keep, plan } = fixture();
		keep('t1', 'a.ts', 'one\n', 'two\n');
		keep('t2', 'a.ts', 'two\n', 'three\n');
		files.set(at('a.ts'), 'three\n');
		const fromT1 = byName(await plan(['t1', 't2'])).get('a.ts');
		assert.equal(fromT1?.action, 'change');
		assert.equal(fromT1.target, 'one\n');
		assert.match(fromT1.diff, /-three\n\+one/);
		const fromT2 = byName(await plan(['t2'])).get('a.ts');
		assert.equal(fromT2?.target, 'two\n', 'only the later turn is undone');
	});

	it('recreates a file Aside deleted, deletes one it created (unchanged since), keeps one it created that changed since', async () => {
		const { files, keep, plan } = fixture();
		keep('t1', 'gone.ts', 'old\n', null);
		keep('t1', 'new.ts', null, 'made\n');
		keep('t1', 'touched.ts', null, 'made\n');
		files.set(at('new.ts'), 'made\n');
		files.set(at('touched.ts'), 'made\nand the person added this\n');
		const planned = byName(await plan(['t1']));
		assert.equal(planned.get('gone.ts')?.action, 'recreate');
		assert.equal(planned.get('gone.ts')?.target, 'old\n');
		assert.equal(planned.get('new.ts')?.action, 'delete');
		assert.equal(planned.get('new.ts')?.target, null);
		assert.equal(planned.get('touched.ts')?.action, 'keep');
		assert.equal(planned.get('touched.ts')?.diff, '');
	});

	it('texts never kept (the window closed first): an unknown new text counts as changed since, an unknown earlier one as not kept', async () => {
		const { store, files, keep, plan } = fixture();
		keep('t1', 'a.ts', 'one\n', 'two\n');
		keep('t1', 'made.ts', null, 'made\n');
		// As the manifest reads when no settle line followed: the new texts are not known.
		keep('t1', 'lost.ts', 'old\n', 'new\n');
		store.chats.set(
			'chat',
			(store.chats.get('chat') ?? []).map((entry) => ({ ...entry, after: undefined, ...(entry.shown === 'lost.ts' ? { before: undefined } : {}) })),
		);
		files.set(at('a.ts'), 'two\n');
		files.set(at('made.ts'), 'made\n');
		files.set(at('lost.ts'), 'new\n');
		const planned = byName(await plan(['t1']));
		assert.equal(planned.get('a.ts')?.action, 'person-changed');
		assert.equal(planned.get('a.ts')?.target, 'one\n');
		assert.equal(planned.get('made.ts')?.action, 'keep');
		// A previous text whose copy was lost before it was kept: listed as not kept, left as it is.
		assert.equal(planned.get('lost.ts')?.action, 'missing');
	});

	it('flags a file the person changed since Aside last wrote it, with what overwriting would do', async () => {
		const { files, keep, plan } = fixture();
		keep('t1', 'a.ts', 'one\n', 'two\n');
		keep('t1', 'b.ts', 'bee\n', 'bee 2\n');
		files.set(at('a.ts'), 'two, then typed by the person\n');
		const planned = byName(await plan(['t1']));
		assert.equal(planned.get('a.ts')?.action, 'person-changed');
		assert.equal(planned.get('a.ts')?.overwrite, 'change');
		assert.match(planned.get('a.ts')?.diff ?? '', /\+one/);
		assert.equal(planned.get('b.ts')?.action, 'person-changed', 'deleted by the person since');
		assert.equal(planned.get('b.ts')?.overwrite, 'recreate');
	});

	it('says a file cannot be restored when the text it goes back to is no longer kept', async () => {
		const { store, files, keep, plan } = fixture();
		keep('t1', 'a.ts', 'one\n', 'two\n');
		files.set(at('a.ts'), 'two\n');
		store.drop('one\n');
		const [file] = (await plan(['t1'])).files;
		assert.equal(file?.action, 'missing');
		assert.equal(file.diff, '');
	});

	it('refuses a file outside every workspace folder now, lists nothing that is already as it was, and bounds a huge diff', async () => {
		const { files, keep, plan } = fixture();
		keep('t1', 'a.ts', 'one\n', 'two\n');
		keep('t1', 'same.ts', 'x\n', 'y\n');
		const big = 'x'.repeat(MAX_PREVIEW_DIFF_CHARS + 1);
		keep('t1', 'big.txt', big, `${big}y`);
		files.set(at('a.ts'), 'two\n');
		files.set(at('same.ts'), 'x\n');
		files.set(at('big.txt'), `${big}y`);
		assert.deepEqual((await plan(['t1'], ['/elsewhere'])).files.map((file) => file.action), ['outside', 'outside', 'outside']);
		const planned = byName(await plan(['t1']));
		assert.equal(planned.has('same.ts'), false);
		assert.match(planned.get('big.txt')?.diff ?? '', /too large to show/);
	});
});

/** A writer over memory that fails on its `failOn`-th write. */
class FailingWriter extends MemoryDocumentWriter {
	writes = 0;

	constructor(
		files: Map<string, string>,
		private readonly failOn: number,
	) {
		super(files);
	}

	override replace(path: string, text: string, expected?: string): Promise<void> {
		return this.count(() => super.replace(path, text), path, expected);
	}

	override create(path: string, text: string): Promise<void> {
		return this.count(() => super.create(path, text), path);
	}

	override delete(path: string, expected?: string): Promise<void> {
		return this.count(() => super.delete(path), path, expected);
	}

	private async count(write: () => Promise<void>, path: string, expected?: string): Promise<void> {
		if (++this.writes === this.failOn) {
			throw new Error('disk full');
		}
		if (expected !== undefined && this.files.get(path) !== expected) {
			throw new Error('stale');
		}
		await write();
	}
}

describe('applying a restore plan', () => {
	async function threeFiles() {
		const { files, keep, plan } = fixture();
		keep('t1', 'a.ts', 'a1\n', 'a2\n');
		keep('t1', 'b.ts', 'b1\n', null);
		keep('t1', 'c.ts', null, 'c\n');
		keep('t1', 'd.ts', 'd1\n', 'd2\n');
		files.set(at('a.ts'), 'a2\n');
		files.set(at('c.ts'), 'c\n');
		files.set(at('d.ts'), 'd2 and the person\'s line\n');
		return { files, restorePlan: await plan(['t1']) };
	}

	it('writes every file back, leaves the person-changed one unless told to overwrite it, and reports each', async () => {
		const { files, restorePlan } = await threeFiles();
		const result = await applyRestore(restorePlan, new MemoryDocumentWriter(files), false, { roots: [ROOT], fs: new MemoryWorkspaceFs(files) });
		assert.ok(result.ok);
		assert.deepEqual(
			result.files.map(({ shown, action, done }) => [shown, action, done]),
			[
				['a.ts', 'change', true],
				['b.ts', 'recreate', true],
				['c.ts', 'delete', true],
				['d.ts', 'person-changed', false],
			],
		);
		assert.deepEqual(Object.fromEntries(files), { [at('a.ts')]: 'a1\n', [at('b.ts')]: 'b1\n', [at('d.ts')]: 'd2 and the person\'s line\n' });
	});

	it('overwrites the person-changed files when they chose to', async () => {
		const { files, restorePlan } = await threeFiles();
		const result = await applyRestore(restorePlan, new MemoryDocumentWriter(files), true, { roots: [ROOT], fs: new MemoryWorkspaceFs(files) });
		assert.ok(result.ok);
		assert.equal(files.get(at('d.ts')), 'd1\n');
	});

	it('puts back what it had written when a write fails midway: nothing is restored, and it says so', async () => {
		const { files, restorePlan } = await threeFiles();
		const before = new Map(files);
		const result = await applyRestore(restorePlan, new FailingWriter(files, 3), false, { roots: [ROOT], fs: new MemoryWorkspaceFs(files) });
		assert.equal(result.ok, false);
		assert.match(result.message, /Could not restore c\.ts: disk full\. The files already restored were put back as they were: nothing was restored\./);
		assert.deepEqual(files, before);
	});

	it('restores nothing when a file changed after the preview', async () => {
		const { files, restorePlan } = await threeFiles();
		files.set(at('a.ts'), 'typed after the preview\n');
		const result = await applyRestore(restorePlan, new MemoryDocumentWriter(files), false, { roots: [ROOT], fs: new MemoryWorkspaceFs(files) });
		assert.equal(result.ok, false);
		assert.match(result.message, /a\.ts changed since the preview was made, so nothing was restored/);
		assert.equal(files.get(at('b.ts')), undefined);
	});
});
