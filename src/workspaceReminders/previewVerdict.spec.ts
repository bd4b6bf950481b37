import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type PreviewVerdict, previewVerdict, refusalOf } from './previewVerdict';
import { parseReminderFolder } from './reminderFolder';

const analysisOf = (files: { name: string; text: string }[], name: string) => parseReminderFolder(files).find((file) => file.name === name)?.parsed;

/** The verdict, which must be a refusal. */
function refused(verdict: PreviewVerdict): Exclude<PreviewVerdict, { kind: 'previewable' }> {
	if (verdict.kind === 'previewable') {
		assert.fail('expected no preview');
	}
	return verdict;
}

describe('the preview verdict', () => {
	it('refuses a file that is no reminder file without claiming problems', () => {
		const verdict = refused(previewVerdict(undefined));
		assert.deepEqual(verdict, { kind: 'not-a-reminder-file' });
		assert.equal(refusalOf(verdict, 'src/app.ts'), 'Aside: Preview Workspace Reminder previews a workspace reminder file (.aside/reminders/<name>.md); src/app.ts is not one.');
	});

	it('counts a key another file of the folder declares, as the Problems view does, and names it', () => {
		const files = [
			{ name: 'a.md', text: '---\nkey: twin\n---\nOne.\n' },
			{ name: 'b.md', text: '---\nkey: twin\n---\nTwo.\n' },
		];
		const verdict = refused(previewVerdict(analysisOf(files, 'a.md')));
		assert.deepEqual(verdict.kind === 'not-sent' ? verdict.problems.map((problem) => problem.code) : verdict.kind, ['key-collision']);
		assert.equal(refusalOf(verdict, '.aside/reminders/a.md'), 'Aside: .aside/reminders/a.md is not sent while it has 1 problem (shown in the Problems view): line 2: key: "twin" is also the key of b.md in this folder; each reminder needs its own key.');
	});

	it('quotes the first three problems of a broken file in file order, with their lines, and counts the rest', () => {
		const verdict = refused(previewVerdict(analysisOf([{ name: 'bad.md', text: '---\nkey: bad key\npolcy: x\nwhen: 3\nlabel: []\n---\n{{nope}}\n' }], 'bad.md')));
		const problems = verdict.kind === 'not-sent' ? verdict.problems : [];
		assert.ok(problems.length > 3, `more than three problems: ${problems.length}`);
		const text = refusalOf(verdict, 'bad.md');
		assert.match(text, new RegExp(`has ${problems.length} problems \\(shown in the Problems view\\): line 2: .* line 3: .* line 4: `));
		assert.match(text, new RegExp(` … and ${problems.length - 3} more\\.$`));
	});

	it('previews a file that has none', () => {
		assert.equal(previewVerdict(analysisOf([{ name: 'ok.md', text: '---\nkey: ok\n---\nFine.\n' }], 'ok.md')).kind, 'previewable');
	});
});
