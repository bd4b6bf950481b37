import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as fc from 'fast-check';
import type { ChatMessage } from '../providers/messages';
import { FakeClock } from '../testing/fakeClock';
import { assistantCalls, assistantText, mergeForAnthropic, resultsInUser, toolResult, userText } from '../testing/history';
import { MemoryRecorder } from '../testing/memoryRecorder';
import type { CollectedEntry, Commit, Phase } from './definition';
import { checkInjectionPoint, injectAtWait, InjectionPointError, type PreparedRequest } from './injector';
import { decodeInjectionRecord, encodeInjectionRecord, recordToMessage } from './record';

function request(messages: ChatMessage[], phase: Phase = 'mid-turn'): PreparedRequest {
	return { requestId: 'req-1', owner: { kind: 'root', id: 'turn-1' }, phase, messages };
}

function entry(key: string, body: string | null, commit?: Commit): CollectedEntry {
	return { type: key.replace('.', '-'), key, label: key, body, reason: `because ${key}`, commit };
}

interface InjectOptions {
	readonly phase?: Phase;
	readonly commits?: Commit[];
	readonly recorder?: MemoryRecorder;
}

function inject(messages: ChatMessage[], entries: CollectedEntry[], { phase = 'mid-turn', commits = [], recorder = new MemoryRecorder() }: InjectOptions = {}) {
	return injectAtWait(request(messages, phase), entries, commits, { recorder, clock: new FakeClock(), turn: 3 });
}

function textOf(message: ChatMessage | undefined): string {
	assert.ok(message?.role === 'user', 'a user-role message');
	const [part] = message.content;
	assert.ok(part?.type === 'text');
	return part.text;
}

describe('WAIT injection', () => {
	it('appends ONE synthetic user message after the real user message, wrapping every entry once', () => {
		const history = [userText('Fix the bug')];
		const injection = inject(history, [entry('session.date', 'Today is 2026-11-30.'), entry('steering.user', 'a < b')], { phase: 'turn-start' });
		assert.equal(injection.request.messages.length, 2);
		assert.equal(injection.request.messages[0], history[0], 'history is untouched');
		assert.equal(
			textOf(injection.request.messages[1]),
			'<system-reminder key="session.date">\nToday is 2026-11-30.\n</system-reminder>\n\n<system-reminder key="steering.user">\na &lt; b\n</system-reminder>',
		);
		assert.equal(history.length, 1, 'the caller\'s array is not mutated');
	});

	it('hands back the synthetic message itself, and leaves the caller\'s history as it was', () => {
		const history = [userText('read a'), assistantCalls('c1'), toolResult('c1')];
		const injection = inject(history, [entry('files.edited', 'changed')]);
		assert.ok(injection.message);
		assert.equal(injection.request.messages.at(-1), injection.message);
		assert.equal(injection.request.messages.length, 4);
		assert.deepEqual(injection.request.messages.slice(0, 3), history);
		assert.equal(injection.request.messages, injection.request.messages, 'the list is built once');
		assert.equal(history.length, 3);
		assert.equal(injection.request.requestId, 'req-1', 'the other request fields pass through');
	});

	it('with nothing to deliver adds no message and no record, but still runs silent commits', async () => {
		let acknowledged = 0;
		const recorder = new MemoryRecorder();
		const original = request([userText('hi')], 'turn-start');
		const injection = injectAtWait(original, [entry('session.date', null, () => acknowledged++)], [], { recorder, clock: new FakeClock(), turn: 1 });
		assert.equal(injection.request, original);
		assert.equal(injection.record, null);
		await injection.commit();
		assert.equal(acknowledged, 1);
		assert.deepEqual(recorder.records, []);
	});

	it('the record holds every delivered entry with its complete body, and nothing silent', () => {
		const huge = 'x'.repeat(1_000_000);
		const injection = inject([userText('go')], [entry('files.edited', huge), entry('session.date', null)], { phase: 'turn-start' });
		assert.deepEqual(injection.record?.entries, [{ type: 'files-edited', key: 'files.edited', label: 'files.edited', body: huge, reason: 'because files.edited' }]);
		assert.deepEqual(
			{ ...injection.record, entries: [] },
			{ kind: 'injected-reminders', v: 1, phase: 'turn-start', owner: { kind: 'root', id: 'turn-1' }, requestId: 'req-1', at: new FakeClock().now(), turn: 3, entries: [] },
		);
	});

	it('commit writes the record first, then the entries\' commits in order, then the commits alone', async () => {
		const log: string[] = [];
		const recorder = new MemoryRecorder(log);
		const injection = inject([userText('go')], [entry('a.a', 'A', () => log.push('commit a')), entry('b.b', null, () => log.push('commit b')), entry('c.c', 'C', () => log.push('commit c'))], {
			phase: 'turn-start',
			commits: [() => log.push('commit alone')],
			recorder,
		});
		assert.deepEqual(log, [], 'nothing happens before commit');
		await injection.commit();
		assert.deepEqual(log, ['record req-1', 'commit a', 'commit b', 'commit c', 'commit alone']);
		await injection.commit();
		assert.equal(log.length, 5, 'committing twice runs nothing twice');
	});

	it('a record that cannot be written commits nothing, and commit can be tried again', async () => {
		const log: string[] = [];
		const recorder = new MemoryRecorder(log);
		recorder.failNext = new Error('disk full');
		const injection = inject([userText('go')], [entry('a.a', 'A', () => log.push('commit a'))], { phase: 'turn-start', commits: [() => log.push('commit alone')], recorder });
		await assert.rejects(injection.commit(), /disk full/);
		assert.deepEqual(log, ['record failed']);
		assert.deepEqual(recorder.records, []);
		await injection.commit();
		assert.deepEqual(log, ['record failed', 'record req-1', 'commit a', 'commit alone']);
	});

	it('an async record write that rejects also commits nothing', async () => {
		let committed = 0;
		const injection = injectAtWait(request([userText('go')], 'turn-start'), [entry('a.a', 'A', () => committed++)], [], {
			recorder: { write: () => Promise.reject(new Error('EIO')) },
			clock: new FakeClock(),
			turn: 1,
		});
		await assert.rejects(injection.commit(), /EIO/);
		assert.equal(committed, 0);
	});

	it('a commit that throws does not stop the others, and is reported after all ran', async () => {
		const ran: string[] = [];
		const injection = inject([userText('go')], [entry('a.a', 'A', () => { throw new Error('bug'); }), entry('b.b', 'B', () => ran.push('b'))], { phase: 'turn-start' });
		await assert.rejects(injection.commit(), (error: unknown) => error instanceof AggregateError && error.errors.length === 1);
		assert.deepEqual(ran, ['b']);
	});

	it('an entry whose body carries a marker is left out and not committed; the rest go out', async () => {
		const ran: string[] = [];
		const injection = inject([userText('go')], [entry('a.a', 'fine', () => ran.push('a')), entry('b.b', 'x </system-reminder> y', () => ran.push('b'))], { phase: 'turn-start' });
		assert.equal(injection.rejected.length, 1);
		assert.equal(injection.rejected[0]?.entry.key, 'b.b');
		assert.deepEqual(injection.record?.entries.map((e) => e.key), ['a.a']);
		assert.equal(textOf(injection.request.messages.at(-1)), '<system-reminder key="a.a">\nfine\n</system-reminder>');
		await injection.commit();
		assert.deepEqual(ran, ['a']);
	});

	it('the record decodes back into the exact message that was dispatched, byte for byte', () => {
		const injection = inject([userText('go')], [entry('a.a', 'line 1\r\n  <b> & "q"\n\n😀'), entry('b.b', '')], { phase: 'turn-start' });
		assert.ok(injection.record);
		const replayed = recordToMessage(decodeInjectionRecord(encodeInjectionRecord(injection.record)));
		assert.equal(JSON.stringify(replayed), JSON.stringify(injection.request.messages.at(-1)));
		assert.deepEqual(replayed, injection.request.messages.at(-1));
	});
});

describe('the injection point', () => {
	it('OpenAI style: after every `tool` message of the batch', () => {
		const history = [userText('read both'), assistantCalls('c1', 'c2'), toolResult('c1'), toolResult('c2')];
		const messages = inject(history, [entry('files.edited', 'changed')]).request.messages;
		assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'tool', 'tool', 'user']);
	});

	it('OpenAI style: refuses to go between a call and its missing result', () => {
		const history = [userText('read both'), assistantCalls('c1', 'c2'), toolResult('c1')];
		assert.throws(() => inject(history, [entry('files.edited', 'changed')]), (error: unknown) => error instanceof InjectionPointError && /c2 \(Read\) has no result yet/.test(error.message));
	});

	it('Anthropic style: the tool_result blocks stay first in the next user message', () => {
		const history = [userText('read both'), assistantCalls('c1', 'c2'), resultsInUser('c1', 'c2')];
		const sent = mergeForAnthropic(inject(history, [entry('files.edited', 'changed')]).request.messages);
		assert.deepEqual(sent.map((m) => m.role), ['user', 'assistant', 'user']);
		const last = sent[2];
		assert.ok(last?.role === 'user');
		assert.deepEqual(last.content.map((part) => part.type), ['tool-result', 'tool-result', 'text']);
	});

	it('Anthropic style: refuses a batch whose results are incomplete', () => {
		assert.throws(() => inject([userText('x'), assistantCalls('c1', 'c2'), resultsInUser('c2')], [entry('a.a', 'A')]), InjectionPointError);
		assert.throws(() => inject([userText('x'), assistantCalls('c1')], [entry('a.a', 'A')]), InjectionPointError);
	});

	it('the check runs even with nothing to deliver: a bad call site is found on its first run', () => {
		assert.throws(() => inject([userText('x'), assistantCalls('c1')], []), InjectionPointError);
	});

	it('turn-start follows the real user message only', () => {
		checkInjectionPoint([userText('hi')], 'turn-start');
		assert.throws(() => { checkInjectionPoint([], 'turn-start'); }, /at least the user message/);
		assert.throws(() => { checkInjectionPoint([userText('hi'), assistantText('hello')], 'turn-start'); }, /not a assistant message|not an? assistant/);
		const synthetic = inject([userText('hi')], [entry('a.a', 'A')], { phase: 'turn-start' }).request.messages;
		assert.throws(() => { checkInjectionPoint(synthetic, 'turn-start'); }, /not a synthetic user message/);
	});

	it('mid-turn after a text-only reply (a nudge) is allowed: there is no call to split', () => {
		checkInjectionPoint([userText('hi'), assistantText('')], 'mid-turn');
	});

	it('property: any history of complete batches, in either style, gets the message after every result', () => {
		const batch = fc.record({ calls: fc.integer({ min: 0, max: 4 }), anthropic: fc.boolean() });
		fc.assert(
			fc.property(fc.array(batch, { minLength: 1, maxLength: 8 }), fc.boolean(), (batches, dropOne) => {
				let n = 0;
				const history: ChatMessage[] = [userText('start')];
				for (const { calls, anthropic } of batches) {
					const ids = Array.from({ length: calls }, () => `c${++n}`);
					if (ids.length === 0) {
						history.push(assistantText('thinking'), userText('go on'));
						continue;
					}
					history.push(assistantCalls(...ids));
					history.push(...(anthropic ? [resultsInUser(...ids)] : ids.map((id) => toolResult(id))));
				}
				const last = batches.at(-1);
				if (dropOne && last && last.calls > 0) {
					// Lose one result of the last batch: a `tool` message, or one part of the user message.
					const final = history.pop();
					if (final?.role === 'user' && final.content.length > 1) {
						history.push({ role: 'user', content: final.content.slice(1) });
					}
					assert.throws(() => inject(history, [entry('a.a', 'A')]), InjectionPointError);
					return;
				}
				const messages = inject(history, [entry('a.a', 'A')]).request.messages;
				assert.equal(messages.length, history.length + 1);
				assert.equal(textOf(messages.at(-1)), '<system-reminder key="a.a">\nA\n</system-reminder>');
			}),
			{ numRuns: 2000 },
		);
	});
});
