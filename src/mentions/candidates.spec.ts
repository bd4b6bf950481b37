import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fuzzyScore } from '../protocol/mentions';
import { rankCandidates } from './candidates';

const FILES = ['src/greeting.ts', 'src/agent/agentGreeter.ts', 'docs/guide.md', 'README.md', 'src/group/index.ts'];

describe('the @ list\'s candidates', () => {
	it('match the query\'s characters in order, case-insensitively, and nothing else', () => {
		assert.ok(fuzzyScore('grt', 'src/greeting.ts') !== undefined);
		assert.equal(fuzzyScore('tgr', 'src/greeting.ts'), undefined);
		assert.deepEqual(rankCandidates('READ', FILES).map((candidate) => candidate.path), ['README.md']);
	});

	it('rank a match in the name, at word starts, contiguous, above a scattered one; folders come from the files', () => {
		const ranked = rankCandidates('greet', FILES);
		assert.equal(ranked[0]?.path, 'src/greeting.ts');
		assert.ok(ranked.some((candidate) => candidate.path === 'src/agent/agentGreeter.ts'));
		assert.deepEqual(rankCandidates('group/', FILES)[0], { kind: 'folder', path: 'src/group' }, 'a trailing slash asks for the folder');
		assert.ok(rankCandidates('', FILES).some((candidate) => candidate.kind === 'folder' && candidate.path === 'src/agent'));
	});

	it('are bounded', () => {
		const many = Array.from({ length: 500 }, (_, index) => `f/${index}.ts`);
		assert.equal(rankCandidates('', many).length, 50);
		assert.equal(rankCandidates('', many, 7).length, 7);
	});
});
