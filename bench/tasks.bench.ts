// The task list's cost on the path of every request: the root's WAIT in a chat with 200 open
// task rows (the root's and four child agents', all four invocations live in the engine), while
// the rows are fresh (tasks.nudge's trigger is false) and once they are stale (it fires and its
// body lists them); and one TaskWrite and one TaskList over those rows.
import type { Logger } from '../src/base/log';
import { ChatSession } from '../src/agent/session';
import { ChatTasks } from '../src/features/tasks/chatTasks';
import { taskListText } from '../src/tools/taskText';
import type { Owner } from '../src/reminders/definition';
import { DEFAULT_REMINDERS } from '../src/reminders/builtin/defaults';
import { TASKS_NUDGE } from '../src/reminders/builtin/catalog/agents';
import { DEFAULT_REMINDER_CONFIG } from '../src/reminders/config';
import type { PreparedRequest } from '../src/reminders/injector';
import { FakeClock, SequentialIds } from '../src/testing/fakeClock';
import { MemorySessionStore } from '../src/testing/memorySessionStore';
import type { ChatMessage } from '../src/providers/messages';
import { type BenchRow, measure, report, timerOverheadUs } from './harness';

const LOOP = { warmup: 2_000, iterations: 20_000 };
const TARGET = { median_us: 200, p99_us: 1_000 };
const OPEN_ROWS = 200;
const CHILDREN = ['root/explore#1', 'root/explore#2', 'root/general#3', 'root/verify#4'];
const silent: Logger = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function met(stats: { median_us: number; p99_us: number }): string {
	return stats.median_us < TARGET.median_us && stats.p99_us < TARGET.p99_us ? 'met' : 'missed';
}

/** A chat at session turn 1 whose 200 open rows belong to the root and four live children. */
function chat() {
	const clock = new FakeClock(1_000);
	const ids = new SequentialIds('bench');
	const store = new MemorySessionStore();
	const session = new ChatSession('bench', store, { clock, ids, log: silent, reminderConfig: DEFAULT_REMINDER_CONFIG, reminderDefaults: () => DEFAULT_REMINDERS });
	const live = new Set(CHILDREN);
	const tasks = new ChatTasks(session, { clock, newId: () => ids.next(), isRunning: (path) => live.has(path) });
	const engine = session.reminders;
	let owner: Owner = engine.beginUserTurn('t1');
	for (const child of CHILDREN) {
		engine.spawnAgent(child);
	}
	const owners = ['root', ...CHILDREN];
	for (const [index, by] of owners.entries()) {
		const rows = Array.from({ length: OPEN_ROWS / owners.length }, (_, n) => ({ id: `${index}-${n}`, title: `Step ${n} of part ${index}: make the parser handle empty input & report < 3 errors`, status: n % 3 === 0 ? ('in_progress' as const) : ('pending' as const) }));
		const written = tasks.write(by, rows);
		if (!written.ok) {
			throw new Error(written.error);
		}
	}
	const advance = (turns: number): void => {
		for (let index = 0; index < turns; index++) {
			owner = engine.beginUserTurn(`t${engine.roster.turn + 1}`);
		}
	};
	return { session, tasks, engine, owner: () => owner, advance, store };
}

const messages: ChatMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Carry on with the parser.' }] }];
const request = (owner: Owner): PreparedRequest => ({ requestId: 'bench-request', owner, phase: 'mid-turn', messages });

function main(): void {
	const rows: BenchRow[] = [];
	const fresh = chat();
	const freshRequest = request(fresh.owner());
	// Not timing checks: each row must measure the scenario it names.
	if (fresh.engine.wait(freshRequest, undefined, { step: 2, stepLimit: 25 }).record?.entries.some((entry) => entry.type === TASKS_NUDGE.type)) {
		throw new Error('The fresh rows were nudged.');
	}
	const freshStats = measure(() => fresh.engine.wait(freshRequest, undefined, { step: 2, stepLimit: 25 }).message?.content.length ?? 0, LOOP);
	rows.push({ name: `root WAIT, ${OPEN_ROWS} open rows written this turn, ${CHILDREN.length} live children`, iterations: LOOP.iterations, ...freshStats, target: met(freshStats) });

	const stale = chat();
	stale.advance(8);
	const staleRequest = request(stale.owner());
	const probe = stale.engine.wait(staleRequest, undefined, { step: 2, stepLimit: 25 });
	const nudge = probe.record?.entries.find((entry) => entry.type === TASKS_NUDGE.type);
	if (!nudge) {
		throw new Error('The stale rows were not nudged.');
	}
	// Never committed: every iteration finds the rows stale and builds the body again.
	const staleStats = measure(() => stale.engine.wait(staleRequest, undefined, { step: 2, stepLimit: 25 }).message?.content.length ?? 0, LOOP);
	rows.push({ name: `root WAIT, ${OPEN_ROWS} open rows stale: tasks.nudge built, ${CHILDREN.length} live children`, iterations: LOOP.iterations, ...staleStats, target: met(staleStats) });

	let flip = false;
	const writeStats = measure(() => {
		flip = !flip;
		const written = fresh.tasks.write('root', [{ id: '0-0', status: flip ? 'completed' : 'in_progress' }]);
		fresh.store.records.length = 0;
		return written.ok ? written.changed.length : -1;
	}, LOOP);
	rows.push({ name: `TaskWrite of one row over ${OPEN_ROWS} (checked, recorded in a memory store)`, iterations: LOOP.iterations, ...writeStats, target: '—' });

	const listStats = measure(() => taskListText(fresh.tasks.all).length, LOOP);
	rows.push({ name: `TaskList text of ${OPEN_ROWS} rows`, iterations: LOOP.iterations, ...listStats, target: '—' });

	report({
		case: 'tasks',
		title: 'the task list on the request path',
		target: `the root's WAIT with ${CHILDREN.length} live children and ${OPEN_ROWS} open tasks: median under 0.2 ms and p99 under 1 ms, as for any WAIT`,
		rows,
		notes: [
			`Scenario: a chat with the built-in default reminders and tasks.nudge, ${OPEN_ROWS} open rows owned by the root and ${CHILDREN.length} children (${CHILDREN.join(', ')}), whose invocations are spawned in the engine and still live; a mid-turn WAIT of the root at step 2 of 25 over a one-message history.`,
			`"written this turn": the staleness check stops tasks.nudge before it reads a row. "stale": eight session turns later the nudge is due and its body (${nudge.body.length.toLocaleString('en-US')} characters, 50 rows listed, the rest counted, grouped by owner) is built at every WAIT, since nothing is committed.`,
			`TaskWrite flips one row's status (the whole write is checked, one record appended to a memory store, the change announced); the disk's append is the transcript case's. Its heap Δ is the session keeping every record it appended (each write is one more record in memory, as in the product). ${LOOP.warmup.toLocaleString('en-US')} warm-up calls, then each call timed alone (timer overhead about ${timerOverheadUs()} µs).`,
		],
	});
}

main();
