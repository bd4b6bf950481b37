// compaction: the harness's share of compacting a 2,000-record chat, the model's time excluded
// (the summary is answered at once, in process): building the summary request (the cut, the
// replay of the summarized part, fitting it to the window, the estimate), replaying the chat
// after the compaction record, and the whole compaction — request, record, resets, the file
// references — followed by the next request's replay.
import { compactConversation } from '../src/agent/compaction/compactor';
import { conversationTokens } from '../src/agent/compaction/estimate';
import { compactionCut, summaryRequest } from '../src/agent/compaction/point';
import type { AgentPorts } from '../src/agent/ports';
import { ChatSession } from '../src/agent/session';
import { registryToolBox } from '../src/agent/toolBox';
import { systemClock } from '../src/base/clock';
import { DEFAULT_REMINDERS } from '../src/reminders/builtin/defaults';
import { DEFAULT_REMINDER_CONFIG } from '../src/reminders/config';
import { directDispatch } from '../src/testing/agentPorts';
import { SequentialIds } from '../src/testing/fakeClock';
import { MemorySessionStore } from '../src/testing/memorySessionStore';
import { ScriptedProvider } from '../src/testing/scriptedProvider';
import { BUILTIN_TOOLS } from '../src/tools/registry';
import type { AgentRecord } from '../src/transcript/records';
import type { CompactionRecord } from '../src/transcript/historyMarkers';
import { replayHistory } from '../src/transcript/replay';
import { history, silent } from './chat';
import { type BenchRow, measure, measureAsync, report, round, timerOverheadUs } from './harness';

const RECORDS = 2_000;
const TARGET_MS = 50;
const WINDOW = 200_000;
const SYSTEM = 'You are Aside, a coding agent working in the user\'s VS Code workspace. '.repeat(60);
const SUMMARY = 'The user is fixing the parser module by module; each turn read the module and fixed empty input. '.repeat(20);

async function main(): Promise<void> {
	const records = history(RECORDS) as AgentRecord[];
	const box = registryToolBox(() => BUILTIN_TOOLS, (signal) => ({ roots: ['/bench'], signal }) as never);
	const tools = box.specs(BUILTIN_TOOLS);
	const met = (median: number, p99: number): string => (median / 1000 < TARGET_MS && p99 / 1000 < TARGET_MS ? 'met' : 'missed');
	const rows: BenchRow[] = [];
	const notes: string[] = [];

	let requestMessages = 0;
	let leftOut = 0;
	const build = measure(() => {
		const cut = compactionCut(records, 'between-turns');
		if (!cut) {
			throw new Error('nothing to compact');
		}
		const summary = summaryRequest(cut, { model: 'bench', system: SYSTEM, tools, maxOutputTokens: 8192, contextWindow: WINDOW });
		const { request } = summary;
		leftOut = summary.leftOut;
		requestMessages = request.messages.length;
		return request.messages.length + conversationTokens(records, SYSTEM, tools);
	}, { warmup: 20, iterations: 200 });
	rows.push({ name: `summary request, ${RECORDS.toLocaleString('en-US')} records`, iterations: 200, ...build, target: met(build.median_us, build.p99_us) });

	// Replay builds each record's model text once (as every request of a chat replays it); a chat
	// whose records were never replayed in this process (just reopened) pays that build here.
	const cold = await measureAsync(
		() => structuredClone(records),
		(fresh) => {
			const cut = compactionCut(fresh, 'between-turns');
			if (!cut) {
				throw new Error('nothing to compact');
			}
			const { request } = summaryRequest(cut, { model: 'bench', system: SYSTEM, tools, maxOutputTokens: 8192, contextWindow: WINDOW });
			return Promise.resolve(request.messages.length + conversationTokens(fresh, SYSTEM, tools));
		},
		{ warmup: 3, iterations: 30 },
	);
	rows.push({ name: 'summary request, records never replayed before', iterations: 30, ...cold, target: met(cold.median_us, cold.p99_us) });

	const lastUser = records.findLast((record) => record.kind === 'user');
	const compaction: CompactionRecord = { kind: 'compaction', id: 'k1', at: 1, cause: 'auto', ...(lastUser?.kind === 'user' ? { keepFrom: lastUser.id } : {}), summary: SUMMARY, tokensBefore: 150_000, tokensAfter: 3_000 };
	const compacted = [...records, compaction];
	const replay = measure(() => replayHistory(compacted).length, { warmup: 20, iterations: 500 });
	rows.push({ name: 'replay after the compaction (summary + kept turn)', iterations: 500, ...replay, target: met(replay.median_us, replay.p99_us) });

	const whole = await measureAsync(
		() => {
			const ids = new SequentialIds('bench');
			const session = new ChatSession('bench', new MemorySessionStore(), { clock: systemClock, ids, log: silent, reminderConfig: DEFAULT_REMINDER_CONFIG, reminderDefaults: () => DEFAULT_REMINDERS }, records);
			const provider = new ScriptedProvider({ text: SUMMARY });
			const ports: AgentPorts = { tools: box, dispatch: directDispatch(provider, 'bench'), runtime: { clock: systemClock, ids, log: silent } };
			return { session, ports, model: { provider, model: 'bench' } };
		},
		async ({ session, ports, model }) => {
			const result = await compactConversation(
				ports,
				{ transcript: session, engine: session.reminders, roster: session.reminders.roster },
				{ cause: 'manual', point: 'between-turns', model, system: SYSTEM, tools, maxOutputTokens: 8192, contextWindow: WINDOW },
				new AbortController().signal,
			);
			if (!result.ok) {
				throw new Error(result.message);
			}
			const next = replayHistory(session.records).length;
			session.dispose();
			return next;
		},
		{ warmup: 5, iterations: 40 },
	);
	rows.push({ name: 'whole compaction by hand, then the next replay (model answers at once)', iterations: 40, ...whole, target: met(whole.median_us, whole.p99_us) });

	notes.push(
		`The chat: ${RECORDS.toLocaleString('en-US')} records of bench/chat.ts's history() — turns of a message, three Reads with ~2 KB results each, an answer — no reported usage, so the estimate replays the whole history too (the slow path). Against a ${(WINDOW / 1000).toLocaleString('en-US')}k window less 8,192 output tokens the summarized part is too long, so its ${leftOut.toLocaleString('en-US')} oldest messages are left out (the fitting's cost is in the row) and the request carries ${requestMessages.toLocaleString('en-US')} messages.`,
		'"summary request": the cut (selected history, the summarized part replayed), fitting it to the window, and the estimate of the conversation before (tokensBefore). "replay after": replayHistory over the chat with a compaction record keeping the last turn, what every later request pays.',
		'"whole compaction": compactConversation through an in-process provider that answers the summary at once (the model\'s time excluded), the record appended to a memory store, the roster reconciled, the file references listed (no workspace: sizes unknown), then the next request\'s replay. A fresh chat of the same records per iteration, built outside the timing.',
		`Each call timed alone with process.hrtime.bigint() (timer overhead about ${round(timerOverheadUs(), 2)} µs).`,
	);
	report({ case: 'compaction', title: 'compaction', target: `under ${TARGET_MS} ms for a ${RECORDS.toLocaleString('en-US')}-record chat (median and p99), the model's time excluded`, rows, notes });
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
