// reminders WAIT: one ReminderEngine.wait() for a mid-turn request of a busy session — 50
// registered roster reminders (a third of them fire), 20 turn events, two staged entries — over
// a history of 200, 2,000 and 20,000 messages. WAIT is on the path of every model request, so
// its cost is paid per step of every agent loop; it must not grow with the conversation.
import type { Clock } from '../src/base/clock';
import type { Logger } from '../src/base/log';
import type { ChatMessage, ToolCallPart } from '../src/providers/messages';
import { DEFAULT_REMINDERS } from '../src/reminders/builtin/defaults';
import type { FiringContext, Owner, ReminderDefinition, WaitFacts } from '../src/reminders/definition';
import { ReminderEngine } from '../src/reminders/engine';
import type { InjectionRecorder, PreparedRequest } from '../src/reminders/injector';
import { BUILTIN_KEYS, type KeyRegistry, type ReservedKey } from '../src/reminders/keys';
import { everyTurn, type FiringPolicy, interval, onChange, oneShot } from '../src/reminders/policy';
import { RequestStaging, stageCommit, stageEntry } from '../src/reminders/staging';
import { type BenchRow, consume, measure, measureAsync, prng, report, round, timerOverheadUs } from './harness';

const HISTORY_SIZES = [200, 2_000, 20_000];
const LOOP = { warmup: 2_000, iterations: 20_000 };
const TARGET = { median_us: 200, p99_us: 1_000 };
/** Synthetic roster reminders; the session's two built-in defaults make 50. */
const SYNTHETIC_REMINDERS = 50 - DEFAULT_REMINDERS.length;
const TURN_EVENTS = 20;
/** The session's turn when the measured request is prepared (earlier turns delivered things). */
const SESSION_TURN = 6;
const FACTS: WaitFacts = { step: 4, stepLimit: 25, context: { usedTokens: 82_000, limitTokens: 200_000 } };

// Prose with the characters the envelope escapes (`<`, `>`, `&`), cut into bodies and messages.
const PROSE =
	'The build uses esbuild with packages external & inline source maps; tests bundle each spec separately. ' +
	'When a function returns Promise<void> the caller must await it, or the rejection is lost (see lint rule no-floating-promises). ' +
	'A change to parser.ts moved the -> and => handling into one place, and a < b comparisons now use compare(a, b). ' +
	'Diagnostics: 2 errors, 5 warnings in 3 files; the newest is TS2345 (Argument of type "string | undefined" is not assignable). ' +
	'Prefer targeted reads (line ranges, Grep) over whole files, and keep command output short; run `npm run lint` before committing. ';

function text(random: () => number, min: number, max: number): string {
	const length = min + Math.floor(random() * (max - min));
	const start = Math.floor(random() * PROSE.length);
	return (PROSE + PROSE + PROSE).slice(start, start + length);
}

// ---- keys and reminders -----------------------------------------------------------------------

function benchKeys(): KeyRegistry {
	const extra: ReservedKey[] = [];
	const add = (key: string, label: string): void => {
		extra.push({ key, label, purpose: 'bench', introducedIn: '0.0.0' });
	};
	for (let index = 0; index < SYNTHETIC_REMINDERS; index++) {
		add(`bench.r${index}`, `bench reminder ${index}`);
	}
	for (let index = 0; index < TURN_EVENTS; index++) {
		add(`bench.e${index}`, `bench event ${index}`);
	}
	add('bench.mention', 'mention');
	add('bench.skill', 'skill');
	return BUILTIN_KEYS.with(extra);
}

type Group = 'fires' | 'not-due' | 'trigger-false';
const GROUPS: readonly Group[] = ['fires', 'not-due', 'trigger-false'];
const POLICIES: readonly FiringPolicy[] = [everyTurn, interval(5), oneShot, onChange];

interface SyntheticReminder {
	readonly definition: ReminderDefinition;
	readonly group: Group;
}

/**
 * A third fire (trigger true, due, a body of a few hundred characters built from the facts), a
 * third are not due (already delivered, see `restoreState`), a third have a trigger that is false.
 * Policies rotate within each group so every group holds all four.
 */
function syntheticReminders(): SyntheticReminder[] {
	const random = prng(50);
	const reminders: SyntheticReminder[] = [];
	for (let index = 0; index < SYNTHETIC_REMINDERS; index++) {
		const group = GROUPS[index % GROUPS.length] ?? 'fires';
		const policy = POLICIES[Math.floor(index / GROUPS.length) % POLICIES.length] ?? everyTurn;
		const prose = text(random, 250, 400);
		const withCommit = index % 2 === 0;
		const definition: ReminderDefinition = {
			type: `bench${index}`,
			key: `bench.r${index}`,
			label: `bench reminder ${index}`,
			scope: 'session',
			policy,
			trigger:
				group === 'trigger-false'
					? ({ facts }) => facts.context !== undefined && facts.context.usedTokens / facts.context.limitTokens >= 0.9
					: ({ facts }) => facts.step !== undefined && facts.step > 1,
			content: ({ facts, turn }: FiringContext) => {
				const body = `Step ${facts.step ?? 0} of ${facts.stepLimit ?? 0}, turn ${turn}: ${prose}`;
				return withCommit ? { body, reason: `bench reason ${index}`, commit: () => undefined } : body;
			},
		};
		reminders.push({ definition, group });
	}
	return reminders;
}

function bodyAt(definition: ReminderDefinition, owner: Owner, turn: number): string {
	const content = definition.content({ owner, phase: 'mid-turn', turn, facts: FACTS, delivered: false });
	return (typeof content === 'string' ? content : content.body) ?? '';
}

/**
 * Firing state as if earlier requests had delivered things (restoreDelivery is what a reload
 * does from retained history; it marks exactly as a commit would). Fires: the interval and
 * on-change ones were delivered long enough ago / with another body. Not due: every-turn was
 * delivered by an earlier request of this turn, interval 1 turn ago, one-shot once, on-change
 * with the very body it would send now (so its trigger and content still run each WAIT).
 */
function restoreState(engine: ReminderEngine, reminders: readonly SyntheticReminder[], owner: Owner): void {
	for (const { definition, group } of reminders) {
		const { type, policy } = definition;
		if (group === 'fires') {
			if (policy.kind === 'interval') {
				engine.roster.restoreDelivery(type, SESSION_TURN - policy.turns, bodyAt(definition, owner, 1));
			} else if (policy.kind === 'on-change') {
				engine.roster.restoreDelivery(type, SESSION_TURN - 1, 'an older body');
			}
		} else if (group === 'not-due') {
			const turn = policy.kind === 'every-turn' ? SESSION_TURN : SESSION_TURN - 1;
			engine.roster.restoreDelivery(type, turn, bodyAt(definition, owner, SESSION_TURN));
		}
	}
}

// ---- the session --------------------------------------------------------------------------------

const noop = (): void => undefined;
const silentLog: Logger = { trace: noop, debug: noop, info: noop, warn: noop, error: noop };
const fixedClock: Clock = { now: () => 1_750_000_000_000 };
/** Records nowhere: the transcript write is the caller's I/O, not WAIT's cost. */
const nullRecorder: InjectionRecorder = { write: noop };

interface Session {
	readonly engine: ReminderEngine;
	readonly owner: Owner;
	readonly staging: RequestStaging;
}

function queueTurnEvents(engine: ReminderEngine, owner: Owner, random: () => number): void {
	for (let index = 0; index < TURN_EVENTS; index++) {
		engine.queueTurnEvent(owner, {
			type: `benchEvent${index}`,
			key: `bench.e${index}`,
			body: `Edited src/module${index}.ts (+${index + 3} -${index}): ${text(random, 80, 240)}`,
			commit: noop,
		});
	}
}

function buildSession(keys: KeyRegistry, reminders: readonly SyntheticReminder[]): Session {
	const engine = new ReminderEngine({
		recorder: nullRecorder,
		clock: fixedClock,
		log: silentLog,
		keys,
		defaults: [...DEFAULT_REMINDERS, ...reminders.map(({ definition }) => definition)],
	});
	let owner: Owner | undefined;
	for (let turn = 1; turn <= SESSION_TURN; turn++) {
		owner = engine.beginUserTurn(`turn-${turn}`);
	}
	if (!owner) {
		throw new Error('No user turn began.');
	}
	restoreState(engine, reminders, owner);
	queueTurnEvents(engine, owner, prng(20));
	const staging = new RequestStaging();
	stageEntry(staging, 'mention', { type: 'benchMention', key: 'bench.mention', body: `@src/reminders/engine.ts: ${PROSE.slice(0, 300)}`, commit: noop });
	stageEntry(staging, 'skill', { type: 'benchSkill', key: 'bench.skill', body: `Skill "release-notes": ${PROSE.slice(100, 400)}` });
	stageCommit(staging, noop);
	return { engine, owner, staging };
}

// ---- the history ---------------------------------------------------------------------------------

/**
 * Exactly `size` messages of a coding session: user turns, assistant steps with one to three
 * tool calls each answered by `tool` messages, now and then the synthetic reminder message an
 * earlier WAIT appended, and an answer closing each user turn. The last user turn is still
 * running: it ends with the complete results of the last assistant message's three calls, which
 * is where a mid-turn WAIT appends. Strings come from one prose pool, so 20,000 messages stay small.
 */
function buildHistory(size: number): ChatMessage[] {
	const random = prng(size);
	const messages: ChatMessage[] = [{ role: 'user', content: [{ type: 'text', text: text(random, 40, 300) }] }];
	let call = 0;
	const step = (calls: number): void => {
		const parts: ToolCallPart[] = [];
		for (let index = 0; index < calls; index++) {
			parts.push({ type: 'tool-call', id: `call_${call++}`, name: random() < 0.5 ? 'read_file' : 'run_command', input: { path: `src/module${call % 40}.ts` } });
		}
		messages.push({ role: 'assistant', content: [{ type: 'text', text: text(random, 20, 200) }, ...parts] });
		for (const part of parts) {
			messages.push({ role: 'tool', callId: part.id, content: text(random, 100, 600), isError: random() < 0.05 });
		}
	};
	const tail = 4; // The running step: one assistant message with three calls, and their results.
	while (messages.length < size - tail) {
		const room = size - tail - messages.length;
		const afterResults = messages.at(-1)?.role === 'tool';
		if (afterResults && (room >= 4 || room === 2) && random() < 0.15) {
			// The model answered; the user writes again.
			messages.push({ role: 'assistant', content: [{ type: 'text', text: text(random, 100, 500) }] });
			messages.push({ role: 'user', content: [{ type: 'text', text: text(random, 40, 300) }] });
		} else if (afterResults && room >= 3 && random() < 0.1) {
			messages.push({ role: 'user', content: [{ type: 'text', text: `<system-reminder key="bench.e1">\n${text(random, 100, 300)}\n</system-reminder>` }], synthetic: 'reminders' });
		} else {
			// A step of one to three calls that never leaves a single message of room.
			let calls = Math.min(1 + Math.floor(random() * 3), room - 1);
			if (room - (calls + 1) === 1) {
				calls = calls > 1 ? calls - 1 : calls + 1;
			}
			step(Math.max(1, calls));
		}
	}
	step(3);
	if (messages.length !== size) {
		throw new Error(`The history has ${messages.length} messages, not ${size}.`);
	}
	return messages;
}

// ---- the measurements ---------------------------------------------------------------------------

function requestFor(owner: Owner, messages: readonly ChatMessage[]): PreparedRequest {
	return { requestId: 'request-bench', owner, phase: 'mid-turn', messages };
}

function met(stats: { median_us: number; p99_us: number }): string {
	return stats.median_us < TARGET.median_us && stats.p99_us < TARGET.p99_us ? 'met' : 'missed';
}

async function main(): Promise<void> {
	const keys = benchKeys();
	const reminders = syntheticReminders();
	const rows: BenchRow[] = [];
	const notes: string[] = [];

	const session = buildSession(keys, reminders);
	const histories = HISTORY_SIZES.map((size) => buildHistory(size));
	const [first] = histories;
	if (!first) {
		throw new Error('No history size to measure.');
	}

	// Not a timing check: a WAIT that delivered nothing would measure a different scenario.
	const probe = session.engine.wait(requestFor(session.owner, first), session.staging, FACTS);
	const entries = probe.record?.entries.length ?? 0;
	const fired = reminders.filter(({ group }) => group === 'fires').length;
	if (entries !== fired + TURN_EVENTS + 2) {
		throw new Error(`The scenario is off: WAIT delivered ${entries} entries, expected ${fired} reminders + ${TURN_EVENTS} events + 2 staged.`);
	}
	const synthetic = probe.request.messages.at(-1);
	const syntheticChars = synthetic?.role === 'user' ? synthetic.content.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0) : 0;

	const medians: number[] = [];
	for (const [index, messages] of histories.entries()) {
		const request = requestFor(session.owner, messages);
		// Never committed: every iteration sees the same state and delivers the same entries.
		const stats = measure(() => session.engine.wait(request, session.staging, FACTS).message?.content.length ?? 0, LOOP);
		medians.push(stats.median_us);
		rows.push({ name: `WAIT, ${(HISTORY_SIZES[index] ?? 0).toLocaleString('en-US')} messages`, iterations: LOOP.iterations, ...stats, target: met(stats) });
	}

	// Not WAIT's cost but the dispatcher's: the first read of request.messages builds the list
	// (one concat of the history). Shown so the deferral is visible, not hidden.
	const largest = histories.at(-1) ?? first;
	const largestRequest = requestFor(session.owner, largest);
	const readStats = measure(() => session.engine.wait(largestRequest, session.staging, FACTS).request.messages.length, LOOP);
	rows.push({ name: `WAIT + reading request.messages, ${largest.length.toLocaleString('en-US')} messages`, iterations: LOOP.iterations, ...readStats, target: '—' });
	// For scale: what serializing that history costs any provider, once per request.
	const serialize = { warmup: 20, iterations: 200 };
	const serializeStats = measure(() => JSON.stringify(largest).length, serialize);
	rows.push({ name: `JSON.stringify of the ${largest.length.toLocaleString('en-US')}-message history (for scale)`, iterations: serialize.iterations, ...serializeStats, target: '—' });

	// WAIT + commit on a fresh session each iteration (built untimed), so every commit marks the
	// same 16 reminders and consumes the same 20 events, as the first request of a step would.
	const commitStats = await measureAsync(
		() => buildSession(keys, reminders),
		async ({ engine, owner, staging }) => {
			const injection = engine.wait(requestFor(owner, first), staging, FACTS);
			await injection.commit();
			return injection.request.messages.length;
		},
		LOOP,
	);
	rows.push({ name: 'WAIT + commit, 200 messages', iterations: LOOP.iterations, ...commitStats, target: met(commitStats) });

	const growth = medians
		.slice(1)
		.map((median, index) => `${round(median / (medians[0] ?? Number.NaN), 1)}× at ${(HISTORY_SIZES[index + 1] ?? 0).toLocaleString('en-US')}`)
		.join(', ');
	notes.push(
		`Scenario: a root owner's mid-turn WAIT at session turn ${SESSION_TURN}, step ${FACTS.step ?? 0} of ${FACTS.stepLimit ?? 0}; 50 roster reminders (${SYNTHETIC_REMINDERS} synthetic + the ${DEFAULT_REMINDERS.length} built-in defaults, policies mixed): ${fired} fire, the rest are not due or their trigger is false; ${TURN_EVENTS} turn events; 2 staged entries and a staged commit.`,
		`Each WAIT delivers ${entries} entries in one synthetic message of ${syntheticChars.toLocaleString('en-US')} characters. The history ends with the results of three parallel tool calls.`,
		`WAIT rows never commit, so every iteration sees the same state. ${LOOP.warmup.toLocaleString('en-US')} warm-up calls, then each call timed alone with process.hrtime.bigint() (timer overhead about ${timerOverheadUs()} µs).`,
		`"WAIT + commit" times wait() plus the awaited commit() (record write to a no-op recorder, 16 roster marks, 20 event removals, staged commits) on a fresh session per iteration, built outside the timing.`,
		`Heap Δ: heapUsed after a forced GC at the end of the measured loop minus before it. A few tens of KB (about a byte per call) in the first loop through a code path is V8's one-time growth (optimised code, feedback); the 2,000- and 20,000-message rows run later on the same engine and read about zero, so WAIT retains nothing per call.`,
		`History growth, median against the median at 200 messages: ${growth}.`,
		`WAIT never copies the history: request.messages is built on its first read, by whoever serializes the request. The last row shows that read at the largest size — one concat of the history, which V8 allocates in large-object space past about 16,000 elements. The row after it shows what serializing that history to JSON costs, which every provider pays per request anyway.`,
	);
	consume(syntheticChars);

	report({
		case: 'wait',
		title: 'reminders WAIT',
		target: `median under ${TARGET.median_us / 1000} ms and p99 under ${TARGET.p99_us / 1000} ms per WAIT; the cost must not grow with history length`,
		rows,
		notes,
	});
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
