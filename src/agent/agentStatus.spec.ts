// What the status says while a turn runs is what happens now. The person's decision shows the
// moment they make it: once Allow or Deny is clicked the card is gone AND the status says what
// happens next, even while the diff editor of the change set is still opening — it must not go on
// asking the person to allow or deny. And once the model is chosen, the status stops saying
// "Choosing the model…" while the request is prepared (attachments read, diagnostics settling).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Emitter } from '../base/event';
import { SeenTexts } from '../observe/seenTexts';
import { scriptedModels, testPorts } from '../testing/agentPorts';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { testSessions } from '../testing/sessions';
import { viewOfAgent } from '../testing/views';
import { writeTool } from '../tools/write';
import { Agent } from './agent';
import type { ChangeReview, OpenReview } from './changeReview';

/** A diff editor that takes as long as the test says to open. */
class SlowReview implements ChangeReview {
	private opened: ((review: OpenReview) => void) | undefined;

	open(): Promise<OpenReview> {
		return new Promise((resolve) => {
			this.opened = resolve;
		});
	}

	finishOpening(): void {
		this.opened?.({ proposedSides: () => Promise.reject(new Error('not read in this test')), close: () => Promise.resolve() });
	}

	show(): Promise<void> {
		return Promise.resolve();
	}
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('the status while the first request is prepared', () => {
	it('says the request is being prepared once the model is chosen, not "Choosing the model…"', async () => {
		const provider = new ScriptedProvider({ text: 'Hi.' });
		const models = scriptedModels(provider);
		let release: (() => void) | undefined;
		const agent = new Agent(
			{
				sessions: testSessions(new FakeClock(), new SequentialIds('s')),
				models,
				settings: { current: { maxOutputTokens: 1000, maxSteps: 5, permissionMode: 'ask' }, onDidChange: new Emitter<unknown>().event },
				system: () => 'system',
				// A mention that takes its time to read.
				attachments: () => new Promise((resolve) => {
					release = () => {
						resolve([]);
					};
				}),
			},
			testPorts(models),
		);
		const turn = agent.startTurn('Look at @big.log');
		assert.equal(viewOfAgent(agent).status.detail, 'Choosing the model…', 'while the model is resolved');
		for (let i = 0; i < 50 && release === undefined; i++) {
			await tick();
		}
		assert.ok(release, 'the attachments are being read');
		assert.equal(viewOfAgent(agent).status.detail, 'Preparing the request…');
		release();
		assert.equal((await turn).outcome, 'done');
	});
});

describe('the status after the person decides on a call', () => {
	const workspace = tempWorkspace();
	after(() => {
		workspace.dispose();
	});

	for (const granted of [true, false]) {
		it(`${granted ? 'Allow' : 'Deny'}: the status stops asking "allow or deny" with the card, while the diff editor is still opening`, async () => {
			const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Write', input: { path: `new-${String(granted)}.txt`, content: 'hello\n' } }] }, { text: 'Done.' });
			const models = scriptedModels(provider);
			const review = new SlowReview();
			const seen = new SeenTexts();
			const agent = new Agent(
				{
					sessions: testSessions(new FakeClock(), new SequentialIds('s')),
					models,
					settings: { current: { maxOutputTokens: 1000, maxSteps: 5, permissionMode: 'ask' }, onDidChange: new Emitter<unknown>().event },
					system: () => 'system',
				},
				{ ...testPorts(models, { tools: () => [writeTool], context: (signal) => nodeToolContext([workspace.root], signal, seen) }), review },
			);
			const turn = agent.startTurn('Write the file.');
			// The Write is prepared on disk first: real I/O, so wait in time rather than ticks.
			for (let i = 0; i < 400 && viewOfAgent(agent).approval === null; i++) {
				await pause();
			}
			const asking = viewOfAgent(agent);
			assert.ok(asking.approval, 'the card is shown');
			assert.match(asking.status.detail, /^Waiting for you to allow or deny Write/);
			agent.approve('c1', granted, undefined);
			const decided = viewOfAgent(agent);
			assert.equal(decided.approval, null, 'the card goes at once');
			assert.doesNotMatch(decided.status.detail, /allow or deny/, 'and so does the status that asked for it');
			for (let i = 0; i < 10; i++) {
				await tick();
			}
			assert.doesNotMatch(viewOfAgent(agent).status.detail, /allow or deny/, 'still not, while the diff editor opens');
			assert.equal(decided.status.detail, granted ? 'Running Write…' : 'Waiting for the model…');
			review.finishOpening();
			if (!granted) {
				assert.equal((await turn).outcome, 'done');
				assert.throws(() => readFileSync(join(workspace.root, 'new-false.txt')), 'a denied Write writes nothing');
			} else {
				agent.stop();
				await turn;
			}
		});
	}
});
