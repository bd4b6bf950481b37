import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { TerminalText, terminalText } from './terminalText';

/** A real bash session (bash 5, VS Code's shell integration script, TERM=xterm-256color), recorded with `script`. */
const BASH = readFileSync(join('test', 'fixtures', 'terminal', 'bash-integration.bin'), 'utf8');

/** Each command's output as the shell integration API reads it: what comes between its C and D marks. */
function outputs(session: string): string[] {
	// eslint-disable-next-line no-control-regex -- the shell integration marks are escape sequences
	return [...session.matchAll(/\u001b\]633;C\u0007([^]*?)\u001b\]633;D/gu)].map((match) => match[1] ?? '');
}

/** The text fed in pieces of `size` characters. */
function chunked(text: string, size: number): string {
	const reader = new TerminalText();
	const lines: string[] = [];
	for (let i = 0; i < text.length; i += size) {
		lines.push(...reader.push(text.slice(i, i + size)));
	}
	return [...lines, ...reader.end()].join('\n');
}

describe('terminal output as text', () => {
	it('a recorded bash session: colours, CRLF, progress folded to its last rendering, tabs and UTF-8', () => {
		assert.deepEqual(outputs(BASH).map(terminalText), [
			'',
			'plain line',
			'README.md  run.sh  src',
			'Done.',
			'tab\there and  unicode: café ✓',
			'',
		]);
	});

	it('gives the same text whatever the chunks: a sequence, a CR LF or a character split between two', () => {
		const whole = terminalText(BASH);
		for (const size of [1, 2, 3, 7, 64]) {
			assert.equal(chunked(BASH, size), whole, `in chunks of ${size}`);
		}
		// eslint-disable-next-line no-control-regex -- looking for control characters
		assert.doesNotMatch(whole, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u, 'no control character left');
	});

	it('folds carriage-return progress as the terminal shows it, erases with CSI K, and applies backspace and cursor moves', () => {
		assert.equal(terminalText('Downloading 10%\rDownloading 100%\n'), 'Downloading 100%');
		assert.equal(terminalText('abcdef\rxy\n'), 'xycdef', 'a shorter rendering overwrites only its part');
		assert.equal(terminalText('abcdef\r\u001b[Kxy\n'), 'xy', 'unless the line was erased first');
		assert.equal(terminalText('abc\u001b[2Kdef\n'), '   def', 'erasing the whole line keeps the cursor where it was');
		assert.equal(terminalText('abc\u001b[1Kd\n'), '   d');
		assert.equal(terminalText('abx\bc\n'), 'abc');
		assert.equal(terminalText('a\u001b[3Cb\n'), 'a   b');
		assert.equal(terminalText('abcd\u001b[2Dx\u001b[1Gy\n'), 'ybxd');
		assert.equal(terminalText('one\r\r\ntwo\r\n'), 'one\ntwo', 'CR CR LF, as a tty writes a line');
	});

	it('strips every kind of sequence: CSI, OSC to BEL or ST, DCS, charset designations, 8-bit CSI; drops other controls', () => {
		const text = [
			'\u001b[1;31mred\u001b[0m',
			'\u001b]0;window title\u0007\u001b]8;;https://example.test\u001b\\link\u001b]8;;\u001b\\',
			'\u001bP1$r0m\u001b\\dcs gone',
			'\u001b(Bcharset\u001b=\u001b>',
			'\u009b31m8-bit\u009b0m',
			'bell\u0007 nul\u0000 del\u007f end',
		].join('\n');
		assert.equal(terminalText(text), 'red\nlink\ndcs gone\ncharset\n8-bit\nbell nul del end');
	});

	it('holds an unfinished sequence until the rest comes, but not past 4 KB of garbage', () => {
		const reader = new TerminalText();
		assert.deepEqual(reader.push('a\u001b[3'), []);
		assert.equal(reader.current, 'a');
		assert.deepEqual(reader.push('1mb\n'), ['ab']);
		reader.push(`\u001b]0;${'x'.repeat(5000)}`);
		assert.deepEqual(reader.push('after\n'), ['after'], 'an OSC that never ends does not swallow what follows');
	});

	it('breaks a line that never ends, and gives the unfinished line at the end', () => {
		const reader = new TerminalText(20);
		assert.deepEqual(reader.push('0123456789abcdefghij0123'), ['0123456789abcdefghij']);
		assert.deepEqual(reader.push('4'), []);
		assert.equal(reader.current, '01234');
		assert.deepEqual(reader.push('\r\n? Continue [y/N] '), ['01234']);
		assert.equal(reader.current, '? Continue [y/N] ', 'the prompt a process waits at');
		assert.deepEqual(reader.end(), ['? Continue [y/N]']);
	});
});
