// prefix stability: how much of each request a prompt cache can keep. A real Turn over a chat
// with history, 30 steps with the built-in tools on real files, reminders firing mid-turn, then a
// second turn; every request the turn loop dispatched is serialized as the Anthropic and the
// OpenAI-compatible provider would send it, and compared with the request before it from the
// first byte. Nothing here is timed: the numbers are shares of bytes.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessionObservers } from '../src/agent/currentObservers';
import { Turn } from '../src/agent/turn';
import { SeenTexts } from '../src/observe/seenTexts';
import { anthropicBody } from '../src/providers/anthropic';
import { openAIBody } from '../src/providers/openaiCompatible';
import type { ChatRequest } from '../src/providers/provider';
import { userSteering } from '../src/reminders/builtin/userSteering';
import { FakeFileEvents } from '../src/testing/fakeFileEvents';
import { nodeToolContext, NodeWorkspaceFs } from '../src/testing/nodeWorkspace';
import type { ScriptedReply } from '../src/testing/scriptedProvider';
import { benchChat, benchLoop, history, silent } from './chat';
import { type BenchRow, report, round } from './harness';

const STEPS = 30;
const HISTORY_RECORDS = 60;
const FILES = 16;
const TARGET = 95;
const WINDOW = 200_000;
const MARKER = ',"cache_control":{"type":"ephemeral"}';

function source(index: number): string {
	const lines = [`// Module ${index}: parses one kind of token.`, `import { Token } from './token';`, ''];
	for (let line = 0; line < 60; line++) {
		lines.push(`export function parse${index}_${line}(input: string): Token | undefined { return input.length > ${line} ? { kind: 'k${index}', at: ${line} } : undefined; }`);
	}
	return `${lines.join('\n')}\n`;
}

type Call = { readonly id: string; readonly name: string; readonly input: unknown };

/** What the model does at each step: reads, searches, edits, a fan-out of parallel reads; a text answer last. */
function stepCalls(step: number, dir: string): Call[] {
	const file = (index: number): string => `src/m${index % FILES}.ts`;
	const id = (n = 0): string => `s${step}-${n}`;
	switch (step % 6) {
		case 1:
			return [{ id: id(), name: 'Read', input: { path: file(step) } }];
		case 2:
			return [{ id: id(), name: 'Grep', input: { pattern: `parse${step % FILES}_1\\d`, path: 'src' } }];
		case 3: {
			// The file read two steps before: Edit needs the text it last showed.
			const path = file(step - 2);
			const old = readFileSync(join(dir, path), 'utf8').split('\n')[3] ?? '';
			return [{ id: id(), name: 'Edit', input: { path, old_string: old, new_string: `${old} // checked in step ${step}` } }];
		}
		case 4:
			return step === 10
				? Array.from({ length: 10 }, (_, n) => ({ id: id(n), name: 'Read', input: { path: file(n + 3), limit: 20 } }))
				: [{ id: id(), name: 'Read', input: { path: file(step), offset: 10, limit: 30 } }];
		case 5:
			return [{ id: id(), name: 'List', input: { path: 'src' } }];
		default:
			return [{ id: id(), name: 'Glob', input: { pattern: 'src/*.ts' } }, { id: id(1), name: 'Read', input: { path: file(step + 1), limit: 15 } }];
	}
}

interface Captured {
	readonly turn: number;
	readonly step: number;
	readonly request: ChatRequest;
}

async function scenario(dir: string): Promise<Captured[]> {
	mkdirSync(join(dir, 'src'), { recursive: true });
	for (let index = 0; index < FILES; index++) {
		writeFileSync(join(dir, 'src', `m${index}.ts`), source(index));
	}
	const chat = benchChat(dir, 'bench-prefix', history(HISTORY_RECORDS));
	const { session, store } = chat;
	const loop = benchLoop(chat, dir);
	const events = new FakeFileEvents();
	const fs = new NodeWorkspaceFs();
	const seen = new SeenTexts();
	const observers = createSessionObservers(
		session.reminders,
		{ fs, fileEvents: events, roots: () => [dir], editedFiles: { roots: () => [dir], seen }, log: silent },
	);
	const ports = { ...loop.ports, tools: { ...loop.ports.tools, context: (signal: AbortSignal) => nodeToolContext([dir], signal, seen) } };
	const captured: Captured[] = [];
	let turnNumber = 0;
	let step = 0;
	let current: Turn | undefined;
	loop.provider.onRequest = (request) => {
		step++;
		captured.push({ turn: turnNumber, step, request });
		const owner = current?.owner;
		// What the editor and the person do while a request runs, delivered at the next WAIT:
		// a file the agent read changes on disk, the person types a message.
		if (turnNumber === 1 && step === 7 && owner) {
			const path = join(dir, 'src', 'm1.ts');
			writeFileSync(path, `${readFileSync(path, 'utf8')}// changed outside Aside\n`);
			events.fireChange(path);
		}
		if (turnNumber === 1 && step === 13 && owner) {
			session.reminders.queueTurnEvent(owner, userSteering('Also keep the parser exports sorted.'));
		}
	};
	const replies = (count: number, last: string): ScriptedReply[] =>
		Array.from({ length: count }, (_, index): ScriptedReply => {
			const at = index + 1;
			// Usage grows with the chat and passes half the window at step 16: context.usage fires.
			const usage: readonly [number, number] = [at >= 16 ? 120_000 + at * 1_000 : 20_000 + at * 1_000, 200];
			return at === count ? { text: last, usage } : { text: `Step ${at}.`, toolCalls: stepCalls(at, dir), usage };
		});
	const run = async (text: string, steps: number, answer: string): Promise<void> => {
		turnNumber++;
		step = 0;
		loop.provider.script(...replies(steps, answer));
		current = new Turn(ports, { ...loop.scope, observers, settings: () => ({ maxOutputTokens: 4096, maxSteps: STEPS, permissionMode: 'auto-edit', contextWindow: WINDOW }) }, `bench-turn-${turnNumber}`);
		const outcome = await current.run(text, new AbortController().signal);
		if (outcome.outcome !== 'done') {
			throw new Error(`turn ${turnNumber} ended ${outcome.outcome}: ${outcome.error ?? ''}`);
		}
	};
	await run('Go through the parser modules, fix what is off and tell me what you changed.', STEPS, 'Done: the parsers are checked.');
	await run('Thanks. Check m3.ts once more.', 3, 'm3.ts is fine.');
	observers.dispose();
	store.close();
	return captured;
}

function commonPrefix(a: string, b: string): number {
	const length = Math.min(a.length, b.length);
	let index = 0;
	while (index < length && a.charCodeAt(index) === b.charCodeAt(index)) {
		index++;
	}
	return index;
}

interface Shares {
	/** Of the previous body, the share this one repeats from the first byte, in %. */
	readonly repeated: number;
	/** Of this body, the share after that common prefix, in %. */
	readonly fresh: number;
}

function shares(previous: string, current: string): Shares {
	const common = commonPrefix(previous, current);
	return { repeated: round((common / previous.length) * 100, 2), fresh: round(((current.length - common) / current.length) * 100, 2) };
}

/** What the reminders of a request were: the keys of the blocks in its last message. */
function reminderKeys(request: ChatRequest): string {
	const last = request.messages.at(-1);
	if (last?.role !== 'user' || last.synthetic !== 'reminders') {
		return '';
	}
	const keys = [...JSON.stringify(last.content).matchAll(/system-reminder key=\\"([^"\\]+)/g)].map((match) => match[1]);
	return keys.join(' ');
}

async function main(): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'aside-bench-prefix-'));
	try {
		const captured = await scenario(dir);
		const bodies = captured.map(({ request }) => {
			const anthropic = JSON.stringify(anthropicBody(request));
			return { anthropic, prompt: anthropic.replaceAll(MARKER, ''), openai: JSON.stringify(openAIBody(request)) };
		});
		const rows: BenchRow[] = [];
		const within = { anthropic: [] as number[], sent: [] as number[], openai: [] as number[] };
		for (let index = 1; index < captured.length; index++) {
			const { turn, step, request } = captured[index] as Captured;
			const previous = bodies[index - 1];
			const body = bodies[index];
			if (!previous || !body) {
				continue;
			}
			const sent = shares(previous.anthropic, body.anthropic);
			const prompt = shares(previous.prompt, body.prompt);
			const openai = shares(previous.openai, body.openai);
			if (step > 1) {
				within.anthropic.push(prompt.repeated);
				within.sent.push(sent.repeated);
				within.openai.push(openai.repeated);
			}
			rows.push({
				name: `turn ${turn}, request ${step}${step === 1 ? ' (turn start)' : ''}`,
				iterations: 1,
				body_kb: round(body.anthropic.length / 1024, 1),
				anthropic_repeated_pct: prompt.repeated,
				anthropic_new_pct: prompt.fresh,
				as_sent_repeated_pct: sent.repeated,
				openai_repeated_pct: openai.repeated,
				openai_new_pct: openai.fresh,
				reminders: reminderKeys(request),
			});
		}
		const stable = (pick: (request: ChatRequest) => unknown): boolean => new Set(captured.map(({ request }) => JSON.stringify(pick(request)))).size === 1;
		const anthropicStable = stable((request) => {
			const body = anthropicBody(request);
			return [body.system, body.tools];
		});
		const openaiStable = stable((request) => {
			const body = openAIBody(request);
			return [body.tools, (body.messages as unknown[])[0]];
		});
		const lowest = { anthropic: Math.min(...within.anthropic), sent: Math.min(...within.sent), openai: Math.min(...within.openai) };
		rows.push({
			name: `lowest within a turn (target ≥ ${TARGET} %)`,
			iterations: within.openai.length,
			anthropic_repeated_pct: lowest.anthropic,
			as_sent_repeated_pct: lowest.sent,
			openai_repeated_pct: lowest.openai,
			met: lowest.anthropic >= TARGET && lowest.openai >= TARGET,
		});
		rows.push({ name: 'system prompt and tools identical in every request of both turns', iterations: captured.length, anthropic: anthropicStable, openai: openaiStable });
		report({
			case: 'prefix',
			title: 'prefix stability of consecutive requests',
			target: `every request within a turn repeats at least ${TARGET} % of the previous request's bytes from the start; the system prompt and tools are 100 % identical across turns`,
			rows,
			notes: [
				`A real Turn (src/agent/turn.ts) over a chat of ${HISTORY_RECORDS} records of history on a real JSONL transcript, with the built-in reminders and the session's observers, answered by the in-process scripted provider: ${STEPS} steps of Read, Grep, Edit, List, Glob on ${FILES} real files (step 10 reads ten files at once), then a text answer; then a second turn of three steps. Mid-turn, a file read in step 1 changes on disk (files.edited), the person types a message (steering.user), reported usage passes half the window (context.usage), and the last step gets the final-step nudge (agent.nudge).`,
				'Each request is the body the provider would send (anthropicBody, openAIBody: JSON as fetch sends it), compared with the request before it. "repeated" is the common prefix over the previous body\'s length; "new" is the rest of this body over its length (what this request added: the last answer, its tool results, its reminders).',
				'anthropic columns: the body without its cache_control markers, which say where the API caches and are not part of the cached prompt; "as sent" is the same comparison with the markers in. It dips after a step of many parallel calls: that request also marks the previous request\'s tail (the API looks for an earlier cache entry only about 20 blocks back), and the request after it no longer needs that marker.',
				'Within a turn the prefix breaks only at the end of the previous request: its closing brackets, and (Anthropic as sent) its tail marker. Reminders never move the prefix: WAIT appends them after the history, and the next request replays them from their record byte for byte.',
			],
		});
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

void main();
