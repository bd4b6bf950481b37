import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NodeWorkspaceFs, tempWorkspace } from '../testing/nodeWorkspace';
import { displayPath, isInside, resolveInWorkspace } from './paths';

const fs = new NodeWorkspaceFs();

describe('resolveInWorkspace', () => {
	const outside = tempWorkspace('aside-outside-');
	const workspace = tempWorkspace();
	const second = tempWorkspace('aside-second-');
	const root = workspace.root;
	const roots = [root, second.root];

	before(() => {
		mkdirSync(join(root, 'src'));
		writeFileSync(join(root, 'src', 'a.ts'), 'a');
		writeFileSync(join(second.root, 'b.ts'), 'b');
		writeFileSync(join(outside.root, 'secret.txt'), 'secret');
		symlinkSync(join(outside.root, 'secret.txt'), join(root, 'out-file'));
		symlinkSync(outside.root, join(root, 'out-dir'));
		symlinkSync(join(root, 'src'), join(root, 'src-link'));
		symlinkSync(join(root, 'missing-target'), join(root, 'dangling'));
	});
	after(() => {
		workspace.dispose();
		second.dispose();
		outside.dispose();
	});

	it('resolves relative paths against the first folder, and absolute paths inside any folder', async () => {
		assert.equal(await resolveInWorkspace('src/a.ts', roots, fs), join(root, 'src', 'a.ts'));
		assert.equal(await resolveInWorkspace('./src/../src/a.ts', roots, fs), join(root, 'src', 'a.ts'));
		assert.equal(await resolveInWorkspace(join(second.root, 'b.ts'), roots, fs), join(second.root, 'b.ts'));
		assert.equal(await resolveInWorkspace('', roots, fs), root);
		assert.equal(await resolveInWorkspace('.', roots, fs), root);
	});

	it('allows a path that does not exist yet, inside the workspace', async () => {
		assert.equal(await resolveInWorkspace('new/dir/file.ts', roots, fs), join(root, 'new', 'dir', 'file.ts'));
	});

	it('denies `..` that leaves the workspace, naming the path', async () => {
		await assert.rejects(resolveInWorkspace('../escape.txt', roots, fs), /Access denied: \.\.\/escape\.txt is outside the workspace folders/);
		await assert.rejects(resolveInWorkspace('src/../../x', roots, fs), /src\/\.\.\/\.\.\/x is outside the workspace folders/);
	});

	it('denies absolute paths outside every folder', async () => {
		const secret = join(outside.root, 'secret.txt');
		await assert.rejects(resolveInWorkspace(secret, roots, fs), (error: Error) => error.message.includes(secret) && error.message.includes('outside the workspace folders'));
		await assert.rejects(resolveInWorkspace('/etc/new-file', roots, fs), /outside the workspace folders/);
	});

	it('denies symlinks whose real path leaves the workspace, and paths through them', async () => {
		await assert.rejects(resolveInWorkspace('out-file', roots, fs), /out-file \(a symbolic link to .*secret\.txt\) is outside the workspace folders/);
		await assert.rejects(resolveInWorkspace('out-dir/secret.txt', roots, fs), /outside the workspace folders/);
		await assert.rejects(resolveInWorkspace('out-dir/new.txt', roots, fs), /outside the workspace folders/);
	});

	it('denies a dangling symlink, which a write would follow', async () => {
		await assert.rejects(resolveInWorkspace('dangling', roots, fs), /dangling is a symbolic link whose target does not exist/);
	});

	it('allows a symlink that stays inside, resolved to its target', async () => {
		assert.equal(await resolveInWorkspace('src-link/a.ts', roots, fs), join(root, 'src', 'a.ts'));
	});

	it('keeps a folder opened through a symlink under the path it was opened with', async () => {
		const linkedRoot = join(outside.root, 'linked-root');
		symlinkSync(root, linkedRoot);
		assert.equal(await resolveInWorkspace('src/a.ts', [linkedRoot], fs), join(linkedRoot, 'src', 'a.ts'));
		assert.equal(await resolveInWorkspace(join(root, 'src', 'a.ts'), [linkedRoot], fs), join(linkedRoot, 'src', 'a.ts'));
	});

	it('refuses everything when no folder is open', async () => {
		await assert.rejects(resolveInWorkspace('a.ts', [], fs), /No workspace folder is open/);
	});
});

describe('displayPath', () => {
	it('is relative to the first folder with `/`, `.` for the folder, absolute elsewhere', () => {
		assert.equal(displayPath(join('/ws', 'src', 'a.ts'), ['/ws', '/other']), 'src/a.ts');
		assert.equal(displayPath('/ws', ['/ws']), '.');
		assert.equal(displayPath(join('/other', 'b.ts'), ['/ws', '/other']), '/other/b.ts');
	});

	it('isInside does not mistake a sibling with a common prefix, or `..name`, for the wrong side', () => {
		assert.equal(isInside('/ws-2/a', '/ws'), false);
		assert.equal(isInside('/ws/..hidden', '/ws'), true);
		assert.equal(isInside('/ws', '/ws'), true);
	});
});
