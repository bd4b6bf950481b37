// The EditedFiles observer over a temp workspace, for its specs: the agent "sees" files, something
// else changes them and the watcher says so; `prepare` at WAIT gives the report.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { EditedFiles, type EditedFilesOptions } from '../observe/editedFiles';
import type { TurnEvent } from '../reminders/turnEvents';
import type { FileStat, WorkspaceFs } from '../tools/tool';
import { FakeFileEvents } from './fakeFileEvents';
import { CountingWorkspaceFs, writeFileAt } from './memoryFiles';
import { NodeWorkspaceFs, tempWorkspace } from './nodeWorkspace';

export const T0 = Date.UTC(2026, 0, 1);
export const T1 = T0 + 60_000;
export const T2 = T0 + 120_000;
export const live = () => new AbortController().signal;
export const numbered = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix} ${i}`).join('\n') + '\n';

export function setup(
	t: TestContext,
	options: EditedFilesOptions | ((root: string) => EditedFilesOptions) = {},
	wrapFs: (fs: WorkspaceFs) => WorkspaceFs = (fs) => fs,
) {
	const workspace = tempWorkspace('aside-edited-');
	const fs = new CountingWorkspaceFs(wrapFs(new NodeWorkspaceFs()));
	const events = new FakeFileEvents();
	const edited = new EditedFiles(fs, events, { roots: () => [workspace.root], ...(typeof options === 'function' ? options(workspace.root) : options) });
	t.after(() => {
		edited.dispose();
		workspace.dispose();
	});
	const path = (name: string) => join(workspace.root, name);
	/** The agent read `name` with this content. */
	const seen = (name: string, content: string | Uint8Array, mtimeMs = T0) => {
		edited.noteRead(path(name), writeFileAt(path(name), content, mtimeMs), mtimeMs);
		return path(name);
	};
	/** Something else wrote `name`, and the watcher said so. */
	const changed = (name: string, content: string | Uint8Array, mtimeMs = T1) => {
		writeFileAt(path(name), content, mtimeMs);
		events.fireChange(path(name));
	};
	return { workspace, fs, events, edited, path, seen, changed };
}

export async function reported(edited: EditedFiles): Promise<TurnEvent> {
	const event = await edited.prepare(live());
	assert.ok(event, 'expected a files.edited report');
	return event;
}

export function body(event: TurnEvent): string {
	assert.ok(event.body !== null);
	return event.body;
}

/** The methods of a WorkspaceFs bound to it, to override one in a spread. */
export function bind(fs: WorkspaceFs): WorkspaceFs {
	return {
		stat: (path: string): Promise<FileStat | undefined> => fs.stat(path),
		readFile: (path: string) => fs.readFile(path),
		readDirectory: (path: string) => fs.readDirectory(path),
		realPath: (path: string) => fs.realPath(path),
	};
}
