import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../providers/messages';
import { ProviderError } from '../../providers/provider';
import { sessionResume } from '../../reminders/builtin/sessionResume';
import { type InjectionRecord, recordToMessage } from '../../reminders/record';
import type { AgentRecord } from '../../transcript/records';
import type { CompactionRecord } from '../../transcript/historyMarkers';
import { replayHistory } from '../../transcript/replay';
import { ScriptedProvider } from '../../testing/scriptedProvider';
import { lastText, turnHarness } from '../../testing/turnHarness';
import { SUMMARY_PROMPT } from './prompt';

const text = (message: ChatMessage | undefined): string =>
	message === undefined ? '' : message.role === 'tool' ? message.content : message.content.map((part) => (part.type === 'text' ? part.text : part.type === 'tool-call' ? `call ${part.name} ${JSON.stringify(part.input)}` : part.content)).join('\n');
const compactions = (records: readonly AgentRecord[]): CompactionRecord[] => records.filter((record): record is CompactionRecord => record.kind === 'compaction');
const injections = (records: readonly AgentRecord[]): InjectionRecord[] => records.filter((record): record is InjectionRecord => record.kind === 'injected-reminders');
const tooLong = () => new ProviderError('too-long', 'HTTP 400: prompt is too long: 210000 tokens > 200000 maximum', { status: 400 });
const signal = () => new AbortController().signal;

/** Turn 1 reads a.ts and answers; turn 2 reads b.ts with an answer that fills 86% of the 1,000-token window. */
function pastTheThreshold() {
	const provider = new ScriptedProvider(
		{ toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'a.ts' } }], usage: [300, 10] },
		{ text: 'It says hello.', usage: [400, 10] },
		{ toolCalls: [{ id: 'c2', name: 'Read', input: { path: 'b.ts' } }], usage: [850, 10] },
		{ text: 'The user reads a.ts, then b.ts.' },
		{ text: 'Done.' },
	);
	return { provider, ...turnHarness(provider, { autoCompactAt: 0.8, maxOutputTokens: 100 }) };
}

describe('automatic compaction in a turn', () => {
	it('compacts before the WAIT that would pass the threshold; the request sent holds the summary and the kept step, not the old prefix', async () => {
		const { provider, session, turn } = pastTheThreshold();
		await turn('turn-1').run('Read a.ts', signal());
		const outcome = await turn('turn-2').run('Now b.ts', signal());
		assert.equal(outcome.outcome, 'done');
		assert.equal(provider.requests.length, 5);
		const [, , step1, summary, step2] = provider.requests;
		assert.ok(step1 && summary && step2);
		// The summary request: the same prefix, no tools allowed, the summary prompt last.
		assert.equal(summary.toolChoice, 'none');
		assert.equal(summary.system, step1.system);
		assert.deepEqual(summary.tools, step1.tools);
		assert.ok(text(summary.messages.at(-1)).startsWith(SUMMARY_PROMPT));
		assert.ok(summary.messages.some((message) => text(message) === 'Read a.ts'), 'the summarized part is in the summary request');
		const [record] = compactions(session.records);
		assert.ok(record);
		const kept = session.records.find((each) => each.kind === 'assistant' && each.toolCalls[0]?.id === 'c2');
		assert.equal(record.cause, 'auto');
		assert.equal(record.turnId, 'turn-2');
		assert.equal(record.keepFrom, kept?.kind === 'assistant' ? kept.id : 'missing');
		assert.equal(record.summary, 'The user reads a.ts, then b.ts.');
		assert.ok(record.tokensBefore >= 860, `${record.tokensBefore}`);
		assert.ok(record.tokensAfter < record.tokensBefore);
		// The next request: summary, the kept step, then what this WAIT injected.
		assert.match(text(step2.messages[0]), /^<system-reminder key="context\.summary">[\s\S]*The user reads a\.ts, then b\.ts\./);
		assert.equal(text(step2.messages[1]), 'call Read {"path":"b.ts"}');
		assert.equal(step2.messages[2]?.role, 'tool');
		assert.ok(!step2.messages.some((message) => text(message) === 'Read a.ts' || text(message) === 'Now b.ts'), 'the old prefix is gone');
	});

	it('stages compact.file-references on the in-flight request: the files read before the point, not those the kept step read', async () => {
		const { provider, session, turn } = pastTheThreshold();
		await turn('turn-1').run('Read a.ts', signal());
		await turn('turn-2').run('Now b.ts', signal());
		const reminders = lastText(provider.requests[4]?.messages ?? []);
		assert.match(reminders, /<system-reminder key="compact\.file-references">[\s\S]*- a\.ts \(last read /);
		assert.ok(!/- b\.ts/.test(reminders));
		assert.equal(injections(session.records).filter((record) => record.entries.some((entry) => entry.key === 'compact.file-references')).length, 1);
		// Delivered once: the next turn does not carry it again.
		await turn('turn-3').run('Thanks', signal());
		assert.ok(!lastText(provider.requests.at(-1)?.messages ?? []).includes('compact.file-references'));
	});

	it('commits reminders against the payload actually dispatched: the record after the compaction replays to exactly the request sent', async () => {
		const { provider, session, turn } = pastTheThreshold();
		await turn('turn-1').run('Read a.ts', signal());
		await turn('turn-2').run('Now b.ts', signal());
		const records = session.records;
		const at = records.findIndex((record) => record.kind === 'compaction');
		const after = records.findIndex((record, index) => index > at && record.kind === 'injected-reminders');
		assert.ok(at > 0 && after > at, 'the injection of the step is recorded after the compaction');
		assert.deepEqual(replayHistory(records.slice(0, after + 1)), provider.requests[4]?.messages);
		// Every record is of a request that went out with it, and no reminders rode the summary request.
		const carrying = provider.requests.filter((request) => request.toolChoice !== 'none' && request.messages.at(-1)?.role === 'user' && (request.messages.at(-1) as { synthetic?: string }).synthetic === 'reminders');
		assert.deepEqual(carrying.map((request) => request.messages.at(-1)), injections(records).map(recordToMessage));
		assert.ok(!text(provider.requests[3]?.messages.at(-1)).includes('<system-reminder'), 'the summary request carries no reminders');
	});

	it('stays off when automatic compaction is off', async () => {
		const provider = new ScriptedProvider({ text: 'Long.', usage: [950, 10] }, { text: 'ok' });
		const { session, turn } = turnHarness(provider);
		await turn('turn-1').run('Hi', signal());
		await turn('turn-2').run('More', signal());
		assert.equal(provider.requests.length, 2);
		assert.deepEqual(compactions(session.records), []);
	});

	it('a compaction that fails fails the turn, saying the chat is unchanged; nothing is recorded of it', async () => {
		const provider = new ScriptedProvider({ text: 'Long.', usage: [950, 10] }, { failBefore: new ProviderError('server', 'HTTP 500: boom', { status: 500 }) });
		const { session, turn } = turnHarness(provider, { autoCompactAt: 0.8, maxOutputTokens: 100 });
		await turn('turn-1').run('Hi', signal());
		session.reminders.enqueuePending(sessionResume({ cause: 'restart', lastActivity: 0 }));
		const outcome = await turn('turn-2').run('More', signal());
		assert.equal(outcome.outcome, 'failed');
		assert.match(outcome.error ?? '', /HTTP 500: boom[\s\S]*could not be compacted and is unchanged/);
		assert.deepEqual(compactions(session.records), []);
		assert.deepEqual(session.records.slice(-2).map((record) => record.kind), ['user', 'turn-end']);
		assert.equal(session.reminders.pending.size, 1, 'the pending FIFO is untouched');
	});

	it('an empty summary is a failure too', async () => {
		const provider = new ScriptedProvider({ text: 'Long.', usage: [950, 10] }, { text: '   ' });
		const { session, turn } = turnHarness(provider, { autoCompactAt: 0.8, maxOutputTokens: 100 });
		await turn('turn-1').run('Hi', signal());
		const outcome = await turn('turn-2').run('More', signal());
		assert.match(outcome.error ?? '', /empty summary/);
		assert.deepEqual(compactions(session.records), []);
	});

	it('a Stop during the compaction ends the turn as stopped, and nothing is recorded of it', async () => {
		const provider = new ScriptedProvider({ text: 'Long.', usage: [950, 10] }, { hang: 'The user' });
		const { session, turn } = turnHarness(provider, { autoCompactAt: 0.8, maxOutputTokens: 100 });
		await turn('turn-1').run('Hi', signal());
		const controller = new AbortController();
		provider.onRequest = (request) => {
			if (request.toolChoice === 'none') {
				setImmediate(() => {
					controller.abort();
				});
			}
		};
		const outcome = await turn('turn-2').run('More', controller.signal);
		assert.equal(outcome.outcome, 'interrupted');
		assert.deepEqual(compactions(session.records), []);
	});
});

describe('a provider refusing a request as too long', () => {
	it('leads to one compaction and one retry of that step, with a fresh WAIT', async () => {
		const provider = new ScriptedProvider({ text: 'Hello.' }, { failBefore: tooLong() }, { text: 'We said hello.' }, { text: 'Sure.' });
		const { session, turn } = turnHarness(provider, { autoCompactAt: 0.8, maxOutputTokens: 100 });
		await turn('turn-1').run('Hi', signal());
		session.reminders.enqueuePending(sessionResume({ cause: 'restart', lastActivity: 0 }));
		const outcome = await turn('turn-2').run('Go on', signal());
		assert.equal(outcome.outcome, 'done');
		assert.equal(provider.requests.length, 4);
		assert.equal(provider.requests[2]?.toolChoice, 'none');
		const [record] = compactions(session.records);
		assert.equal(record?.cause, 'overflow');
		const user = session.records.find((each) => each.kind === 'user' && each.text === 'Go on');
		assert.equal(record.keepFrom, user?.kind === 'user' ? user.id : 'missing');
		const retry = provider.requests[3]?.messages ?? [];
		assert.match(text(retry[0]), /We said hello\./);
		assert.equal(text(retry[1]), 'Go on');
		// The refused request's reminders were never committed: the retry carries them, recorded once.
		assert.match(lastText(retry), /session\.resume/);
		assert.equal(injections(session.records).filter((each) => each.entries.some((entry) => entry.key === 'session.resume')).length, 1);
		assert.equal(session.reminders.pending.size, 0);
	});

	it('is compacted and retried too when the refusal came just after the provider accepted the request (a 200 with an error chunk), before any answer', async () => {
		const provider = new ScriptedProvider({ text: 'Hello.' }, { failAfter: tooLong(), partial: '' }, { text: 'We said hello.' }, { text: 'Sure.' });
		const { session, turn } = turnHarness(provider, { autoCompactAt: 0.8, maxOutputTokens: 100 });
		await turn('turn-1').run('Hi', signal());
		session.reminders.enqueuePending(sessionResume({ cause: 'restart', lastActivity: 0 }));
		const outcome = await turn('turn-2').run('Go on', signal());
		assert.equal(outcome.outcome, 'done', outcome.error);
		assert.equal(provider.requests.length, 4);
		assert.equal(compactions(session.records)[0]?.cause, 'overflow');
		// The accepted request's reminders were committed once; the retry replays them from the kept history.
		const retry = provider.requests[3]?.messages ?? [];
		assert.equal(text(retry[1]), 'Go on');
		assert.match(text(retry[2]), /^<system-reminder key="session\.resume">/);
		assert.equal(injections(session.records).filter((each) => each.entries.some((entry) => entry.key === 'session.resume')).length, 1);
		assert.ok(!session.records.some((each) => each.kind === 'assistant' && each.stop === 'failed'), 'the refused answer, empty, is not recorded');
	});

	it('is not retried when the refusal came after part of the answer streamed', async () => {
		const provider = new ScriptedProvider({ text: 'Hello.' }, { failAfter: tooLong(), partial: 'Half an ans' });
		const { session, turn } = turnHarness(provider, { autoCompactAt: 0.8, maxOutputTokens: 100 });
		await turn('turn-1').run('Hi', signal());
		const outcome = await turn('turn-2').run('Go on', signal());
		assert.equal(outcome.outcome, 'failed');
		assert.equal(provider.requests.length, 2);
		assert.deepEqual(compactions(session.records), []);
	});

	it('is compacted even when the model\'s window is unknown (no threshold to check before)', async () => {
		const provider = new ScriptedProvider({ text: 'Hello.', usage: [5000, 10] }, { failBefore: tooLong() }, { text: 'We said hello.' }, { text: 'Sure.' });
		const { session, turn } = turnHarness(provider, { autoCompactAt: 0.8, contextWindow: 0 });
		await turn('turn-1').run('Hi', signal());
		assert.equal((await turn('turn-2').run('Go on', signal())).outcome, 'done');
		assert.equal(provider.requests.length, 4);
		assert.equal(compactions(session.records)[0]?.cause, 'overflow');
	});

	it('a second refusal fails the turn with a clear message', async () => {
		const provider = new ScriptedProvider({ text: 'Hello.' }, { failBefore: tooLong() }, { text: 'We said hello.' }, { failBefore: tooLong() });
		const { session, turn } = turnHarness(provider, { autoCompactAt: 0.8, maxOutputTokens: 100 });
		await turn('turn-1').run('Hi', signal());
		const outcome = await turn('turn-2').run('Go on', signal());
		assert.equal(outcome.outcome, 'failed');
		assert.match(outcome.error ?? '', /too long for its context window even after the chat was compacted/);
		assert.equal(provider.requests.length, 4, 'one compaction, one retry, no more');
		assert.equal(compactions(session.records).length, 1);
	});

	it('with nothing before the request to compact, fails saying so', async () => {
		const provider = new ScriptedProvider({ failBefore: tooLong() });
		const { turn } = turnHarness(provider, { autoCompactAt: 0.8 });
		const outcome = await turn('turn-1').run('x'.repeat(100), signal());
		assert.match(outcome.error ?? '', /too long for the model's context window, and there is nothing before it to compact/);
	});

	it('without automatic compaction, fails as any refusal does', async () => {
		const provider = new ScriptedProvider({ text: 'Hello.' }, { failBefore: tooLong() });
		const { session, turn } = turnHarness(provider);
		await turn('turn-1').run('Hi', signal());
		const outcome = await turn('turn-2').run('Go on', signal());
		assert.match(outcome.error ?? '', /prompt is too long/);
		assert.equal(provider.requests.length, 2);
		assert.deepEqual(compactions(session.records), []);
	});
});
