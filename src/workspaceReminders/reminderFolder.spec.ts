import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keyCollisions, parseReminderFolder } from './reminderFolder';

const file = (key: string, body = 'Body.') => `---\nkey: ${key}\n---\n${body}\n`;

describe('the reminder files of one folder', () => {
	it('a key two files declare is a problem on each, naming the other, on its key; neither has a spec', () => {
		const [a, b, c] = parseReminderFolder([
			{ name: 'a.md', text: file('shared') },
			{ name: 'b.md', text: `---\nlabel: B\nkey: shared\n---\nOther.` },
			{ name: 'c.md', text: file('own') },
		]);
		assert.equal(a?.parsed.spec, undefined);
		assert.equal(b?.parsed.spec, undefined);
		assert.deepEqual(a?.parsed.problems.map((problem) => [problem.code, problem.message]), [['key-collision', 'key: "shared" is also the key of b.md in this folder; each reminder needs its own key.']]);
		assert.match(b?.parsed.problems[0]?.message ?? '', /also the key of a\.md/);
		assert.deepEqual(b?.parsed.problems[0]?.range, { start: { line: 2, character: 5 }, end: { line: 2, character: 11 } });
		assert.equal(c?.parsed.spec?.key, 'own');
		assert.deepEqual(c.parsed.problems, []);
	});

	it('names every other file when three share a key; a file with other problems still collides', () => {
		const entries = parseReminderFolder([
			{ name: 'a.md', text: file('k') },
			{ name: 'b.md', text: file('k', '{{nope}}') },
			{ name: 'c.md', text: file('k') },
		]);
		assert.match(entries[0]?.parsed.problems[0]?.message ?? '', /also the key of b\.md, c\.md/);
		assert.deepEqual(entries[1]?.parsed.problems.map((problem) => problem.code), ['unknown-placeholder', 'key-collision']);
	});

	it('keys differing only in case are different keys, as on the wire', () => {
		assert.equal(keyCollisions(parseReminderFolder([{ name: 'a.md', text: file('k') }, { name: 'b.md', text: file('K') }])).size, 0);
	});
});
