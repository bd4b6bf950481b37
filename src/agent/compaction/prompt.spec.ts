import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LEFT_OUT_NOTE, SUMMARY_PROMPT, summaryPrompt } from './prompt';

describe('the summary prompt', () => {
	it('is quoted in docs/context.md as it is sent', () => {
		const doc = readFileSync(join(process.cwd(), 'docs', 'context.md'), 'utf8');
		const quoted = SUMMARY_PROMPT.split('\n').map((line) => (line === '' ? '>' : `> ${line}`)).join('\n');
		assert.ok(doc.includes(quoted), 'docs/context.md quotes SUMMARY_PROMPT line for line');
	});

	it('adds what the person asked to keep, and says when the start was left out', () => {
		assert.equal(summaryPrompt(undefined, false), SUMMARY_PROMPT);
		assert.equal(summaryPrompt('  ', false), SUMMARY_PROMPT);
		assert.equal(summaryPrompt('the API decisions', true), `${SUMMARY_PROMPT}\n\n${LEFT_OUT_NOTE}\n\nThe user asked you to make sure the summary keeps this:\n\nthe API decisions`);
	});
});
