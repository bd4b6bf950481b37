import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FileOutput } from './outputFile';
import { cutNote, type OutputFile, ProcessOutput } from './processOutput';
import { LINE_CONTINUES, MAX_LINE_CHARS } from './terminalText';
import { looksLikePrompt, waitingPrompt } from './prompts';

class MemoryFile implements OutputFile {
	readonly path = '/storage/p1.log';
	text = '';
	writes = 0;
	closed = false;
	append(text: string): void {
		this.text += text;
		this.writes++;
	}
	close(): void {
		this.closed = true;
	}
}

describe('a process\'s output', () => {
	it('keeps the cleaned lines, the one being written apart, and every line in the file in one write per chunk', () => {
		const file = new MemoryFile();
		const output = new ProcessOutput(file);
		assert.deepEqual(output.push('\u001b[32mready\u001b[0m\r\nloading 10%\rloading 100%\nwaiting> '), ['ready', 'loading 100%']);
		assert.equal(output.lineCount, 2);
		assert.equal(output.current, 'waiting> ');
		assert.equal(file.text, 'ready\nloading 100%\n');
		assert.equal(file.writes, 1);
		assert.deepEqual(output.end(), ['waiting>']);
		assert.equal(file.text, 'ready\nloading 100%\nwaiting>\n');
		assert.equal(file.closed, true);
	});

	it('RunOutput reads what is new since the last read, from the start, or its last lines; the cursor moves each time', () => {
		const output = new ProcessOutput(undefined);
		output.push('one\ntwo\nthree\n');
		assert.equal(output.unread, 3);
		assert.deepEqual(output.read('last').lines, ['one', 'two', 'three']);
		assert.equal(output.unread, 0);
		assert.deepEqual(output.read('last'), { lines: [], from: 4, to: 3, before: 0, current: '' }, 'nothing new');
		output.push('four\nfive\nsix\nseven\n');
		assert.deepEqual(output.peekUnread(2), ['six', 'seven'], 'a reminder looks without moving the cursor');
		assert.equal(output.unread, 4);
		const tail = output.read('last', 2);
		assert.deepEqual([tail.lines, tail.from, tail.to], [['six', 'seven'], 6, 7]);
		assert.equal(output.unread, 0, 'a tail read moves the cursor to the end');
		assert.deepEqual(output.read('start').lines, ['one', 'two', 'three', 'four', 'five', 'six', 'seven']);
	});

	it('keeps only the last lines in the ring, and says how many of a read are in the file only', () => {
		const file = new MemoryFile();
		const output = new ProcessOutput(file, { ringChars: 20, fileBytes: 100_000 });
		for (let i = 1; i <= 10; i++) {
			output.push(`line ${i}\n`);
		}
		assert.equal(output.lineCount, 10);
		const read = output.read('start');
		assert.deepEqual(read.lines, ['line 9', 'line 10']);
		assert.deepEqual([read.from, read.to, read.before], [1, 10, 8]);
		assert.equal(file.text.split('\n').length - 1, 10, 'the file has them all');
		assert.deepEqual(output.last(5), ['line 9', 'line 10']);
		for (let i = 11; i <= 5000; i++) {
			output.push(`line ${i}\n`);
		}
		const later = output.read('last');
		assert.deepEqual([later.lines, later.from, later.to, later.before], [['line 4999', 'line 5000'], 11, 5000, 4988]);
		assert.deepEqual(output.peekUnread(5), [], 'all read');
		output.push('line 5001\n');
		assert.deepEqual(output.peekUnread(5), ['line 5001']);
	});

	it('stops keeping at the file\'s bound and says so, in the file too, which stays within it; what came after is not kept', () => {
		const file = new MemoryFile();
		// Room for two lines and the note (as long for any two-digit bound).
		const fileBytes = 12 + Buffer.byteLength(`${cutNote(99)}\n`);
		const output = new ProcessOutput(file, { ringChars: 1_000, fileBytes });
		assert.deepEqual(output.push('12345\n67890\nabcde\n'), ['12345', '67890']);
		assert.equal(output.overBound, true);
		assert.deepEqual(output.push('more\n'), []);
		assert.deepEqual(output.end(), []);
		assert.equal(file.text, `12345\n67890\n${cutNote(fileBytes)}\n`);
		assert.equal(Buffer.byteLength(file.text), fileBytes);
		assert.match(file.text, /kept no more of this output here: it passed the bound of \d+ bytes/u);
	});

	it('keeps a flood of short lines and a line with no end within the ring and the file\'s bounds', () => {
		const file = new MemoryFile();
		const output = new ProcessOutput(file, { ringChars: 64 * 1024, fileBytes: 512 * 1024 });
		for (let i = 0; i < 40 && !output.overBound; i++) {
			output.push('y\n'.repeat(4096));
		}
		assert.deepEqual(output.read('start').lines.length, 32 * 1024, 'the ring holds the last 64 KB');
		assert.deepEqual(output.last(2), ['y', 'y']);
		for (let i = 0; i < 64 && !output.overBound; i++) {
			output.push('x'.repeat(64 * 1024));
			assert.ok(output.current.length <= MAX_LINE_CHARS, 'the line being written is bounded');
		}
		assert.equal(output.overBound, true);
		assert.ok(Buffer.byteLength(file.text) <= 512 * 1024);
		assert.ok(file.text.endsWith(`x${LINE_CONTINUES}\n${cutNote(512 * 1024)}\n`));
		const read = output.read('last');
		assert.ok(read.lines.join('\n').length <= 64 * 1024 + MAX_LINE_CHARS, 'the ring: at most its bound and one line');
		assert.equal(read.lines.at(-1), `${'x'.repeat(MAX_LINE_CHARS)}${LINE_CONTINUES}`);
		assert.equal(read.from + read.before, read.to - read.lines.length + 1);
	});

	it('writes a real file, and a file that cannot be created says why while the ring keeps the lines', () => {
		const dir = mkdtempSync(join(tmpdir(), 'aside-output-'));
		try {
			const file = new FileOutput(join(dir, 'chat', 'p1.log'));
			const output = new ProcessOutput(file);
			output.push('a\r\nb\n');
			output.end();
			assert.equal(readFileSync(file.path, 'utf8'), 'a\nb\n');
			const broken = new FileOutput(join(file.path, 'under-a-file.log'));
			assert.match(broken.problem ?? '', /could not be created/);
			const kept = new ProcessOutput(broken);
			kept.push('still here\n');
			assert.deepEqual(kept.last(1), ['still here']);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe('a quiet process waiting at a prompt', () => {
	it('reads questions, yes/no choices, credentials and "press a key" as prompts; ordinary output not', () => {
		for (const line of ['Overwrite existing files?', 'Proceed [y/N] ', 'Continue? (yes/no) ', 'Are you sure [Y/n]:', 'Password:', 'Enter passphrase for key \'/home/a/.ssh/id\': ', 'Press any key to continue', 'Ok to proceed? (y) ', 'Project name? › (my-app)']) {
			assert.equal(looksLikePrompt(line), true, line);
		}
		for (const line of ['Listening on http://localhost:3000', 'Compiled successfully.', '', 'GET /?q=1 200', 'watching for file changes...']) {
			assert.equal(looksLikePrompt(line), false, line);
		}
	});

	it('looks at the line being written first (a prompt has no newline), else at the last line', () => {
		assert.equal(waitingPrompt('Overwrite? [y/N] ', 'Copying…'), 'Overwrite? [y/N]');
		assert.equal(waitingPrompt('', 'Password:'), 'Password:');
		assert.equal(waitingPrompt('50%', 'Password:'), undefined, 'something is being written after it');
		assert.equal(waitingPrompt('', undefined), undefined);
	});
});
