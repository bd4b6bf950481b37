import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProviderError } from '../providers/provider';
import { RecordingLogger } from '../testing/recordingLogger';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { lastText, turnHarness } from '../testing/turnHarness';
import type { StagedInStage } from '../reminders/staging';
import { combineAttachments, type MessageAttachments } from './attachments';

const signal = () => new AbortController().signal;

/** A source that attaches one entry per message, with a commit that counts deliveries. */
function counting(stage: StagedInStage['stage'], key: string, type: string) {
	const commits: string[] = [];
	const source: MessageAttachments = (text) =>
		Promise.resolve([{ stage, entry: { type, key, body: `attached for: ${text}`, commit: () => { commits.push(text); } } }]);
	return { source, commits };
}

describe('what a message brings (attachments)', () => {
	it('is staged on the turn\'s first request only, before the roster, and the user\'s text stays as typed', async () => {
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'a.ts' } }] }, { text: 'Done.' });
		const mention = counting('mention', 'session.resume', 'sessionResume');
		const { session, turn } = turnHarness(provider, { attachments: mention.source });
		assert.equal((await turn().run('Look at @a.ts', signal())).outcome, 'done');
		const first = lastText(provider.requests[0]?.messages ?? []);
		assert.match(first, /^<system-reminder key="session\.resume">\nattached for: Look at @a\.ts/, 'the mention stage comes first');
		assert.match(first, /key="mode\.constraints"/, 'the roster follows');
		assert.ok(!lastText(provider.requests[1]?.messages ?? []).includes('attached for'), 'not staged again mid-turn');
		assert.deepEqual(mention.commits, ['Look at @a.ts']);
		const user = session.records.find((record) => record.kind === 'user');
		assert.equal(user?.kind === 'user' ? user.text : '', 'Look at @a.ts');
	});

	it('commits nothing for a request that failed before dispatch, and is staged again on the retry after a too-long refusal', async () => {
		const provider = new ScriptedProvider({ text: 'Hello.' }, { failBefore: new ProviderError('too-long', 'prompt is too long: 2000 tokens > 1000 maximum', { status: 400 }) }, { text: 'Summary.' }, { text: 'Sure.' });
		const mention = counting('mention', 'session.resume', 'sessionResume');
		const { turn } = turnHarness(provider, { attachments: mention.source, autoCompactAt: 0.8, maxOutputTokens: 100 });
		await turn('turn-1').run('Hi', signal());
		mention.commits.length = 0;
		assert.equal((await turn('turn-2').run('Again @a.ts', signal())).outcome, 'done');
		assert.match(lastText(provider.requests[1]?.messages ?? []), /attached for: Again @a\.ts/);
		assert.match(lastText(provider.requests[3]?.messages ?? []), /attached for: Again @a\.ts/, 'the retry carries it again');
		assert.deepEqual(mention.commits, ['Again @a.ts'], 'committed once, by the request that went out');
	});

	it('combines sources in order, and a failing source is logged and skipped', async () => {
		const log = new RecordingLogger();
		const mention = counting('mention', 'session.resume', 'sessionResume');
		const broken: MessageAttachments = () => Promise.reject(new Error('the skill folder is unreadable'));
		const skill = counting('skill', 'session.resume', 'sessionResume');
		const combined = combineAttachments(log, mention.source, broken, skill.source);
		const entries = await combined('x', { kind: 'root', id: 't' }, signal());
		assert.deepEqual(entries.map((entry) => entry.stage), ['mention', 'skill']);
		assert.match(log.lines.map((line) => line.message).join('\n'), /the skill folder is unreadable/);
	});
});
