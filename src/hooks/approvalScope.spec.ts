import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { tempWorkspace } from '../testing/nodeWorkspace';
import { commandWords, fileFingerprint, folderIdentity, scriptPaths } from './approvalScope';

const workspace = tempWorkspace('aside-approval-');
after(() => {
	workspace.dispose();
});

describe('what a hooks approval covers', () => {
	it('reads a command line as a shell splits it', () => {
		assert.deepEqual(commandWords(`"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh --mode 'a b'&&node x.js|tee "q\\"r">out`), ['$CLAUDE_PROJECT_DIR/.claude/hooks/check.sh', '--mode', 'a b', 'node', 'x.js', 'tee', 'q"r', 'out']);
		assert.deepEqual(commandWords(`echo '' done`), ['echo', '', 'done']);
	});

	it('names the files inside the workspace a command names, and nothing outside it', () => {
		assert.deepEqual(scriptPaths(`"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`, '/ws'), ['/ws/.claude/hooks/check.sh']);
		assert.deepEqual(scriptPaths('${ASIDE_PROJECT_DIR}/a.sh; bash ./scripts/guard.sh --config=tools/c.json', '/ws'), ['/ws/a.sh', '/ws/bash', '/ws/scripts/guard.sh', '/ws/tools/c.json']);
		assert.deepEqual(scriptPaths('../outside.sh /etc/passwd ~/mine.sh $HOME/x.sh /ws', '/ws'), []);
		assert.deepEqual(scriptPaths('/ws/abs.sh', '/ws'), ['/ws/abs.sh']);
	});

	it("fingerprints a file's bytes; a folder or a missing file has none", async () => {
		const file = join(workspace.root, 'check.sh');
		writeFileSync(file, 'echo one\n');
		const first = await fileFingerprint(file);
		assert.equal(typeof first, 'string');
		assert.equal(await fileFingerprint(file), first);
		writeFileSync(file, 'echo two\n');
		assert.notEqual(await fileFingerprint(file), first);
		assert.equal(await fileFingerprint(workspace.root), undefined);
		assert.equal(await fileFingerprint(join(workspace.root, 'nope.sh')), undefined);
	});

	it('tells two clones at the same path apart, and keeps one clone the same while it is worked in', async () => {
		const clone = join(workspace.root, 'repo');
		mkdirSync(join(clone, '.git'), { recursive: true });
		const first = await folderIdentity(clone);
		writeFileSync(join(clone, 'a.ts'), 'edited');
		writeFileSync(join(clone, '.git', 'HEAD'), 'ref: refs/heads/other\n');
		assert.equal(await folderIdentity(clone), first, 'edits and checkouts keep it');
		rmSync(clone, { recursive: true, force: true });
		mkdirSync(join(clone, '.git'), { recursive: true });
		assert.notEqual(await folderIdentity(clone), first, 'a new clone at the same path differs');
		const inPlace = await folderIdentity(clone);
		rmSync(join(clone, '.git'), { recursive: true, force: true });
		mkdirSync(join(clone, '.git'));
		assert.notEqual(await folderIdentity(clone), inPlace, 'so does another .git in the same folder');
	});
});
