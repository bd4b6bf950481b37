import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { skill } from '../testing/skills';
import { closeSkill, flattenRequires, referencedNames } from './references';

describe('$name in a message', () => {
	it('counts at a word boundary, with the exact name, each once in the order written', () => {
		assert.deepEqual(referencedNames('Use $release, then ($review) and $release again.'), ['release', 'review']);
		assert.deepEqual(referencedNames('$release-notes and $release- and $release.'), ['release-notes', 'release']);
		assert.deepEqual(referencedNames('price a$b, $$x, !$dep, ${HOME}, $HOME, `$ ok`'), [], 'no boundary, a requirement, braces, capitals, a lone $');
		assert.deepEqual(referencedNames('line one\n$deploy'), ['deploy']);
	});

	it('inside back-ticks or quotes a $name is text, not a reference', () => {
		assert.deepEqual(referencedNames('Run `echo $release` and ```\n$review\n``` then say "use $deploy" or \'$lint\'; but $ship.'), ['ship']);
		assert.deepEqual(referencedNames("don't skip $release, it's due"), ['release'], 'an apostrophe opens no quote');
		assert.deepEqual(referencedNames('an unclosed ` or " leaves $release a reference'), ['release']);
	});

	it('a name one letter from a skill\'s is close (a likely typo); short names and others are not', () => {
		const skills = [skill('release'), skill('db')];
		assert.equal(closeSkill(skills, 'relase')?.name, 'release');
		assert.equal(closeSkill(skills, 'releases')?.name, 'release');
		assert.equal(closeSkill(skills, 'dbx'), undefined, 'too short to guess');
		assert.equal(closeSkill(skills, 'path'), undefined);
	});
});

describe('requires', () => {
	it('flattens dependencies first, each skill once, in the order written', () => {
		const skills = [skill('release', { requires: ['changelog', 'tests'] }), skill('changelog', { requires: ['style'] }), skill('tests', { requires: ['style'] }), skill('style')];
		const flattened = flattenRequires(skills, [skills[0] ?? assert.fail()]);
		assert.ok(flattened.ok);
		assert.deepEqual(flattened.skills.map((found) => found.name), ['style', 'changelog', 'tests', 'release']);
		assert.deepEqual(flattened.missing, []);
	});

	it('refuses a cycle, naming the loop; a self-requirement is one too', () => {
		const skills = [skill('a', { requires: ['b'] }), skill('b', { requires: ['c'] }), skill('c', { requires: ['a'] }), skill('self', { requires: ['self'] })];
		assert.deepEqual(flattenRequires(skills, [skills[0] ?? assert.fail()]), { ok: false, cycle: ['a', 'b', 'c', 'a'] });
		assert.deepEqual(flattenRequires(skills, [skills[3] ?? assert.fail()]), { ok: false, cycle: ['self', 'self'] });
	});

	it('names a requirement that is no skill and keeps the rest', () => {
		const skills = [skill('release', { requires: ['ghost', 'style'] }), skill('style')];
		const flattened = flattenRequires(skills, [skills[0] ?? assert.fail()]);
		assert.ok(flattened.ok);
		assert.deepEqual(flattened.skills.map((found) => found.name), ['style', 'release']);
		assert.deepEqual(flattened.missing, [{ by: 'release', name: 'ghost' }]);
	});
});
