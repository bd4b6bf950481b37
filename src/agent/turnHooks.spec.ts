// A chat's pending hook context (SessionStart's answer) through real root turns and real hook
// processes: reserved into a turn's first request, recorded (hook-context) at its WAIT commit,
// given back — in order, ahead of later arrivals — when the request fails before dispatch; and
// SessionStart's sources (startup, resume, compact), run when they are due and not before.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PendingHookContext } from '../hooks/pendingContext';
import { ProviderError } from '../providers/provider';
import type { ChatMessage } from '../providers/messages';
import { DEFAULT_REMINDERS } from '../reminders/builtin/defaults';
import { DEFAULT_REMINDER_CONFIG } from '../reminders/config';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { HookScripts } from '../testing/hookScripts';
import { MemorySessionStore } from '../testing/memorySessionStore';
import { RecordingLogger } from '../testing/recordingLogger';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { turnHarness } from '../testing/turnHarness';
import type { HookContextRecord } from '../transcript/hookContext';
import { replayHistory } from '../transcript/replay';
import { ChatSession } from './session';

const scripts = new HookScripts();
const dir = scripts.dir;
after(() => {
	scripts.dispose();
});
const command = (name: string, source: string) => scripts.entry(name, source);

/** A SessionStart hook that says its source and how many times it ran (a counter file). */
function sessionStartHooks(extra: Record<string, unknown> = {}) {
	const counter = join(dir, `count-${Math.random().toString(36).slice(2)}`);
	writeFileSync(counter, '0');
	const start = command(
		'start',
		`const fs=require('fs');let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const e=JSON.parse(s);const n=Number(fs.readFileSync(process.argv[2],'utf8'))+1;fs.writeFileSync(process.argv[2],String(n));console.log('started by '+e.source+' #'+n)})`,
	);
	const { hooks, notices } = scripts.hooks({ SessionStart: [{ hooks: [{ ...start, command: `${start.command} ${JSON.stringify(counter)}` }] }], ...extra });
	return { prompt: hooks, notices };
}

function texts(messages: readonly ChatMessage[]): string[] {
	return messages.filter((message) => message.role === 'user').map((message) => message.content.map((part) => ('text' in part ? part.text : '')).join(''));
}

/** The person's message as it went out: the last user message that is not a reminder. */
function prompt(messages: readonly ChatMessage[]): string | undefined {
	return texts(messages).filter((text) => !text.startsWith('<system-reminder')).at(-1);
}

function occurrences(messages: readonly ChatMessage[], needle: string): number {
	return texts(messages).join('\n').split(needle).length - 1;
}

const BLOCK = (text: string) => `<hook-context>\n<hook-event name="SessionStart">\n${text}\n</hook-event>\n</hook-context>\n\n`;
const signal = () => new AbortController().signal;

describe('pending hook context and its reservation (real processes)', () => {
	it('reservation returned on failure: a first request refused before acceptance writes no hook-context; the next turn carries it exactly once', async () => {
		const { prompt: hooks } = sessionStartHooks();
		const provider = new ScriptedProvider({ failBefore: new ProviderError('server', 'HTTP 500: boom', { status: 500 }) }, { text: 'ok' }, { text: 'ok again' });
		const { session, turn, chatHooks } = turnHarness(provider, { prompt: hooks });
		assert.ok(chatHooks);
		const first = await turn('turn-1').run('hello', signal());
		assert.equal(first.outcome, 'failed');
		assert.equal(occurrences(provider.requests[0]?.messages ?? [], 'started by startup #1'), 1, 'the refused request carried the reservation');
		assert.deepEqual(session.records.filter((record) => record.kind === 'hook-context'), [], 'nothing recorded for a request that never went out');
		assert.deepEqual(chatHooks.pending.pending, [{ event: 'SessionStart', text: 'started by startup #1' }], 'back to pending');
		await turn('turn-2').run('again', signal());
		const sent = provider.requests[1]?.messages ?? [];
		assert.equal(occurrences(sent, 'started by startup'), 1, 'exactly once, and SessionStart did not run again');
		assert.equal(prompt(sent), `${BLOCK('started by startup #1')}again`, 'before the text of the turn that carried it');
		assert.ok(texts(sent).includes('hello'), "the failed turn's message stays without it");
		const records = session.records.filter((record): record is HookContextRecord => record.kind === 'hook-context');
		assert.equal(records.length, 1);
		const [record] = records;
		assert.ok(record);
		assert.deepEqual({ turnId: record.turnId, entries: record.entries }, { turnId: 'turn-2', entries: [{ event: 'SessionStart', text: 'started by startup #1' }] });
		const injection = session.records.findIndex((each) => each.kind === 'injected-reminders' && each.requestId === record.requestId);
		assert.ok(injection > session.records.indexOf(record), "the hook context is written before the same request's reminders");
		assert.deepEqual(chatHooks.pending.pending, [], 'cleared by the WAIT commit');
		// Accepted: never sent anew — the next turn's request has it once, in the turn-2 message of history.
		await turn('turn-3').run('third', signal());
		assert.equal(occurrences(provider.requests[2]?.messages ?? [], 'started by startup'), 1);
		assert.equal(prompt(provider.requests[2]?.messages ?? []), 'third');
	});

	it('a reopened chat replays the recorded hook context byte for byte as it was sent', async () => {
		const { prompt: hooks } = sessionStartHooks();
		const provider = new ScriptedProvider({ text: 'ok' });
		const { session, store, turn } = turnHarness(provider, { prompt: hooks });
		await turn('turn-1').run('hello <b>', signal());
		const sent = provider.requests[0]?.messages ?? [];
		assert.equal(prompt(sent), `${BLOCK('started by startup #1')}hello <b>`);
		const log = new RecordingLogger();
		const reopened = new ChatSession('s1', new MemorySessionStore(), { clock: new FakeClock(), ids: new SequentialIds('r'), log, reminderConfig: DEFAULT_REMINDER_CONFIG, reminderDefaults: () => DEFAULT_REMINDERS }, structuredClone(store.records));
		assert.deepEqual(replayHistory(reopened.records, { log }).slice(0, sent.length), sent);
		assert.ok(session.records.some((record) => record.kind === 'hook-context'));
	});

	it('cancelled before acceptance: back to pending, ahead of context that arrived since', async () => {
		const { prompt: hooks } = sessionStartHooks();
		const provider = new ScriptedProvider({ text: 'ok' });
		const controller = new AbortController();
		provider.onRequest = () => {
			controller.abort();
		};
		const { session, turn, chatHooks } = turnHarness(provider, { prompt: hooks });
		assert.ok(chatHooks);
		assert.equal((await turn('turn-1').run('hello', controller.signal)).outcome, 'interrupted');
		assert.deepEqual(session.records.filter((record) => record.kind === 'hook-context'), []);
		chatHooks.pending.add([{ event: 'SessionStart', text: 'later' }]);
		assert.deepEqual(chatHooks.pending.pending.map((entry) => entry.text), ['started by startup #1', 'later']);
	});

	it('SessionStart runs with source resume at the first message the window sends in a chat with messages, and not again', async () => {
		const earlier = turnHarness(new ScriptedProvider({ text: 'Earlier.' }));
		await earlier.turn('turn-0').run('before reopening', signal());
		const { prompt: hooks } = sessionStartHooks();
		const provider = new ScriptedProvider({ text: 'Now.' }, { text: 'Still.' });
		const { turn } = turnHarness(provider, { prompt: hooks, loaded: structuredClone(earlier.store.records) });
		await turn('turn-1').run('after reopening', signal());
		assert.equal(prompt(provider.requests[0]?.messages ?? []), `${BLOCK('started by resume #1')}after reopening`);
		await turn('turn-2').run('plain', signal());
		assert.equal(occurrences(provider.requests[1]?.messages ?? [], 'started by'), 1, 'not run again');
	});

	it('SessionStart runs with source compact at the first message after an automatic compaction', async () => {
		const { prompt: hooks } = sessionStartHooks();
		const provider = new ScriptedProvider(
			{ toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'a.ts' } }], usage: [300, 10] },
			{ text: 'It says hello.', usage: [400, 10] },
			{ toolCalls: [{ id: 'c2', name: 'Read', input: { path: 'b.ts' } }], usage: [850, 10] },
			{ text: 'The user reads a.ts, then b.ts.' },
			{ text: 'Done.' },
			{ text: 'Next.' },
		);
		const { session, turn } = turnHarness(provider, { prompt: hooks, autoCompactAt: 0.8, maxOutputTokens: 100 });
		await turn('turn-1').run('Read a.ts', signal());
		await turn('turn-2').run('Now b.ts', signal());
		assert.equal(session.records.filter((record) => record.kind === 'compaction').length, 1, 'turn 2 was compacted');
		assert.equal(occurrences(provider.requests[4]?.messages ?? [], 'started by compact'), 0, 'mid-turn: nothing runs until the next message');
		await turn('turn-3').run('And now?', signal());
		assert.equal(prompt(provider.requests[5]?.messages ?? []), `${BLOCK('started by compact #2')}And now?`);
	});

	it('a too-long refusal before acceptance, retried after compaction: the retry carries the reservation, recorded once', async () => {
		const { prompt: hooks } = sessionStartHooks();
		const tooLong = new ProviderError('too-long', 'prompt is too long: 2000 tokens > 1000 maximum', { status: 400 });
		const provider = new ScriptedProvider({ text: 'Hello.' }, { failBefore: tooLong }, { text: 'Summary.' }, { text: 'Sure.' });
		const { session, turn, chatHooks } = turnHarness(provider, { prompt: hooks, autoCompactAt: 0.8, maxOutputTokens: 100 });
		assert.ok(chatHooks);
		await turn('turn-1').run('hi', signal());
		chatHooks.pending.add([{ event: 'SessionStart', text: 'arrived between turns' }]);
		assert.equal((await turn('turn-2').run('go on', signal())).outcome, 'done');
		const [, refused, summary, retry] = provider.requests;
		assert.equal(prompt(refused?.messages ?? []), `${BLOCK('arrived between turns')}go on`);
		assert.equal(occurrences(summary?.messages ?? [], 'arrived between turns'), 0, 'the compaction does not summarize a reservation');
		assert.equal(occurrences(retry?.messages ?? [], 'arrived between turns'), 1);
		const records = session.records.filter((record): record is HookContextRecord => record.kind === 'hook-context');
		assert.deepEqual(records.map((record) => ({ turnId: record.turnId, entries: record.entries.map((entry) => entry.text) })), [
			{ turnId: 'turn-1', entries: ['started by startup #1'] },
			{ turnId: 'turn-2', entries: ['arrived between turns'] },
		]);
		assert.deepEqual(chatHooks.pending.pending, []);
	});

	it('the pending context keeps order: given back first, then what was added', () => {
		const pending = new PendingHookContext();
		pending.add([{ event: 'SessionStart', text: 'a' }]);
		const taken = pending.take();
		assert.deepEqual(pending.take(), undefined, 'one reservation takes it all');
		pending.add([{ event: 'SessionStart', text: 'b' }]);
		pending.giveBack(taken ?? []);
		assert.deepEqual(pending.pending.map((entry) => entry.text), ['a', 'b']);
	});
});
