// Mentions through the real turn loop and reminder engine: staged first, the text as typed, and
// "already in context" only once a request carrying the file went out (the chat's records).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ChatSession } from '../agent/session';
import { ProviderError } from '../providers/provider';
import { DEFAULT_REMINDERS } from '../reminders/builtin/defaults';
import { DEFAULT_REMINDER_CONFIG } from '../reminders/config';
import { parseReminders } from '../reminders/envelope';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { NodeWorkspaceFs, tempWorkspace } from '../testing/nodeWorkspace';
import { RecordingLogger } from '../testing/recordingLogger';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { lastText, turnHarness } from '../testing/turnHarness';
import type { RecordLike } from '../reminders/history';
import { mentionAttachments } from './expand';
import type { MentionPorts } from './ports';

const signal = () => new AbortController().signal;

let workspace: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
	workspace = tempWorkspace('aside-mentions-turn-');
	writeFileSync(join(workspace.root, 'a.ts'), 'export const a = 1;\n');
});
afterEach(() => {
	workspace.dispose();
});

function ports(records: () => Iterable<RecordLike>): MentionPorts {
	return { fs: new NodeWorkspaceFs(), roots: () => [workspace.root], records, problems: () => [], selection: () => undefined, changes: () => Promise.resolve({ kind: 'unavailable', why: 'none' }) };
}

/** A harness whose mentions read its own session's kept records. */
function harness(provider: ScriptedProvider) {
	const holder: { session?: ChatSession } = {};
	const made = turnHarness(provider, { attachments: mentionAttachments(ports(() => holder.session?.selectedRecords ?? [])) });
	holder.session = made.session;
	return made;
}

const keysOf = (text: string) => parseReminders(text).map((reminder) => reminder.key);
const bodyOf = (text: string, key: string) => parseReminders(text).find((reminder) => reminder.key === key)?.body ?? '';

describe('mentions in a turn', () => {
	it('go first in the turn\'s first request, before the roster, with the user\'s text as typed; a second mention of the unchanged file says it is already in context', async () => {
		const provider = new ScriptedProvider({ text: 'Seen.' }, { text: 'Still seen.' });
		const { session, turn } = harness(provider);
		assert.equal((await turn('turn-1').run('Look at @a.ts.', signal())).outcome, 'done');
		const first = lastText(provider.requests[0]?.messages ?? []);
		const keys = keysOf(first);
		assert.equal(keys[0], 'mention.file', 'the mention stage comes first');
		assert.ok(keys.includes('mode.constraints'), 'the roster follows');
		assert.match(bodyOf(first, 'mention.file'), /export const a = 1;/);
		assert.deepEqual(provider.requests[0]?.messages.at(-2), { role: 'user', content: [{ type: 'text', text: 'Look at @a.ts.' }] }, 'the user\'s message, as typed, before the synthetic reminders message');
		assert.deepEqual(session.records.flatMap((record) => (record.kind === 'user' ? [record.text] : [])), ['Look at @a.ts.']);

		assert.equal((await turn('turn-2').run('And @a.ts again?', signal())).outcome, 'done');
		const second = lastText(provider.requests[1]?.messages ?? []);
		assert.equal(keysOf(second).filter((key) => key === 'mention.file').length, 1);
		assert.match(bodyOf(second, 'mention.file'), /already in context/);
		assert.ok(!second.includes('export const a = 1;'), 'the content is not sent again');
	});

	it('marks nothing as given when the request failed before it went out: the next message attaches the file in full', async () => {
		const provider = new ScriptedProvider({ failBefore: new ProviderError('auth', 'The key was refused.', { status: 401 }) }, { text: 'Seen.' });
		const { turn } = harness(provider);
		assert.equal((await turn('turn-1').run('@a.ts', signal())).outcome, 'failed');
		assert.match(bodyOf(lastText(provider.requests[0]?.messages ?? []), 'mention.file'), /export const a = 1;/);
		assert.equal((await turn('turn-2').run('@a.ts', signal())).outcome, 'done');
		assert.match(bodyOf(lastText(provider.requests[1]?.messages ?? []), 'mention.file'), /export const a = 1;/, 'sent in full again');
	});

	it('marks nothing as given when the turn was stopped before its request went out', async () => {
		const provider = new ScriptedProvider({ text: 'Seen.' });
		const { turn } = harness(provider);
		const controller = new AbortController();
		provider.onRequest = () => {
			controller.abort();
		};
		assert.equal((await turn('turn-1').run('@a.ts', controller.signal)).outcome, 'interrupted');
		provider.onRequest = undefined;
		assert.equal((await turn('turn-2').run('@a.ts', signal())).outcome, 'done');
		assert.match(bodyOf(lastText(provider.requests.at(-1)?.messages ?? []), 'mention.file'), /export const a = 1;/);
	});

	it('knows after a reopen what the chat was given, from its records', async () => {
		const provider = new ScriptedProvider({ text: 'Seen.' });
		const { store, turn } = harness(provider);
		await turn('turn-1').run('@a.ts', signal());
		const env = { clock: new FakeClock(), ids: new SequentialIds('r'), log: new RecordingLogger(), reminderConfig: DEFAULT_REMINDER_CONFIG, reminderDefaults: () => DEFAULT_REMINDERS };
		const reopened = new ChatSession('s1', store, env, [...store.records]);
		const [entry] = await mentionAttachments(ports(() => reopened.selectedRecords))('@a.ts', { kind: 'root', id: 'turn-2' }, signal());
		assert.match(entry?.entry.body ?? '', /already in context/);
		writeFileSync(join(workspace.root, 'a.ts'), 'export const a = 2;\n');
		const [changed] = await mentionAttachments(ports(() => reopened.selectedRecords))('@a.ts', { kind: 'root', id: 'turn-2' }, signal());
		assert.match(changed?.entry.body ?? '', /export const a = 2;/, 'a changed file is attached again');
	});
});
