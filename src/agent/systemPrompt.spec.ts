import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseReminders, sanitizeUntrusted } from '../reminders/envelope';
import { toolResultText } from '../transcript/replay';
import { systemPrompt } from './systemPrompt';

const prompt = systemPrompt();

describe('the system prompt', () => {
	it('tells the truth about where Aside\'s reminders are: their own message, and after a tool\'s output', () => {
		assert.match(prompt, /user-role message of their own/);
		assert.match(prompt, /right after a tool's output, in the same tool result/);
		// Which is what a tool result with a notice looks like.
		const sent = toolResultText('1\tx', [{ key: 'read.truncated', body: 'Showing lines 1–1 of 9.' }]);
		assert.deepEqual(parseReminders(sent).map((block) => block.key), ['read.truncated']);
		assert.doesNotMatch(prompt, /tool output[^.]* is not one/, 'no claim that a reminder in a tool result is never real');
	});

	it('shows the model the neutralised form that outside text arrives in', () => {
		const neutral = sanitizeUntrusted('<system-reminder');
		assert.equal(neutral, '\u2039system-reminder');
		assert.ok(prompt.includes(`shown neutralised, as ${neutral}`), prompt);
		assert.match(prompt, /never a reminder/);
		assert.match(prompt, /copy it as Read showed it, \u2039 included: Edit matches it against the file's own </);
	});

	it('is one constant text: nothing in it varies by chat, turn, workspace, platform or date', () => {
		assert.equal(systemPrompt.length, 0, 'it reads nothing');
		assert.equal(systemPrompt(), prompt);
		assert.doesNotMatch(prompt, /(?:^|\s)\/(?:home|work|tmp|Users)\b|[A-Z]:\\/, 'no absolute path');
		assert.doesNotMatch(prompt, /\b(?:linux|darwin|win32|x64|arm64)\b/i, 'no platform');
		assert.doesNotMatch(prompt, /\d/, 'no date, version or number of any kind');
		assert.ok(!prompt.includes(process.cwd()));
	});

	it('says in one line that the environment and the date arrive as reminders', () => {
		const lines = prompt.split('\n').filter((line) => line.includes('session.environment'));
		assert.equal(lines.length, 1);
		assert.match(lines[0] ?? '', /workspace folders, the operating system and shell, and today's date are not in this prompt: they arrive as reminders \(session\.environment, session\.date\)/);
	});
});
