import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { waitForEvent } from '../base/event';
import { BackgroundProcesses } from '../terminal/backgroundProcesses';
import { ChildProcessLauncher } from '../terminal/childLauncher';
import { FileOutput } from '../terminal/outputFile';
import { nodeToolContext } from '../testing/nodeWorkspace';
import { grant } from './featureAccess';
import { PROCESS_ACCESS } from './processAccess';
import { invokeTool } from './registry';
import { notifyOf } from './runBackground';
import { runTool } from './run';
import { runOutputTool } from './runOutput';
import { runStopTool } from './runStop';

const dir = mkdtempSync(join(tmpdir(), 'aside-run-background-'));
after(() => {
	rmSync(dir, { recursive: true, force: true });
});

function chat() {
	const chatDir = join(dir, `chat-${Math.random().toString(36).slice(2)}`);
	const processes = new BackgroundProcesses(new ChildProcessLauncher(), {
		outputPath: (id: string) => join(chatDir, `${id}.log`),
		now: () => Date.now(),
		file: (path) => new FileOutput(path),
		// Ample: a loaded machine may take a while to end a shell on SIGINT, and no process here ignores it.
		graceMs: 5000,
	});
	const context = { ...nodeToolContext([dir]), features: grant(PROCESS_ACCESS, processes) };
	const ended = (id: string) => waitForEvent(processes.onDidChange, (event) => event.kind === 'ended' && event.process.id === id, 20_000, `${id} to end`);
	return { processes, context, ended };
}

describe('Run in the background, RunOutput and RunStop (real processes)', { skip: process.platform === 'win32' }, () => {
	it('Run returns at once with the id and the output file; RunOutput gives only what is new, then how it ended', async () => {
		const { context, ended } = chat();
		const done = ended('p1');
		const started = await invokeTool(runTool, { command: 'echo one; echo two; sleep 0.3; echo three; exit 4', background: true }, context);
		assert.equal(started.isError, undefined);
		assert.match(started.content, /^Started p1 in the background: `echo one; echo two; sleep 0\.3; echo three; exit 4`\. Its whole output goes to \S+p1\.log\. You are told when it ends/);
		await done;
		const first = await invokeTool(runOutputTool, { id: 'p1' }, context);
		assert.match(first.content, /^p1 `[^`]+` — exited \(exit code 4\) at \d\d:\d\d:\d\d UTC, after [\d.]+ s\n\nLines 1–3 of 3 \(new since your last read\):\none\ntwo\nthree$/);
		const again = await invokeTool(runOutputTool, { id: 'p1' }, context);
		assert.match(again.content, /No new output since your last read\.$/);
		const tail = await invokeTool(runOutputTool, { id: 'p1', since: 'start', tail_lines: 1 }, context);
		assert.match(tail.content, /Lines 3–3 of 3:\nthree$/);
		const path = /goes to (\S+p1\.log)\./u.exec(started.content)?.[1] ?? '';
		assert.equal(readFileSync(path, 'utf8'), 'one\ntwo\nthree\n');
	});

	it('RunStop interrupts a running process and says how it ended; an unknown id names the ones there are', async () => {
		const { context, processes } = chat();
		await invokeTool(runTool, { command: 'echo started; sleep 30', background: true }, context);
		// Interrupted once it runs (it printed), as the model would: RunStop after it started.
		await waitForEvent(processes.onDidChange, (event) => event.kind === 'output', 20_000, 'p1 to print');
		const stopped = await invokeTool(runStopTool, { id: 'p1' }, context);
		assert.match(stopped.content, /^p1 `echo started; sleep 30` — was stopped \(exit code unknown \(the shell reported none\), SIGINT\)/);
		assert.match((await invokeTool(runStopTool, { id: 'p1' }, context)).content, /^It had already ended: p1/);
		const unknown = await invokeTool(runOutputTool, { id: 'p7' }, context);
		assert.equal(unknown.isError, true);
		assert.equal(unknown.content, 'There is no background process p7 in this chat; there are p1.');
	});

	it('refuses notify without background, a pattern that does not compile or could hang, and a call with no processes', async () => {
		const { context } = chat();
		assert.match((await invokeTool(runTool, { command: 'true', notify: 'output' }, context)).content, /notify is for a command run in the background/);
		assert.match((await invokeTool(runTool, { command: 'true', background: true, notify: { match: '(' } }, context)).content, /not a valid regular expression/);
		assert.throws(() => notifyOf({ match: '(a+)+$' }), /could take for ever/);
		assert.deepEqual(notifyOf({ match: 'error|warn' }), { kind: 'match', pattern: /error|warn/u });
		const none = await invokeTool(runOutputTool, { id: 'p1' }, nodeToolContext([dir]));
		assert.match(none.content, /RunOutput is not available here/);
	});
});
