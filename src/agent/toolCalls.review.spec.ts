// A change set the person reviews in the diff editor (the ChangeReview port, faked here; its VS
// Code side is driven in test/integration/review.test.ts): it opens before the decision and
// closes after it, Accept applies the proposed sides as the person left them, a revision says so
// in the result and queues patch.user-revised once, Reject and Stop write nothing, and a file
// changed while its review was open is never written over.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as z from 'zod';
import { changeTool } from '../tools/changes';
import { displayPath, resolveInWorkspace } from '../tools/paths';
import { writeTool } from '../tools/write';
import { nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { SeenTexts } from '../observe/seenTexts';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { lastText, turnHarness } from '../testing/turnHarness';
import type { PermissionDecision } from './approvals';
import type { ChangeReview, ReviewRequest } from './changeReview';

/** A review whose proposed sides the test "types" into; it records what happened to it. */
class FakeReview implements ChangeReview {
	readonly log: string[] = [];
	/** What the person leaves on the proposed side of each file, by its shown path. */
	revise: Record<string, string> = {};
	request: ReviewRequest | undefined;

	open(request: ReviewRequest) {
		this.request = request;
		this.log.push(`open ${request.tool} ${request.changes.map((change) => change.shown).join(' ')}`);
		return Promise.resolve({
			proposedSides: () => Promise.resolve(request.changes.map((change) => (change.after === null ? null : (this.revise[change.shown] ?? change.after)))),
			close: () => {
				this.log.push('close');
				return Promise.resolve();
			},
		});
	}

	show(callId: string, path?: string): Promise<void> {
		this.log.push(`show ${callId} ${path ?? ''}`);
		return Promise.resolve();
	}
}

/** Two files at once: replaces the whole text of each (a stand-in for ApplyPatch). */
const bothTool = changeTool({
	name: 'Both',
	description: 'Replaces two files.',
	input: z.object({ a: z.string(), b: z.string() }),
	async plan({ a, b }, context) {
		const changes = await Promise.all(
			[['a.txt', a], ['b.txt', b]].map(async ([path = '', after = '']) => {
				const absolute = await resolveInWorkspace(path, context.roots, context.fs);
				return { path: absolute, shown: displayPath(absolute, context.roots), before: (await context.writer.readText(absolute)) ?? null, after };
			}),
		);
		return { title: 'Replace two files', changes, summary: 'Replaced a.txt and b.txt.' };
	},
});

describe('a change set reviewed in the diff editor', () => {
	const workspace = tempWorkspace();
	after(() => {
		workspace.dispose();
	});
	const file = (name: string) => join(workspace.root, name);
	const setup = (calls: ScriptedProvider, decide: (tool: string) => PermissionDecision, controller = new AbortController()) => {
		const review = new FakeReview();
		const seen = new SeenTexts();
		const harness = turnHarness(
			calls,
			{ tools: [writeTool, bothTool], review, decide, context: (signal) => nodeToolContext([workspace.root], signal, seen) },
		);
		const queued: string[] = [];
		const original = harness.session.reminders.queueTurnEvent.bind(harness.session.reminders);
		harness.session.reminders.queueTurnEvent = (owner, event) => {
			queued.push(event.key);
			return original(owner, event);
		};
		return { ...harness, review, queued, seen, controller };
	};
	const results = (records: readonly { kind: string }[]) => records.flatMap((record) => (record.kind === 'tool-result' ? [record as unknown as { content?: string; isError: boolean; verdict?: string }] : []));

	it('Accept with the person\'s revision applies their text, says so with the diff, and the next request carries patch.user-revised once', async () => {
		const provider = new ScriptedProvider(
			{ toolCalls: [{ id: 'c1', name: 'Write', input: { path: 'revised.ts', content: 'export const a = 1;\n' } }] },
			{ toolCalls: [{ id: 'c2', name: 'Write', input: { path: 'plain.ts', content: 'x\n' } }] },
			{ text: 'done' },
		);
		const t = setup(provider, () => ({ granted: true }));
		t.review.revise = { 'revised.ts': 'export const a = 2; // the person\'s\n' };
		await t.turn().run('write it', new AbortController().signal);
		assert.equal(readFileSync(file('revised.ts'), 'utf8'), 'export const a = 2; // the person\'s\n', 'the person\'s text is on disk');
		assert.deepEqual(t.review.log, ['open Write revised.ts', 'close', 'open Write plain.ts', 'close']);
		const [revised, plain] = results(t.session.records);
		assert.ok(revised && plain);
		assert.equal(revised.isError, false);
		assert.match(revised.content ?? '', /^Created revised\.ts \(1 line\)\.\nThe user revised your proposed text of revised\.ts in the diff editor before accepting it: what was applied is their text, not your proposal\./);
		assert.match(revised.content ?? '', /-export const a = 1;\n\+export const a = 2; \/\/ the person's/);
		assert.equal(plain.content, 'Created plain.ts (1 line).', 'accepted as proposed: no revision said');
		assert.deepEqual(t.queued, ['permission.verdict', 'patch.user-revised', 'permission.verdict']);
		const second = lastText(provider.requests[1]?.messages ?? []);
		assert.match(second, /<system-reminder key="patch\.user-revised">\nThe user revised your proposed Write of revised\.ts in the diff editor before accepting it\.\nWhat was applied is the user's text/);
		assert.doesNotMatch(lastText(provider.requests[2]?.messages ?? []), /patch\.user-revised/, 'one-shot: the request after carries none');
		assert.equal(t.seen.compare(file('revised.ts'), 'export const a = 2; // the person\'s\n'), 'same', 'the guard knows the applied text, not the proposal');
	});

	it('two files are one decision: both applied on Accept, neither on Reject, and the review closes either way', async () => {
		writeFileSync(file('a.txt'), 'a0\n');
		writeFileSync(file('b.txt'), 'b0\n');
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Both', input: { a: 'a1\n', b: 'b1\n' } }] }, { toolCalls: [{ id: 'c2', name: 'Both', input: { a: 'a2\n', b: 'b2\n' } }] }, { text: 'ok' });
		let answers = 0;
		const t = setup(provider, () => (answers++ === 0 ? { granted: false, note: 'not yet' } : { granted: true }));
		await t.turn().run('both', new AbortController().signal);
		assert.deepEqual(t.asked, ['Both a.txt, b.txt', 'Both a.txt, b.txt'], 'one question per change set');
		assert.deepEqual(t.review.log, ['open Both a.txt b.txt', 'close', 'open Both a.txt b.txt', 'close']);
		assert.deepEqual([readFileSync(file('a.txt'), 'utf8'), readFileSync(file('b.txt'), 'utf8')], ['a2\n', 'b2\n']);
		const [rejected, accepted] = results(t.session.records);
		assert.deepEqual([rejected?.isError, rejected?.verdict], [true, 'denied']);
		assert.deepEqual([accepted?.content, accepted?.verdict], ['Replaced a.txt and b.txt.', 'granted']);
	});

	it('a file changed on disk while its review is open is refused, naming it, and neither file is written; the revision is kept in the message', async () => {
		writeFileSync(file('a.txt'), 'a0\n');
		writeFileSync(file('b.txt'), 'b0\n');
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Both', input: { a: 'a1\n', b: 'b1\n' } }] }, { text: 'ok' });
		const t = setup(provider, () => {
			// While the person looks: someone else saves b.txt.
			writeFileSync(file('b.txt'), 'newer\n');
			return { granted: true };
		});
		t.review.revise = { 'a.txt': 'a-mine\n' };
		await t.turn().run('both', new AbortController().signal);
		assert.deepEqual([readFileSync(file('a.txt'), 'utf8'), readFileSync(file('b.txt'), 'utf8')], ['a0\n', 'newer\n'], 'nothing written over the newer text, nothing half-applied');
		const [result] = results(t.session.records);
		assert.ok(result);
		assert.equal(result.isError, true);
		assert.match(result.content ?? '', /^b\.txt changed since you last read it \(in the editor or on disk\), so the edit was not made and nothing was written\. Read it again, then make the edit against its current text\. It changed while the review of this change was open; the newer text was kept as it is\./);
		assert.match(result.content ?? '', /their revision was not applied either\. The diff from your proposal to their text:\n[^]*-a1\n\+a-mine/);
		assert.ok(!t.queued.includes('patch.user-revised'), 'nothing was applied, so nothing was revised');
		assert.deepEqual(t.review.log, ['open Both a.txt b.txt', 'close']);
	});

	it('Stop while the review is open rejects it: nothing written, the review closed', async () => {
		const controller = new AbortController();
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Write', input: { path: 'stopped.ts', content: 'x\n' } }] }, { text: 'never' });
		const t = setup(provider, () => {
			controller.abort();
			return { granted: false };
		});
		const outcome = await t.turn().run('write', controller.signal);
		assert.equal(outcome.outcome, 'interrupted');
		assert.throws(() => readFileSync(file('stopped.ts')), /ENOENT/);
		assert.deepEqual(t.review.log, ['open Write stopped.ts', 'close']);
	});
});
