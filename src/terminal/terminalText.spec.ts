import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanedInChunks, commandOutputs, recordedSession } from '../testing/terminalSessions';
import { LINE_CONTINUES, MAX_LINE_CHARS, TerminalText, terminalText } from './terminalText';

/** A real bash session (bash 5, VS Code's shell integration script, TERM=xterm-256color), recorded with `script`. */
const BASH = recordedSession('bash-integration.bin');

describe('terminal output as text', () => {
	it('a recorded bash session: colours, CRLF, progress folded to its last rendering, tabs and UTF-8', () => {
		assert.deepEqual(commandOutputs(BASH).map(terminalText), [
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
			assert.equal(cleanedInChunks(BASH, size), whole, `in chunks of ${size}`);
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

	it('breaks a line that never ends, says it was cut, and gives the unfinished line at the end', () => {
		const reader = new TerminalText(20);
		assert.deepEqual(reader.push('0123456789abcdefghij0123'), [`0123456789abcdefghij${LINE_CONTINUES}`]);
		assert.deepEqual(reader.push('4'), []);
		assert.equal(reader.current, '01234');
		assert.deepEqual(reader.push('\r\n? Continue [y/N] '), ['01234']);
		assert.equal(reader.current, '? Continue [y/N] ', 'the prompt a process waits at');
		assert.deepEqual(reader.end(), ['? Continue [y/N]']);
		assert.deepEqual(new TerminalText(20).push(`${'x'.repeat(20)}\n`), ['x'.repeat(20)], 'a line of exactly the bound is whole');
		assert.deepEqual(new TerminalText(20).push(`${'x'.repeat(19)}\u{1F600}y\n`), [`${'x'.repeat(19)}${LINE_CONTINUES}`, '\u{1F600}y'], 'not inside a character');
	});

	it('keeps a line with no newline at all bounded: 1 MB in 64 KB chunks leaves lines of at most the bound, nothing lost', () => {
		const reader = new TerminalText();
		const lines: string[] = [];
		for (let sent = 0; sent < 1024 * 1024; sent += 64 * 1024) {
			lines.push(...reader.push('x'.repeat(64 * 1024)));
			assert.ok(reader.current.length <= MAX_LINE_CHARS);
		}
		assert.equal(lines.length, 1024 * 1024 / MAX_LINE_CHARS - 1);
		assert.ok(lines.every((line) => line === `${'x'.repeat(MAX_LINE_CHARS)}${LINE_CONTINUES}`));
		assert.equal(reader.current.length, MAX_LINE_CHARS, 'the last piece is still being written');
	});

	it('keeps the cursor inside the bound, as a terminal keeps it in its last column: a huge move fills no memory', () => {
		const reader = new TerminalText(20);
		assert.deepEqual(reader.push('a\u001b[1000000Cb\n'), [`a${' '.repeat(18)}b`]);
		assert.deepEqual(reader.push('c\u001b[1000000Gd\n'), [`c${' '.repeat(18)}d`]);
		assert.deepEqual(reader.push('\u001b[1000000Ce\u001b[20Df\n'), [`f${' '.repeat(18)}e`]);
	});

	it('folds carriage-return progress however long it goes on; a rendering longer than the bound is broken like any line', () => {
		const reader = new TerminalText();
		for (let chunk = 0; chunk < 100; chunk++) {
			let text = '';
			for (let step = 0; step < 1000; step++) {
				text += `\rDownloading ${chunk}.${step}% ${'='.repeat(step % 50)}>\u001b[K`;
			}
			assert.deepEqual(reader.push(text), [], 'no line in 3 MB of progress');
		}
		assert.equal(reader.current, `Downloading 99.999% ${'='.repeat(49)}>`);
		const narrow = new TerminalText(20);
		assert.deepEqual(narrow.push(`${'a'.repeat(25)}\r${'b'.repeat(25)}\r`), [`${'a'.repeat(20)}${LINE_CONTINUES}`, `${'b'.repeat(20)}${LINE_CONTINUES}`]);
		assert.equal(narrow.current, 'bbbbb');
	});

	it('lets no control character through from binary output, whatever the chunks', () => {
		let seed = 42;
		const bytes = Buffer.from(
			Uint8Array.from({ length: 200_000 }, () => {
				seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
				return (seed >> 16) & 0xff;
			}),
		);
		// As the launchers decode: invalid UTF-8 becomes U+FFFD.
		const text = bytes.toString('utf8');
		const reader = new TerminalText();
		const lines: string[] = [];
		for (let i = 0, size = 1; i < text.length; i += size, size = 1 + ((size * 7 + 3) % 5000)) {
			lines.push(...reader.push(text.slice(i, i + size)));
		}
		lines.push(...reader.end());
		assert.ok(lines.length > 100);
		// eslint-disable-next-line no-control-regex -- looking for control characters
		assert.doesNotMatch(lines.join(''), /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/u);
	});

	it('drops a lone ESC without hiding the character after it, and NUL, BEL and other controls; applies backspace', () => {
		assert.equal(terminalText('a\u001b\nb\n'), 'a\nb', 'an ESC before a newline does not swallow it');
		assert.equal(terminalText('a\u001b\u00e9\u001b(\rb\n'), 'b\u00e9');
		assert.equal(terminalText('x\u0000y\u0007z\u000b\u000c\u000e\u001a\u007f\u0085!\n'), 'xyz!');
		assert.equal(terminalText('12\b\b\b3\n'), '32', 'backspace stops at the start of the line');
		const reader = new TerminalText();
		assert.deepEqual(reader.push('50%\r'), []);
		assert.equal(reader.current, '50%', 'a CR at the end of a chunk waits to see whether LF follows');
		assert.deepEqual(reader.push('\n'), ['50%']);
		reader.push('60%\r');
		reader.push('7');
		assert.equal(reader.current, '70%');
		reader.push('\rdone\r');
		assert.deepEqual(reader.end(), ['done']);
	});
});
