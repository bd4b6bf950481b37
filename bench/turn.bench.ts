// agent overhead before the first token: from the person's message to the request leaving for
// the provider — recording the message in a real JSONL transcript, replaying the session's
// history into provider messages, and WAIT with the built-in reminders. The provider is the
// in-process scripted one, so no network time is included: this is what Aside adds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Turn } from '../src/agent/turn';
import { SessionProjection } from '../src/view/sessionView';
import { benchChat, benchLoop, history, sampledRow } from './chat';
import { type BenchRow, consume, heapUsedAfterGc, report } from './harness';

const SIZES = [0, 1_000, 10_000];
const ITERATIONS = 200;
const WARMUP = 100;

async function measureSize(size: number, dir: string): Promise<BenchRow> {
	const chat = benchChat(dir, `bench-${size}`, history(size));
	const { session, store, ids } = chat;
	// As in the product with the chat open: each record is also projected into the view's rows.
	const projection = new SessionProjection(session);
	const { ports, scope, dispatchedAt } = benchLoop(chat, dir);
	const samples: number[] = [];
	const heapBefore = heapUsedAfterGc();
	for (let index = 0; index < WARMUP + ITERATIONS; index++) {
		const turn = new Turn(ports, scope, ids.next());
		const start = process.hrtime.bigint();
		const outcome = await turn.run('Run the tests and fix what fails.', new AbortController().signal);
		consume(outcome.outcome.length);
		if (index >= WARMUP) {
			samples.push(Number(dispatchedAt() - start) / 1000);
		}
	}
	const heapDelta = heapUsedAfterGc() - heapBefore;
	projection.dispose();
	store.close();
	return sampledRow(`message → request, ${size.toLocaleString('en-US')} records of history`, samples, heapDelta);
}

async function main(): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'aside-bench-turn-'));
	try {
		const rows: BenchRow[] = [];
		for (const size of SIZES) {
			rows.push(await measureSize(size, dir));
		}
		report({
			case: 'turn',
			title: 'agent overhead before the first token',
			rows,
			notes: [
				'From Turn.run() to the provider being called: the user record written to a real JSONL transcript (one writeSync), the session history replayed into provider messages, WAIT with the built-in reminders, the tool contracts built. The provider is in-process, so no network time is counted: this is the delay Aside adds to time-to-first-token.',
				`Each turn is answered at once and recorded (user, assistant, turn-end), so history grows by ${ITERATIONS + WARMUP} turns during a row. ${WARMUP} warm-up turns, then ${ITERATIONS} measured.`,
				'History is replayed from the records at every request (one pass that builds message objects around the stored strings, copying no text), so the rows show how much a long session adds; a 10,000-record session is far longer than any context window.',
			],
		});
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

void main();
