// workspace reminders at WAIT: one ReminderEngine.wait() for a mid-turn request of a session
// whose workspace defines 50 reminders (parsed from their file text by the real parser) — half
// roster reminders under each policy, half with `when.read` / `when.edited` globs — after a turn
// that read and edited 40 files (and, in the second row, 400). The target is the WAIT target:
// workspace reminders are evaluated at every model request.
import type { Clock } from '../src/base/clock';
import type { Logger } from '../src/base/log';
import type { Owner } from '../src/reminders/definition';
import { ReminderEngine } from '../src/reminders/engine';
import type { InjectionRecorder, PreparedRequest } from '../src/reminders/injector';
import { BUILTIN_KEYS } from '../src/reminders/keys';
import { assistantCalls, toolResult, userText } from '../src/testing/history';
import { TurnActivity } from '../src/workspaceReminders/activity';
import { type LoadedReminderFile, WorkspaceReminders } from '../src/workspaceReminders/registry';
import { parseReminderFile } from '../src/workspaceReminders/reminderFile';
import { type BenchRow, measure, report, timerOverheadUs } from './harness';

const REMINDERS = 50;
const LOOP = { warmup: 2_000, iterations: 20_000 };
/** The WAIT target: the median. The p99 is reported; on a shared machine it measures the neighbours. */
const TARGET = { median_us: 200 };
const FOLDER = '/work/project';
const POLICIES = ['every', 'on-change', 'once', '{ interval: 3 }'];

const noop = (): void => undefined;
const silentLog: Logger = { trace: noop, debug: noop, info: noop, warn: noop, error: noop };
const fixedClock: Clock = { now: () => 1_750_000_000_000 };
const nullRecorder: InjectionRecorder = { write: noop };

function fileText(index: number): string {
	const policy = POLICIES[index % POLICIES.length] ?? 'every';
	const when = index % 2 === 1 ? ['when:', index % 4 === 1 ? `  read: ["src/mod${index}/**/*.ts", "db/migrations/**"]` : `  edited: "src/mod${index}/**/*.{ts,sql}"`] : [];
	return ['---', `key: rule-${index}`, `label: rule ${index}`, `policy: ${policy}`, ...when, '---', `Rule ${index} of this workspace: keep module ${index} small, test it, and document its public functions. {{files}}`, ''].join('\n');
}

function files(): LoadedReminderFile[] {
	return Array.from({ length: REMINDERS }, (_unused, index) => {
		const parsed = parseReminderFile(fileText(index));
		if (!parsed.spec) {
			throw new Error(`bench reminder ${index} does not parse: ${parsed.problems.map((problem) => problem.message).join('; ')}`);
		}
		return { folder: FOLDER, file: `.aside/reminders/rule-${index}.md`, parsed };
	});
}

function session(events: number): { engine: ReminderEngine; owner: Owner; request: PreparedRequest } {
	const keys = BUILTIN_KEYS.with([]);
	const activity = new TurnActivity();
	const workspace = new WorkspaceReminders({ keys, activity, clock: fixedClock, enabled: () => true });
	workspace.update(files());
	if (workspace.current.length !== REMINDERS) {
		throw new Error(`${workspace.current.length} of ${REMINDERS} bench reminders registered`);
	}
	// Only the workspace's reminders: what they add to WAIT, not the built-ins' cost again.
	const engine = new ReminderEngine({ recorder: nullRecorder, clock: fixedClock, log: silentLog, keys, defaults: workspace.current });
	let owner = engine.beginUserTurn('turn-1');
	for (let turn = 2; turn <= 6; turn++) {
		owner = engine.beginUserTurn(`turn-${turn}`);
	}
	for (let index = 0; index < events; index++) {
		const module = index % 97;
		activity.note(owner, index % 3 === 0 ? 'Edit' : 'Read', [{ path: `${FOLDER}/src/mod${module}/file${index}.ts`, access: index % 3 === 0 ? 'written' : 'read' }]);
	}
	const request: PreparedRequest = { requestId: 'request-bench', owner, phase: 'mid-turn', messages: [userText('Refactor the modules.'), assistantCalls('c1'), toolResult('c1')] };
	return { engine, owner, request };
}

function met(stats: { median_us: number }): string {
	return stats.median_us <= TARGET.median_us ? 'met' : 'missed';
}

function main(): void {
	const rows: BenchRow[] = [];
	const delivered: number[] = [];
	for (const events of [40, 400]) {
		const { engine, request } = session(events);
		const injection = engine.wait(request, undefined, { mode: 'ask' });
		const count = injection.record?.entries.length ?? 0;
		if (count === 0) {
			throw new Error('the bench WAIT delivered nothing: a different scenario');
		}
		delivered.push(count);
		const stats = measure(() => engine.wait(request, undefined, { mode: 'ask' }).message?.content.length ?? 0, LOOP);
		rows.push({ name: `WAIT, 50 workspace reminders, ${events} tool events in the turn`, iterations: LOOP.iterations, ...stats, target: met(stats) });
	}
	report({
		case: 'workspaceReminders',
		title: 'workspace reminders at WAIT',
		target: `median at most ${TARGET.median_us / 1000} ms per WAIT`,
		rows,
		notes: [
			`The more tool events, the more reminders match and are delivered (the bodies are built), not more matching: each WAIT scans only the events since the last one. 50 reminders parsed from file text: 25 roster reminders (every, on-change, once, interval: 3), 25 with when globs (read or edited, picomatch). The turn read and edited files of 97 modules; ${delivered.join(' and ')} entries are delivered per WAIT.`,
			`Nothing is committed, so every iteration sees the same state. ${LOOP.warmup.toLocaleString('en-US')} warm-up calls, then each call timed alone (timer overhead about ${timerOverheadUs()} µs).`,
		],
	});
}

main();
