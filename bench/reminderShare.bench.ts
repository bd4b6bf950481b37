// The reminders' own size: what share of the new input text of a long session the reminders are.
// A real Turn, 40 times, over real files with the built-in reminders and the session's observers
// (edited files, edit diagnostics from a small language server of this file's own), with churn:
// files the agent read change on disk between and during turns, and its edits add and fix
// problems. Every request the loop dispatched is kept; what it adds to the one before it is its
// new input. Nothing here is timed: the numbers are shares of characters.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessionObservers } from '../src/agent/currentObservers';
import { ChatSession } from '../src/agent/session';
import { BUILTIN_PROFILES } from '../src/agent/subagents/builtinProfiles';
import { Turn } from '../src/agent/turn';
import { systemClock, systemTimers } from '../src/base/clock';
import type { DiagnosticEntry } from '../src/observe/diagnostics';
import { SeenTexts } from '../src/observe/seenTexts';
import type { ChatMessage } from '../src/providers/messages';
import type { ChatRequest } from '../src/providers/provider';
import { builtinReminders } from '../src/reminders/builtin/defaults';
import { NOTHING_OBSERVED } from '../src/reminders/builtin/editsVerify';
import { DEFAULT_REMINDER_CONFIG } from '../src/reminders/config';
import { fixedEnvironment } from '../src/testing/environment';
import { FakeDocuments, fileUri } from '../src/testing/fakeDocuments';
import { FakeFileEvents } from '../src/testing/fakeFileEvents';
import { SequentialIds } from '../src/testing/fakeClock';
import { InMemoryDiagnosticsSource } from '../src/testing/inMemoryDiagnosticsSource';
import { nodeToolContext, NodeWorkspaceFs } from '../src/testing/nodeWorkspace';
import type { ScriptedReply } from '../src/testing/scriptedProvider';
import { TRANSCRIPT_VERSION } from '../src/transcript/sessionRecords';
import { TranscriptStore } from '../src/transcript/store';
import { benchLoop, silent } from './chat';
import { type BenchRow, report, round } from './harness';

const TURNS = 40;
const FILES = 12;
const LINES = 90;
const TARGET = 5;
/** Keys whose text the person chose (their instruction files, what they attached), not the harness. */
const PERSON_CHOSEN = /^(workspace\.instructions|mention\..*|skill\.attachment)$/;
const AGENTS_MD = ['# Working on the parser', '', ...Array.from({ length: 40 }, (_, index) => `- Rule ${index + 1}: keep each parser pure, name tokens by kind, test empty input and the longest line (${index}).`)].join('\n');

function source(index: number): string {
	const lines = [`// Module ${index}: parses one kind of token.`, `import { Token } from './token';`, ''];
	for (let line = 3; line < LINES; line++) {
		lines.push(`export function parse${index}_${line}(input: string): Token | undefined { return input.length > ${line} ? { kind: 'k${index}', at: ${line} } : undefined; }`);
	}
	return `${lines.join('\n')}\n`;
}

/**
 * The bench's language server: an error on each line that calls `missing(`, and one warning per
 * file that is always there (context only). Published a few ms after a file's content changes.
 */
function diagnosticsOf(text: string): DiagnosticEntry[] {
	const entries: DiagnosticEntry[] = [{ severity: 'warning', message: "'Token' is declared but its value is never read.", source: 'ts', code: '6133', range: { start: { line: 1, character: 9 }, end: { line: 1, character: 14 } } }];
	text.split('\n').forEach((line, index) => {
		const at = line.indexOf('missing(');
		if (at !== -1) {
			entries.push({ severity: 'error', message: "Cannot find name 'missing'. Did you mean 'parse'?", source: 'ts', code: '2552', range: { start: { line: index, character: at }, end: { line: index, character: at + 7 } } });
		}
	});
	return entries;
}

type Call = { readonly id: string; readonly name: string; readonly input: unknown };

const fileOf = (turn: number): string => `src/m${turn % FILES}.ts`;

/** The model's steps in turn `turn`: read a module, edit one of its lines, search, read a neighbour. */
function stepCalls(turn: number, step: number, dir: string): Call[] {
	const id = `t${turn}s${step}`;
	const path = fileOf(turn);
	switch (step) {
		case 1:
			return [{ id, name: 'Read', input: { path } }];
		case 2: {
			const lines = readFileSync(join(dir, path), 'utf8').split('\n');
			const at = 5 + ((turn * 7) % (LINES - 10));
			const old = lines[at] ?? '';
			// Every third edit leaves a problem behind; the next edit of that file fixes nothing, but is told it is there.
			const added = turn % 3 === 0 ? ' missing(input);' : '';
			return [{ id, name: 'Edit', input: { path, old_string: old, new_string: `${old.replace(/ \/\/ .*$/, '')}${added} // turn ${turn}` } }];
		}
		case 3:
			return [{ id, name: 'Grep', input: { pattern: `parse${turn % FILES}_${turn % 9}\\d`, path: 'src' } }];
		default:
			return [{ id, name: 'Read', input: { path: fileOf(turn + 1), offset: 20, limit: 30 } }];
	}
}

/** Someone else's change to a file: two lines a few apart, as a formatter or a teammate's pull would. */
function churn(dir: string, path: string, turn: number): string {
	const absolute = join(dir, path);
	const lines = readFileSync(absolute, 'utf8').split('\n');
	for (const at of [10 + (turn % 30), 40 + (turn % 30)]) {
		lines[at] = `${lines[at] ?? ''} /* reviewed ${turn} */`;
	}
	writeFileSync(absolute, lines.join('\n'));
	return absolute;
}

async function scenario(dir: string): Promise<ChatRequest[]> {
	mkdirSync(join(dir, 'src'), { recursive: true });
	for (let index = 0; index < FILES; index++) {
		writeFileSync(join(dir, 'src', `m${index}.ts`), source(index));
	}
	writeFileSync(join(dir, 'AGENTS.md'), AGENTS_MD);
	const store = TranscriptStore.create(dir, { kind: 'session', v: TRANSCRIPT_VERSION, id: 'bench-share', createdAt: 0 });
	const ids = new SequentialIds('bench-share');
	const instructions = () => ({ files: [{ path: 'AGENTS.md', text: AGENTS_MD, truncated: false }] });
	const reminderDefaults = () => builtinReminders(systemClock, instructions, NOTHING_OBSERVED, { current: () => BUILTIN_PROFILES }, fixedEnvironment([dir]));
	const session = new ChatSession('bench-share', store, { clock: systemClock, ids, log: silent, reminderConfig: DEFAULT_REMINDER_CONFIG, reminderDefaults }, []);
	const loop = benchLoop({ session, store, ids }, dir);
	const events = new FakeFileEvents();
	const seen = new SeenTexts();
	const diagnostics = new InMemoryDiagnosticsSource();
	const documents = new FakeDocuments(diagnostics);
	// The language server looks at every file every few ms and publishes what changed.
	const published = new Map<string, number>();
	const server = setInterval(() => {
		for (let index = 0; index < FILES; index++) {
			const path = join(dir, 'src', `m${index}.ts`);
			const mtime = statSync(path).mtimeMs;
			if (published.get(path) !== mtime) {
				published.set(path, mtime);
				diagnostics.setDiagnostics(fileUri(path), diagnosticsOf(readFileSync(path, 'utf8')));
			}
		}
	}, 3);
	const observers = createSessionObservers(session.reminders, {
		fs: new NodeWorkspaceFs(),
		fileEvents: events,
		roots: () => [dir],
		editedFiles: { roots: () => [dir], seen },
		log: silent,
		diagnostics: { source: diagnostics, documents, clock: systemClock, timers: systemTimers, options: { displayPath: (uri) => uri.replace(`file://${dir}/`, ''), quietMs: 30, graceMs: 200, capMs: 2000 } },
	});
	const ports = { ...loop.ports, tools: { ...loop.ports.tools, context: (signal: AbortSignal) => nodeToolContext([dir], signal, seen) } };
	const requests: ChatRequest[] = [];
	let turn = 0;
	let step = 0;
	loop.provider.onRequest = (request) => {
		step++;
		requests.push(request);
		// Every fifth turn, a file the agent read last turn changes while it works.
		if (turn % 5 === 0 && step === 2) {
			events.fireChange(churn(dir, fileOf(turn - 1), turn));
		}
	};
	try {
		for (turn = 1; turn <= TURNS; turn++) {
			step = 0;
			// Between turns, every other turn: a file the agent read two turns ago changed outside Aside.
			if (turn > 2 && turn % 2 === 0) {
				events.fireChange(churn(dir, fileOf(turn - 2), turn));
			}
			const replies: ScriptedReply[] = [1, 2, 3, 4].map((at) => ({ text: `Step ${at}: looking at ${fileOf(turn)}.`, toolCalls: stepCalls(turn, at, dir), usage: [20_000 + turn * 2_000, 200] }));
			replies.push({ text: `Done with ${fileOf(turn)}: one line changed, the tests' names match.`, usage: [20_000 + turn * 2_000, 200] });
			loop.provider.script(...replies);
			const current = new Turn(ports, { ...loop.scope, observers, settings: () => ({ maxOutputTokens: 4096, maxSteps: 20, permissionMode: 'auto-edit', contextWindow: 200_000 }) }, `bench-turn-${turn}`);
			const outcome = await current.run(`Turn ${turn}: check ${fileOf(turn)}, change what is off, and say what you changed.`, new AbortController().signal);
			if (outcome.outcome !== 'done') {
				throw new Error(`turn ${turn} ended ${outcome.outcome}: ${outcome.error ?? ''}`);
			}
		}
	} finally {
		clearInterval(server);
		observers.dispose();
		store.close();
	}
	return requests;
}

/** The text a message puts in front of the model: its texts, tool calls' inputs, tool results. */
function textOf(message: ChatMessage): string {
	if (message.role === 'tool') {
		return message.content;
	}
	return message.content.map((part) => (part.type === 'text' ? part.text : part.type === 'tool-call' ? `${part.name} ${JSON.stringify(part.input)}` : part.content)).join('\n');
}

/** The blocks of a reminders message, by key. */
function blocksOf(message: ChatMessage): { key: string; chars: number }[] {
	return [...textOf(message).matchAll(/<system-reminder key="([^"]+)">\n[\s\S]*?\n<\/system-reminder>/g)].map((match) => ({ key: match[1] ?? '', chars: match[0].length }));
}

async function main(): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'aside-bench-share-'));
	try {
		const requests = await scenario(dir);
		let fresh = 0;
		let previous = 0;
		const byKey = new Map<string, { chars: number; blocks: number }>();
		for (const request of requests) {
			// History only grows within this session: what lies past the previous request's messages is new.
			for (const message of request.messages.slice(previous)) {
				fresh += textOf(message).length;
				if (message.role === 'user' && message.synthetic === 'reminders') {
					for (const { key, chars } of blocksOf(message)) {
						const entry = byKey.get(key) ?? { chars: 0, blocks: 0 };
						byKey.set(key, { chars: entry.chars + chars, blocks: entry.blocks + 1 });
					}
				}
			}
			previous = request.messages.length;
		}
		const keys = [...byKey.entries()].sort((a, b) => b[1].chars - a[1].chars);
		const sum = (pick: (key: string) => boolean): number => keys.filter(([key]) => pick(key)).reduce((total, [, { chars }]) => total + chars, 0);
		const all = sum(() => true);
		const harness = sum((key) => !PERSON_CHOSEN.test(key));
		const pct = (chars: number): number => round((chars / fresh) * 100, 2);
		const rows: BenchRow[] = [
			{ name: 'new input text of the session', iterations: requests.length, chars: fresh },
			{ name: 'all reminders', iterations: requests.length, chars: all, share_pct: pct(all) },
			{ name: `harness-authored reminders (target ≤ ${TARGET} %)`, iterations: requests.length, chars: harness, share_pct: pct(harness), met: pct(harness) <= TARGET },
			...keys.map(([key, { chars, blocks }]): BenchRow => ({ name: `\`${key}\`${PERSON_CHOSEN.test(key) ? ' (the person\'s)' : ''}`, iterations: blocks, chars, share_pct: pct(chars) })),
		];
		report({
			case: 'reminderShare',
			title: 'the reminders\' share of a long session\'s new input',
			target: `the harness-authored reminders (every key but the person's instruction files and attachments) are at most ${TARGET} % of the new input text`,
			rows,
			notes: [
				`A real Turn (src/agent/turn.ts) ${TURNS} times in one chat, with the built-in reminders, an AGENTS.md of ${AGENTS_MD.length.toLocaleString('en-US')} characters, and the session's observers, answered by the in-process scripted provider: each turn reads a module of ${LINES} lines, edits one line of it, greps, reads part of the next module, answers. ${FILES} real files.`,
				'Churn: every other turn a file the agent read two turns before gets two lines changed on disk between turns, and every fifth turn another while the agent works (files.edited); every third edit leaves an error behind, and each file carries one warning that was always there (edit.diagnostics, from a small language server that checks every file every 3 ms).',
				'"new input text" is, for every request, what it adds to the one before it: the person\'s message, the previous answer and its tool calls (name and input), the tool results and the reminders (each block with its <system-reminder> lines). iterations is the number of requests for the first three rows, of blocks for each key.',
			],
		});
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

void main();
