import assert from 'node:assert/strict';
import * as nodePath from 'node:path';
import { describe, it } from 'node:test';
import { insideRealRoots, mentionTargets } from './mentionTarget';

const root = nodePath.resolve('/work/project');
const other = nodePath.resolve('/work/other');

describe('where a chip may lead', () => {
	it('a relative path: the place it names in each workspace folder', () => {
		assert.deepEqual(mentionTargets('src/a.ts', [root, other]), [nodePath.join(root, 'src/a.ts'), nodePath.join(other, 'src/a.ts')]);
	});

	it('never outside the workspace folders: `..`, an absolute path elsewhere, no folder open, a NUL', () => {
		assert.match(String(mentionTargets('../secret.txt', [root])), /outside the workspace folders/);
		assert.match(String(mentionTargets(nodePath.resolve('/etc/passwd'), [root])), /outside the workspace folders/);
		assert.match(String(mentionTargets('a.ts', [])), /no workspace folder is open/);
		assert.match(String(mentionTargets('a\0.ts', [root])), /cannot be opened/);
		assert.deepEqual(mentionTargets(nodePath.join(root, 'a.ts'), [root]), [nodePath.join(root, 'a.ts')], 'an absolute path inside is fine');
	});

	it('with links followed, only inside', () => {
		assert.equal(insideRealRoots(nodePath.join(root, 'a.ts'), [root]), true);
		assert.equal(insideRealRoots(nodePath.resolve('/tmp/a.ts'), [root]), false);
	});
});
