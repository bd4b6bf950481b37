// sessions: what activation and the chat list cost with many saved chats. Activation checks
// that the chat that was current still exists (to reopen it); the chat list (the view's Chats
// button, Aside: Open Chat…) lists every saved chat. Both go through the session index, so
// neither reads transcripts; before the index, both read every transcript whole.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionLibrary } from '../src/agent/library';
import { ChatSessions } from '../src/agent/sessions';
import { RecordingLogger } from '../src/testing/recordingLogger';
import { testEnvironment } from '../src/testing/sessions';
import { INDEX_FILE } from '../src/transcript/sessionIndex';
import { TranscriptStore } from '../src/transcript/store';
import { listSessions } from '../src/transcript/summary';
import { type BenchRow, measure, prng, report, round, type TimingStats } from './harness';

const COUNTS = [100, 1_000] as const;
const TURNS_PER_CHAT = 8;
const TARGET_US = 50_000;
const T0 = 1_750_000_000_000;

const PROSE = 'Read src/parser.ts and fix the failing test; keep the public API as it is. The lexer splits on "<", ">" and "&" only.\n';

/** `count` saved chats of a few turns each (user, two model steps with a tool call, turn-end). */
function writeChats(dir: string, count: number): string[] {
	const random = prng(count);
	const ids: string[] = [];
	for (let chat = 0; chat < count; chat++) {
		const id = `chat-${chat}`;
		const store = TranscriptStore.create(dir, { kind: 'session', v: 1, id, createdAt: T0 + chat });
		let at = T0 + chat * 1_000;
		for (let turn = 0; turn < TURNS_PER_CHAT; turn++) {
			const turnId = `t${turn}`;
			store.append({ kind: 'user', id: `u${turn}`, turnId, at: ++at, text: PROSE.repeat(1 + Math.floor(random() * 4)) });
			if (turn === 0) {
				store.append({ kind: 'meta', at, title: `Chat ${chat}: fix the parser` });
			}
			store.append({ kind: 'assistant', id: `a${turn}`, turnId, requestId: `r${turn}`, at: ++at, text: 'Reading it.', toolCalls: [{ id: `c${turn}`, name: 'Read', input: { path: 'src/parser.ts' } }], stop: 'tool-use' });
			store.append({ kind: 'tool-result', id: `x${turn}`, turnId, callId: `c${turn}`, name: 'Read', at: ++at, content: PROSE.repeat(40 + Math.floor(random() * 60)), isError: false });
			store.append({ kind: 'assistant', id: `b${turn}`, turnId, requestId: `s${turn}`, at: ++at, text: PROSE, toolCalls: [], stop: 'end' });
			store.append({ kind: 'turn-end', turnId, at: ++at, outcome: 'done' });
		}
		store.close();
		ids.push(id);
	}
	return ids;
}

const log = new RecordingLogger();

function library(dir: string): FileSessionLibrary {
	return new FileSessionLibrary(dir, () => T0, log);
}

function met(stats: TimingStats): string {
	return stats.median_us <= TARGET_US && stats.p99_us <= TARGET_US ? 'met' : 'not met';
}

function main(): void {
	const root = mkdtempSync(join(tmpdir(), 'aside-bench-sessions-'));
	try {
		run(root);
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

function run(root: string): void {
	const rows: BenchRow[] = [];
	const sizes: string[] = [];
	for (const count of COUNTS) {
		const dir = join(root, `chats-${count}`);
		const ids = writeChats(dir, count);
		const last = ids[Math.floor(count / 2)] ?? '';
		const n = count.toLocaleString('en-US');
		const loop = { warmup: 5, iterations: 50 };

		// Before the index (for comparison): every transcript read whole, as activation's
		// library.list() and the first chat list each did.
		const before = measure(() => listSessions(dir).length, { warmup: 1, iterations: 10 });
		rows.push({ name: `before: read every transcript (${n} chats)`, iterations: 10, ...before, target: '—' });

		// The first list of a fresh folder builds the index (the same reads, plus one write).
		rmSync(join(dir, INDEX_FILE), { force: true });
		const rebuild = measure(() => {
			rmSync(join(dir, INDEX_FILE), { force: true });
			return library(dir).list().length;
		}, { warmup: 1, iterations: 10 });
		rows.push({ name: `no index yet: the first chat list builds it (${n} chats)`, iterations: 10, ...rebuild, target: '—' });

		const activation = measure(() => {
			const opened = library(dir);
			return opened.exists(last) ? 1 : 0;
		}, { warmup: 50, iterations: 1_000 });
		rows.push({ name: `activation: the library and the check that the last chat exists (${n} chats)`, iterations: 1_000, ...activation, target: met(activation) });

		const firstList = measure(() => library(dir).list().length, loop);
		rows.push({ name: `a window's first chat list, from the index (${n} chats)`, iterations: loop.iterations, ...firstList, target: met(firstList) });

		const warm = new ChatSessions(library(dir), testEnvironment());
		warm.list();
		const again = measure(() => warm.list().length, loop);
		rows.push({ name: `the chat list again, same window (${n} chats)`, iterations: loop.iterations, ...again, target: met(again) });
		warm.dispose();

		const transcripts = ids.reduce((sum, id) => sum + statSync(join(dir, `${id}.jsonl`)).size, 0);
		sizes.push(`${n} chats: ${round(transcripts / 1024 / 1024, 1)} MB of transcripts, an index of ${round(statSync(join(dir, INDEX_FILE)).size / 1024, 0)} KB`);
	}
	report({
		case: 'sessions',
		title: 'activation and the chat list',
		target: `activation's own work and the chat list under ${TARGET_US / 1000} ms with 1,000 saved chats, not growing with their number`,
		rows,
		notes: [
			`Scenario: saved chats of ${TURNS_PER_CHAT} turns each (a user message, a model step with a Read and its 5–11 KB result, an answer, a turn-end; ${TURNS_PER_CHAT * 5 + 1} records). ${sizes.join('; ')}.`,
			'"Activation" is what the window\'s core (src/vscode/window/window.ts) does about sessions before it reopens the last chat: make the library and check, with one stat, that the chat still exists. It reads no transcript and not the index; the chat it reopens is then loaded like any other (the transcript case\'s load row).',
			'"First chat list" is a new library (a new window) listing: it reads the index (validated with zod), lists the folder and stats each transcript to check that its entry still matches (size and modification time); a transcript that changed behind its entry is read again, alone. "Again" is the same window listing a second time, with the index in memory (ChatSessions.list, what the view\'s chat list calls).',
			'"Before" rows are what the list cost without an index: every transcript read and scanned (listSessions, which the index is rebuilt from). The files are in the page cache (just written); a cold disk adds its reads to the "before" rows only.',
		],
	});
}

main();
