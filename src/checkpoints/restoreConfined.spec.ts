// Restore over the real file system: a folder of the workspace turned into a symbolic link that
// leads out of it must not let Restore write there, whether the link was made before the preview
// or between the preview and the confirmation.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { MemoryCheckpointStore } from '../testing/memoryCheckpoints';
import { nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { realPlaceInside } from '../tools/realPlace';
import type { ToolContext } from '../tools/tool';
import { applyRestore } from './restoreApply';
import { entriesFrom, planRestore, type RestorePlan } from './restorePlan';

describe('restore never writes through a symbolic link that leads out of the workspace', () => {
	let temp: ReturnType<typeof tempWorkspace>;
	let workspace: string;
	let outside: string;
	let context: ToolContext;
	const store = new MemoryCheckpointStore();

	beforeEach(() => {
		temp = tempWorkspace('aside-restore-links-');
		workspace = join(temp.root, 'ws');
		outside = join(temp.root, 'outside');
		mkdirSync(join(workspace, 'docs'), { recursive: true });
		mkdirSync(outside);
		writeFileSync(join(workspace, 'a.ts'), 'a2\n');
		context = nodeToolContext([workspace]);
		// Aside changed a.ts and deleted docs/gone.md: Restore would put back both.
		store.chats.clear();
		store.keep('chat', 't1', join(workspace, 'a.ts'), 'a.ts', 'a1\n', 'a2\n');
		store.keep('chat', 't1', join(workspace, 'docs', 'gone.md'), 'docs/gone.md', 'kept\n', null);
	});
	afterEach(() => {
		temp.dispose();
	});

	const plan = (): Promise<RestorePlan> => {
		const chat = store.chat('chat');
		return planRestore(entriesFrom(chat.entries(), new Set(['t1'])), chat, {
			read: (path) => context.writer.readText(path),
			roots: context.roots,
			inside: (path) => realPlaceInside(path, context.roots, context.fs),
		});
	};
	const linkDocsOutside = () => {
		rmSync(join(workspace, 'docs'), { recursive: true });
		symlinkSync(outside, join(workspace, 'docs'));
	};

	it('checks the real parent path at apply time: a folder linked out after the preview is skipped and listed, the rest restored', async () => {
		const preview = await plan();
		assert.deepEqual(
			preview.files.map(({ shown, action }) => [shown, action]),
			[
				['a.ts', 'change'],
				['docs/gone.md', 'recreate'],
			],
		);
		linkDocsOutside();
		const result = await applyRestore(preview, context.writer, false, context);
		assert.ok(result.ok);
		assert.deepEqual(readdirSync(outside), [], 'nothing created outside the workspace');
		assert.deepEqual(
			result.files.map(({ shown, action, done }) => [shown, action, done]),
			[
				['a.ts', 'change', true],
				['docs/gone.md', 'outside', false],
			],
		);
		assert.equal(await context.writer.readText(join(workspace, 'a.ts')), 'a1\n');
	});

	it('lists a folder linked out before the preview as outside, and applying it writes nothing there', async () => {
		linkDocsOutside();
		const preview = await plan();
		assert.deepEqual(
			preview.files.map(({ shown, action }) => [shown, action]),
			[
				['a.ts', 'change'],
				['docs/gone.md', 'outside'],
			],
		);
		const result = await applyRestore(preview, context.writer, false, context);
		assert.ok(result.ok);
		assert.equal(existsSync(join(outside, 'gone.md')), false);
	});
});
