// A restore's own writes are checkpointed: the restore can be undone from its row, a
// later restore to an earlier message sees its writes as Aside's, a fork after it starts from the
// files as it left them, and a restore whose checkpoint cannot be kept writes nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allText, keysIn, restoreChat } from '../../testing/restoreChat';
import { lastText } from '../../testing/turnHarness';
import type { RestoreRecord } from '../../transcript/restoreRecord';
import { forkPrefix } from '../../agent/forkHistory';

type Chat = ReturnType<typeof restoreChat>;

/** Two turns: a.ts 1 → 2 → 3, then b.ts created in the second. */
async function twoEdits(chat: Chat): Promise<void> {
	const { turn, call } = chat;
	await turn('Make it two', [call('Read', { path: 'a.ts' }), call('Edit', { path: 'a.ts', old_string: '= 1', new_string: '= 2' }), { text: 'Two.' }]);
	await turn('Make it three', [call('Edit', { path: 'a.ts', old_string: '= 2', new_string: '= 3' }, 'edit-3'), call('Write', { path: 'b.ts', content: 'export const b = 1;\n' }), { text: 'Three.' }]);
}

async function restoreFiles(chat: Chat, to: string, scope: 'files' | 'undo' = 'files'): Promise<RestoreRecord> {
	const preview = await chat.restorer.preview(to, scope);
	assert.ok(preview.ok, preview.ok ? '' : preview.message);
	const applied = await chat.restorer.apply(preview.value, false);
	assert.ok(applied.ok, applied.ok ? '' : applied.message);
	return applied.value;
}

describe('Undo… of a restore', () => {
	it('puts back what the restore overwrote, marks it undone, tells the model, and can itself be undone', async (t) => {
		const chat = restoreChat(t);
		const { read, provider, agent, users } = chat;
		await twoEdits(chat);
		const restore = await restoreFiles(chat, users()[1]?.id ?? '');
		assert.equal(read('a.ts'), 'export const a = 2;\n');
		assert.ok(restore.turnId, 'the restore kept its writes under a turn of its own');
		const preview = await chat.restorer.preview(restore.id, 'undo');
		assert.ok(preview.ok, preview.ok ? '' : preview.message);
		assert.equal(preview.value.undoes, restore.id);
		assert.deepEqual(preview.value.plan.files.map((file) => [file.shown, file.action]), [['a.ts', 'change'], ['b.ts', 'recreate']]);
		const undo = await chat.restorer.apply(preview.value, false);
		assert.ok(undo.ok, undo.ok ? '' : undo.message);
		assert.equal(read('a.ts'), 'export const a = 3;\n');
		assert.equal(read('b.ts'), 'export const b = 1;\n');
		assert.equal(undo.value.undoes, restore.id);
		assert.deepEqual(undo.value.turns, [], 'an undo rolls no turn back');
		const again = await chat.restorer.preview(restore.id, 'undo');
		assert.equal(again.ok, false);
		assert.match(again.message, /already undone/);
		// The model hears of both, once each, on its next request.
		provider.script({ text: 'ok' });
		assert.equal((await agent.startTurn('Go on')).outcome, 'done');
		const told = lastText(provider.requests.at(-1)?.messages ?? []);
		assert.deepEqual(keysIn(told).filter((key) => key === 'session.rewind'), ['session.rewind', 'session.rewind']);
		assert.match(told, /undid their earlier restore of files to the state before their message "Make it three"/);
		assert.match(told, /- a\.ts: back as it was just before that restore/);
		assert.match(told, /- b\.ts: recreated \(that restore had deleted it\)/);
		// The undo is a restore too: undoing it goes back to what the first restore left.
		await restoreFiles(chat, undo.value.id, 'undo');
		assert.equal(read('a.ts'), 'export const a = 2;\n');
		assert.throws(() => read('b.ts'));
		assert.ok(!allText(provider.requests.at(-1)?.messages ?? []).includes('already undone'));
	});

	it('flags a file changed since the restore, and overwrites it only when asked', async (t) => {
		const chat = restoreChat(t);
		const { read, write, users } = chat;
		await twoEdits(chat);
		const restore = await restoreFiles(chat, users()[1]?.id ?? '');
		write('a.ts', 'export const a = 2; // mine\n');
		const preview = await chat.restorer.preview(restore.id, 'undo');
		assert.ok(preview.ok);
		assert.equal(preview.value.plan.files.find((file) => file.shown === 'a.ts')?.action, 'person-changed');
		assert.ok((await chat.restorer.apply(preview.value, false)).ok);
		assert.equal(read('a.ts'), 'export const a = 2; // mine\n', 'kept');
		assert.equal(read('b.ts'), 'export const b = 1;\n', 'the rest was put back');
	});

	it('is refused for a restore that wrote nothing, and for a chat-only one', async (t) => {
		const chat = restoreChat(t);
		const { turn, users } = chat;
		await turn('Hi', [{ text: 'Hello.' }]);
		const chatOnly = await chat.restorer.preview(users()[0]?.id ?? '', 'chat');
		assert.ok(chatOnly.ok);
		const record = await chat.restorer.apply(chatOnly.value, false);
		assert.ok(record.ok);
		assert.equal(record.value.turnId, undefined);
		const undo = await chat.restorer.preview(record.value.id, 'undo');
		assert.equal(undo.ok, false);
		assert.match(undo.message, /wrote no file/);
		assert.equal((await chat.restorer.preview('no-such-restore', 'undo')).ok, false);
	});
});

describe('A restore\'s writes in later restores and forks', () => {
	it('a restore to an earlier message counts the restore\'s writes as Aside\'s, not as the person\'s', async (t) => {
		const chat = restoreChat(t);
		const { read, users } = chat;
		await twoEdits(chat);
		await restoreFiles(chat, users()[1]?.id ?? '');
		const preview = await chat.restorer.preview(users()[0]?.id ?? '', 'files');
		assert.ok(preview.ok);
		assert.deepEqual(preview.value.plan.files.map((file) => [file.shown, file.action]), [['a.ts', 'change']], 'a.ts is what the restore wrote: no one else changed it');
		assert.ok((await chat.restorer.apply(preview.value, false)).ok);
		assert.equal(read('a.ts'), 'export const a = 1;\n');
	});

	it('a fork made after a restore takes over the restore\'s checkpoints too', async (t) => {
		const chat = restoreChat(t);
		const { session, users } = chat;
		await twoEdits(chat);
		const restore = await restoreFiles(chat, users()[1]?.id ?? '');
		await chat.turn('After', [{ text: 'ok' }]);
		const prefix = forkPrefix(session.allRecords, users()[2]?.id ?? '', undefined);
		assert.ok(restore.turnId && prefix.turnIds.has(restore.turnId));
	});

	it('writes nothing when the restore\'s own checkpoint cannot be kept', async (t) => {
		const chat = restoreChat(t);
		const { read, session, users, checkpoints } = chat;
		await twoEdits(chat);
		const preview = await chat.restorer.preview(users()[1]?.id ?? '', 'files');
		assert.ok(preview.ok);
		checkpoints.recorder = () => ({ keep: () => Promise.reject(new Error('no space left on device')) });
		const refused = await chat.restorer.apply(preview.value, false);
		assert.equal(refused.ok, false);
		assert.match(refused.message, /could not keep a checkpoint.*no space left on device.*nothing was restored/);
		assert.equal(read('a.ts'), 'export const a = 3;\n');
		assert.equal(read('b.ts'), 'export const b = 1;\n');
		assert.ok(!session.records.some((record) => record.kind === 'restore'), 'nothing recorded');
	});
});
