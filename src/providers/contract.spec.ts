// The ChatProvider contract: what every provider does, run against the Anthropic and the
// OpenAI-compatible providers (on the scripted model server) and the vscode.lm provider (on the
// fake Language Model API). What only HTTP providers do is in httpContract.spec.ts; wire shapes
// and dialects are in each provider's own spec.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HTTP_SUBJECTS } from '../testing/httpSubjects';
import { LANGUAGE_MODEL } from '../testing/lmSubject';
import type { ProviderSubject } from '../testing/providerSubject';
import { run, textOf, type Outcome } from '../testing/streams';
import type { StreamEvent } from './provider';

function contract<Step>(subject: ProviderSubject<Step>): void {
	async function streamOnce(step: Step, request = subject.request()): Promise<Outcome> {
		let outcome: Outcome | undefined;
		await subject.with(async (fixture) => {
			fixture.script(step);
			outcome = await run(fixture.provider.stream(request, new AbortController().signal));
		});
		assert.ok(outcome);
		return outcome;
	}

	describe(`${subject.name}: the provider contract`, () => {
		it('is accepted, streams text in pieces, then one usage and the stop reason', async () => {
			const reply = { text: 'Hello, streaming world! ✓', usage: { input: 42, output: 7 } };
			const { events, error } = await streamOnce(subject.reply(reply));
			assert.equal(error, undefined);
			assert.deepEqual(events[0], { type: 'accepted' });
			assert.equal(textOf(events), 'Hello, streaming world! ✓');
			assert.ok(events.filter((event) => event.type === 'text').length > 3, 'the text arrived in several events');
			assert.deepEqual(events.slice(-2), [subject.usage(reply, subject.request()), { type: 'stop', reason: 'end' }]);
		});

		it('streams parallel tool calls, exactly, each once it is whole', async () => {
			const first = { path: 'src/ünïcode/🙂.ts', lines: [1, 20], options: { nested: { deep: true, text: 'a "quoted" \\ value' } } };
			const second = { command: 'grep -rn "x" .', timeoutMs: 5000 };
			const [a, b, c] = ['a', 'b', 'c'].map((suffix) => subject.toolCallId(suffix)) as [string, string, string];
			const { events, error } = await streamOnce(
				subject.reply({
					text: 'Reading both.',
					toolCalls: [
						{ id: a, name: 'Read', input: first },
						{ id: b, name: 'Bash', input: second },
						{ id: c, name: 'List', input: {} },
					],
				}),
			);
			assert.equal(error, undefined);
			assert.equal(textOf(events), 'Reading both.');
			assert.deepEqual(
				events.filter((event) => event.type === 'tool-call'),
				[
					{ type: 'tool-call', id: a, name: 'Read', input: first },
					{ type: 'tool-call', id: b, name: 'Bash', input: second },
					{ type: 'tool-call', id: c, name: 'List', input: {} },
				],
			);
			assert.deepEqual(events.at(-1), { type: 'stop', reason: 'tool-use' });
		});

		it('maps every stop reason', async () => {
			for (const [step, neutral] of subject.stopReasons) {
				const { events } = await streamOnce(step);
				assert.deepEqual(events.at(-1), { type: 'stop', reason: neutral }, JSON.stringify(step));
			}
		});

		it('fails before streaming with the kind the retry loop acts on and the reason, yielding nothing', async () => {
			for (const refusal of subject.refusals) {
				const { events, error } = await streamOnce(refusal.step);
				assert.deepEqual(events, [], `${refusal.name}: nothing before the error`);
				assert.equal(error?.kind, refusal.kind, refusal.name);
				if (refusal.status !== undefined) {
					assert.equal(error.details.status, refusal.status);
				}
				assert.match(error.message, refusal.message);
			}
		});

		it('fails after accepted when the stream breaks, keeping exactly what streamed', async () => {
			const { step, streamed, kind, retryable } = subject.broken;
			const { events, error } = await streamOnce(step);
			assert.deepEqual(events, [{ type: 'accepted' }, ...streamed]);
			assert.equal(error?.kind, kind);
			assert.equal(error.retryable, retryable);
		});

		const { streamError } = subject;
		if (streamError) {
			it('turns an error the stream reports into a typed error', async () => {
				const { events, error } = await streamOnce(streamError.step);
				assert.deepEqual(events, [{ type: 'accepted' }]);
				assert.equal(error?.kind, streamError.kind);
				assert.match(error.message, streamError.message);
			});
		}

		it('is cancelled when stopped mid-stream, and lets go of the request', async () => {
			await subject.with(async (fixture) => {
				fixture.script(subject.hang);
				const controller = new AbortController();
				const { events, error } = await run(fixture.provider.stream(subject.request(), controller.signal), () => {
					controller.abort();
				});
				assert.deepEqual(events, [{ type: 'accepted' }] satisfies StreamEvent[]);
				assert.equal(error?.kind, 'cancelled');
				await fixture.released();
			});
		});

		it('sends nothing for a request that was stopped already', async () => {
			await subject.with(async (fixture) => {
				const controller = new AbortController();
				controller.abort();
				const { events, error } = await run(fixture.provider.stream(subject.request(), controller.signal));
				assert.deepEqual(events, []);
				assert.equal(error?.kind, 'cancelled');
				assert.equal(fixture.sent(), 0);
			});
		});
	});
}

for (const subject of HTTP_SUBJECTS) {
	contract(subject);
}
contract(LANGUAGE_MODEL);
