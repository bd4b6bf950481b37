import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_REMINDER_CONFIG } from '../../reminders/config';
import type { CollectedEntry, Owner } from '../../reminders/definition';
import { BUILTIN_KEYS } from '../../reminders/keys';
import { ReminderRoster } from '../../reminders/roster';
import { BackgroundProcesses, type Notify } from '../../terminal/backgroundProcesses';
import { ScriptedLauncher } from '../../testing/scriptedLauncher';
import { ProcessNews, STUCK_QUIET_MS } from './processNews';
import { PROCESS_REMINDERS } from './processReminders';

const KEYS = BUILTIN_KEYS.with(PROCESS_REMINDERS.filter((declaration) => !BUILTIN_KEYS.has(declaration.key)));
const ROOT: Owner = { kind: 'root', id: 'turn-1' };
const START = Date.UTC(2026, 11, 7, 14, 2, 11);

function chat() {
	let now = START;
	const launcher = new ScriptedLauncher();
	const processes = new BackgroundProcesses(launcher, { outputPath: (id) => `/storage/chat-1/processes/${id}.log`, now: () => now, file: () => undefined, graceMs: 10 });
	const news = new ProcessNews(processes, () => now);
	const roster = new ReminderRoster('session', KEYS);
	roster.register(news.exitDefinition());
	roster.register(news.outputDefinition());
	roster.register(news.stuckDefinition());
	roster.register(news.runningDefinition());
	/** One request: what it carried by key; committed unless it failed. */
	const request = ({ delivered = true } = {}): Map<string, string> => {
		roster.advanceTurn();
		const out: CollectedEntry[] = [];
		roster.collect(ROOT, 'turn-start', {}, DEFAULT_REMINDER_CONFIG, out, (type, error) => {
			throw new Error(`${type}: ${String(error)}`);
		});
		if (delivered) {
			out.forEach((entry) => entry.commit?.());
		}
		return new Map(out.map((entry) => [entry.key, entry.body ?? '']));
	};
	const start = async (command: string, notify: Notify = { kind: 'exit' }) => ({ process: await processes.start(command, '/work', notify), driven: launcher.last });
	return { processes, request, start, advance: (ms: number) => (now += ms) };
}

describe('background processes told to the model', () => {
	it('an exit is told once, with its code, run time, last lines and output file — also across a failed request', async () => {
		const { request, start, advance } = chat();
		const { driven } = await start('node server.js');
		assert.match(request().get('run.background.running') ?? '', /- p1 `node server\.js` since 14:02:11 UTC; output: \/storage\/chat-1\/processes\/p1\.log/);
		driven.data.fire('listening on 3000\r\nGET / 200\n');
		advance(6_000);
		driven.exit.fire({ code: 3 });
		const failed = request({ delivered: false });
		assert.match(failed.get('run.background.exit') ?? '', /exited: exit code 3/);
		const told = request();
		assert.equal(told.get('run.background.exit'), [
			'p1 `node server.js` exited: exit code 3, at 14:02:17 UTC after 6 s.',
			'Its last 2 lines:\nlistening on 3000\nGET / 200',
			'Its whole output: /storage/chat-1/processes/p1.log (Read it, or RunOutput p1).',
		].join('\n'));
		assert.match(told.get('run.background.running') ?? '', /^No background process of this chat runs now\./);
		assert.deepEqual([...request().keys()], [], 'said once');
	});

	it('an exit with no code reported says unknown; a stop and the output bound say why', async () => {
		const { processes, request, start } = chat();
		(await start('make watch')).driven.exit.fire({ code: undefined });
		await start('npm run dev');
		await processes.stop('p2');
		const body = request().get('run.background.exit') ?? '';
		assert.match(body, /p1 `make watch` exited: exit code unknown \(the shell reported none\)/);
		assert.match(body, /p2 `npm run dev` was stopped \(RunStop, or the person\): exit code 130, SIGINT/);
	});

	it('new output is told once per request while unread, never after RunOutput read it', async () => {
		const { processes, request, start } = chat();
		const { driven } = await start('tsc --watch', { kind: 'output' });
		request();
		driven.data.fire('Found 2 errors.\n');
		assert.match(request().get('run.background.output') ?? '', /p1 `tsc --watch` printed new output \(1 unread lines\):\nFound 2 errors\.\nRead it all with RunOutput p1\./);
		assert.equal(request().has('run.background.output'), false, 'nothing new since');
		driven.data.fire('Found 0 errors.\n');
		processes.read('p1', 'last');
		assert.equal(request().has('run.background.output'), false, 'RunOutput read it');
		driven.data.fire('a\nb\n');
		assert.match(request().get('run.background.output') ?? '', /\(2 unread lines\):\na\nb\n/);
	});

	it('notify.match tells only the matching lines', async () => {
		const { request, start } = chat();
		const { driven } = await start('npm test -- --watch', { kind: 'match', pattern: /fail/iu });
		request();
		driven.data.fire('ok 1\nok 2\n');
		assert.equal(request().has('run.background.output'), false, 'no match');
		driven.data.fire('FAIL parser.test.ts\nok 3\n');
		assert.match(request().get('run.background.output') ?? '', /lines matching its pattern \(1 unread\):\nFAIL parser\.test\.ts\n/);
	});

	it('a process quiet at a prompt is told once per prompt line; a busy one or a plain line is not', async () => {
		const { request, start, advance } = chat();
		const { driven } = await start('npx create-app demo');
		request();
		driven.data.fire('Need to install the following packages:\ncreate-app@1.0.0\nOk to proceed? (y) ');
		advance(STUCK_QUIET_MS - 1);
		assert.equal(request().has('run.background.stuck'), false, 'not quiet long enough');
		advance(1);
		assert.match(request().get('run.background.stuck') ?? '', /p1 `npx create-app demo` has printed nothing for 10 s and seems to wait at a prompt: "Ok to proceed\? \(y\)"\. .*RunStop p1/);
		advance(60_000);
		assert.equal(request().has('run.background.stuck'), false, 'once per prompt');
	});

	it('the running set is a section once a process started: told when it changes, not while it does not', async () => {
		const { request, start } = chat();
		assert.equal(request().has('run.background.running'), false, 'no process ever ran');
		await start('npm run dev');
		assert.match(request().get('run.background.running') ?? '', /- p1 `npm run dev`/);
		assert.equal(request().has('run.background.running'), false, 'unchanged');
		await start('npm run storybook');
		assert.match(request().get('run.background.running') ?? '', /- p1 `npm run dev`[^]*- p2 `npm run storybook`/);
	});
});
