import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { waitForEvent } from '../base/event';
import { endsWithin } from '../testing/processState';
import { BackgroundProcesses, type ProcessEvent } from './backgroundProcesses';
import { ChildProcessLauncher } from './childLauncher';
import { FileOutput } from './outputFile';
import { cutNote } from './processOutput';
import { LINE_CONTINUES, MAX_LINE_CHARS } from './terminalText';

const dir = mkdtempSync(join(tmpdir(), 'aside-background-'));
after(() => {
	rmSync(dir, { recursive: true, force: true });
});

function registry(options: { graceMs?: number; fileBytes?: number } = {}) {
	const chatDir = join(dir, `chat-${Math.random().toString(36).slice(2)}`);
	return new BackgroundProcesses(new ChildProcessLauncher(), {
		outputPath: (id: string) => join(chatDir, `${id}.log`),
		now: () => Date.now(),
		file: (path) => new FileOutput(path),
		graceMs: options.graceMs ?? 300,
		...(options.fileBytes === undefined ? {} : { bounds: { ringChars: 64 * 1024, fileBytes: options.fileBytes } }),
	});
}

const ended = (processes: BackgroundProcesses, id: string): Promise<ProcessEvent> =>
	waitForEvent(processes.onDidChange, (event) => event.kind === 'ended' && event.process.id === id, 20_000, `${id} to end`);

describe('background processes (real child processes)', { skip: process.platform === 'win32' }, () => {
	it('numbers each chat\'s processes, keeps their output in the ring and the file, and their exit code as reported', async () => {
		const processes = registry();
		const first = await processes.start('printf "one\\ntwo\\n"; exit 3', dir, { kind: 'exit' });
		const second = await processes.start('sleep 30', dir, { kind: 'exit' });
		assert.deepEqual([first.id, second.id], ['p1', 'p2']);
		assert.deepEqual(processes.running().map((process) => process.id), ['p1', 'p2'], 'both run until their exit is seen');
		await ended(processes, 'p1');
		assert.equal(first.end?.code, 3);
		assert.equal(first.end.cause, 'exited');
		assert.deepEqual(first.output.last(5), ['one', 'two']);
		assert.equal(readFileSync(first.outputPath, 'utf8'), 'one\ntwo\n');
		assert.deepEqual(processes.running().map((process) => process.id), ['p2']);
		processes.dispose();
	});

	it('stops a process with an interrupt; one that ignores it is killed after the grace period', async () => {
		const processes = registry({ graceMs: 300 });
		const polite = await processes.start('sleep 30', dir, { kind: 'exit' });
		// It says when its trap is set: an interrupt sent before that would end it like any other.
		const trapped = waitForEvent(processes.onDidChange, (event) => event.kind === 'output' && event.lines.includes('trapped'), 20_000, 'the trap');
		const pidFile = join(dir, `stubborn-${Date.now()}.pid`);
		// exec: the sleep itself (SIGINT still ignored) is the process whose pid was written.
		const stubborn = await processes.start(`trap "" INT; echo $$ > ${pidFile}; echo trapped; exec sleep 600`, dir, { kind: 'exit' });
		await trapped;
		const [politeEnd, stubbornEnd] = await Promise.all([processes.stop(polite.id), processes.stop(stubborn.id)]);
		assert.equal(politeEnd?.cause, 'stopped');
		assert.equal(politeEnd.signal, 'SIGINT');
		assert.equal(stubbornEnd?.cause, 'stopped');
		assert.equal(stubbornEnd.signal, 'SIGKILL', 'it ignored the interrupt');
		assert.equal(await endsWithin(Number(readFileSync(pidFile, 'utf8')), 3000), true, 'the sleep is gone');
		assert.equal(await processes.stop(polite.id), politeEnd, 'stopping an ended process says how it ended');
		assert.equal(processes.stop('p9'), undefined);
	});

	it('collects the lines matching notify.match, until RunOutput reads them', async () => {
		const processes = registry();
		const process = await processes.start('for i in 1 2 3 4; do echo "step $i"; done; echo "ERROR: disk full"; echo done', dir, { kind: 'match', pattern: /error/iu });
		await ended(processes, process.id);
		assert.deepEqual(process.matches, ['ERROR: disk full']);
		assert.deepEqual(processes.read(process.id, 'last')?.lines, ['step 1', 'step 2', 'step 3', 'step 4', 'ERROR: disk full', 'done']);
		assert.deepEqual(process.matches, []);
		assert.equal(process.output.unread, 0);
	});

	it('stops a process whose output passes the file\'s bound (yes, for ever), and says that is why, in the file too', async () => {
		const processes = registry({ fileBytes: 1024 * 1024 });
		const done = ended(processes, 'p1');
		const pidFile = join(dir, `yes-${Date.now()}.pid`);
		const process = await processes.start(`echo $$ > ${pidFile}; exec yes "a line that repeats for ever"`, dir, { kind: 'exit' });
		await done;
		assert.equal(process.end?.cause, 'bound');
		assert.equal(process.output.overBound, true);
		assert.equal(await endsWithin(Number(readFileSync(pidFile, 'utf8')), 3000), true, 'yes is gone');
		const file = readFileSync(process.outputPath, 'utf8');
		assert.ok(Buffer.byteLength(file) <= 1024 * 1024);
		assert.ok(file.endsWith(`a line that repeats for ever\n${cutNote(1024 * 1024)}\n`));
		assert.ok(process.output.read('start').lines.join('\n').length <= 64 * 1024, 'the ring stays within its bound');
	});

	it('breaks output with no newline at all into bounded lines, and stops it at the file\'s bound', async () => {
		const processes = registry({ fileBytes: 1024 * 1024 });
		const process = await processes.start('yes | tr -d "\\n"', dir, { kind: 'exit' });
		await ended(processes, process.id);
		assert.equal(process.end?.cause, 'bound');
		assert.ok(process.output.current.length <= MAX_LINE_CHARS);
		assert.deepEqual(process.output.last(1), [`${'y'.repeat(MAX_LINE_CHARS)}${LINE_CONTINUES}`]);
		assert.ok(Buffer.byteLength(readFileSync(process.outputPath, 'utf8')) <= 1024 * 1024);
	});

	it('lets no control character through from binary output, and decodes a character split between two writes', async () => {
		const processes = registry();
		const binary = await processes.start('head -c 100000 /dev/urandom', dir, { kind: 'exit' });
		const split = await processes.start('printf "\\303"; sleep 0.3; printf "\\251t\\n"', dir, { kind: 'exit' });
		await Promise.all([ended(processes, binary.id), ended(processes, split.id)]);
		assert.equal(binary.end?.cause, 'exited');
		const lines = binary.output.read('start').lines;
		// eslint-disable-next-line no-control-regex -- looking for control characters
		assert.doesNotMatch(`${lines.join('')}${readFileSync(binary.outputPath, 'utf8').replace(/\n/gu, '')}`, /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/u);
		assert.deepEqual(split.output.read('start').lines, ['\u00e9t'], 'é, its two bytes written 0.3 s apart');
	});
});
