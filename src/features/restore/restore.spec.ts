// Restore… in a whole chat (src/testing/restoreChat.ts): files back, the chat back, session.rewind, the resets.
import { registerTestObservation } from '../../testing/testObservation';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { allText, keysIn, restoreChat } from '../../testing/restoreChat';
import { lastText } from '../../testing/turnHarness';

describe('Restore… files', () => {
	it('puts an edited file back, records the restore, and the next request carries session.rewind once; the model must read the file again', async (t) => {
		const { read, provider, session, turn, call, users, restorer } = restoreChat(t);
		await turn('Change a', [call('Read', { path: 'a.ts' }), call('Edit', { path: 'a.ts', old_string: '= 1', new_string: '= 2' }), { text: 'Done.' }]);
		assert.equal(read('a.ts'), 'export const a = 2;\n');
		const to = users()[0]?.id ?? '';
		const preview = await restorer.preview(to, 'files');
		assert.ok(preview.ok);
		assert.deepEqual(preview.value.plan.files.map((file) => [file.shown, file.action]), [['a.ts', 'change']]);
		assert.equal(read('a.ts'), 'export const a = 2;\n', 'a preview changes nothing');
		const restored = await restorer.apply(preview.value, false);
		assert.ok(restored.ok, restored.ok ? '' : restored.message);
		assert.equal(read('a.ts'), 'export const a = 1;\n');
		const record = session.records.at(-1);
		assert.equal(record?.kind, 'restore');
		assert.deepEqual(record.files.map(({ shown, action, done }) => [shown, action, done]), [['a.ts', 'change', true]]);
		// The model edits a.ts again at once: refused, it must read it first; then the next step.
		await turn('Again', [call('Edit', { path: 'a.ts', old_string: '= 1', new_string: '= 3' }, 'edit-again'), { text: 'ok' }]);
		const first = provider.requests.at(-2)?.messages ?? [];
		const rewind = lastText(first);
		assert.deepEqual(keysIn(rewind).filter((key) => key === 'session.rewind'), ['session.rewind']);
		assert.match(rewind, /restored the files Aside's tools changed to the state before their message "Change a" \(1 turn rolled back\)/);
		assert.match(rewind, /- a\.ts: put back as it was before that message/);
		assert.match(rewind, /no longer holds/);
		assert.match(rewind, /side effects of commands \(Run\) were not rolled back/);
		assert.ok(allText(first).includes('Change a'), 'a files-only restore keeps the chat');
		assert.match(allText(provider.requests.at(-1)?.messages ?? []), /has not been read in this chat/);
		assert.equal(read('a.ts'), 'export const a = 1;\n');
		assert.ok(!keysIn(allText(provider.requests.at(-1)?.messages.slice(-2) ?? [])).includes('files.edited'), 'the restore is no outside change');
		assert.equal(allText(provider.requests.at(-1)?.messages ?? []).split('session.rewind').length - 1, 1, 'delivered once');
	});

	it('keeps a file the person changed since unless they choose to overwrite it, and says so', async (t) => {
		const { write, read, turn, call, users, restorer } = restoreChat(t);
		await turn('Change a', [call('Read', { path: 'a.ts' }), call('Edit', { path: 'a.ts', old_string: '= 1', new_string: '= 2' }), { text: 'Done.' }]);
		write('a.ts', 'export const a = 2; // mine\n');
		const to = users()[0]?.id ?? '';
		const preview = await restorer.preview(to, 'files');
		assert.ok(preview.ok);
		assert.equal(preview.value.plan.files[0]?.action, 'person-changed');
		const kept = await restorer.apply(preview.value, false);
		assert.ok(kept.ok);
		assert.equal(read('a.ts'), 'export const a = 2; // mine\n');
		const again = await restorer.preview(to, 'files');
		assert.ok(again.ok);
		assert.ok((await restorer.apply(again.value, true)).ok);
		assert.equal(read('a.ts'), 'export const a = 1;\n');
	});

	it('is refused while a turn runs, and for a message that is not in the chat', async (t) => {
		const { provider, agent, turn, users, restorer } = restoreChat(t);
		await turn('Hi', [{ text: 'Hello.' }]);
		const to = users()[0]?.id ?? '';
		assert.equal((await restorer.preview('nope', 'files')).ok, false);
		const preview = await restorer.preview(to, 'chat');
		assert.ok(preview.ok);
		provider.script({ text: 'later' });
		const running = agent.startTurn('Next');
		const refused = await restorer.apply(preview.value, false);
		assert.equal(refused.ok, false);
		assert.match(refused.message, /The agent is working/);
		await running;
	});
});

describe('Restore… chat', () => {
	it('continues from before the message: the next request lacks the rolled-back turn, and the resets deliver again what it had acknowledged', async (t) => {
		const { provider, session, turn, call, users, restorer } = restoreChat(t);
		await turn('First question', [{ text: 'First answer.' }]);
		await turn('Look at the deep file', [call('Read', { path: 'src/deep/x.ts' }), { text: 'Second answer.' }]);
		assert.ok(allText(provider.requests.at(-1)?.messages ?? []).includes('Deep rules.'), 'the Read brought the nested AGENTS.md');
		const to = users()[1]?.id ?? '';
		const preview = await restorer.preview(to, 'chat');
		assert.ok(preview.ok);
		assert.equal(preview.value.message, 'Look at the deep file');
		assert.ok((await restorer.apply(preview.value, false)).ok);
		await turn('Another question', [{ text: 'Third answer.' }]);
		const messages = provider.requests.at(-1)?.messages ?? [];
		const next = allText(messages);
		const typed = messages.flatMap((message) => (message.role === 'user' && !message.synthetic ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])) : []));
		assert.ok(typed.includes('First question') && next.includes('First answer.'));
		assert.ok(!typed.some((text) => text.includes('Look at the deep file')) && !next.includes('Second answer.'), 'the rolled-back turn is not replayed');
		assert.ok(!next.includes('src/deep/x.ts"}'), 'nor its Read');
		assert.ok(next.includes('Deep rules.'), 'the nested AGENTS.md only the rolled-back part had given is given again, as after a compaction');
		assert.match(next, /The conversation continues from before that message/);
		// The rows stay: every record is still in the chat.
		assert.ok(session.allRecords.some((record) => record.kind === 'user' && record.text === 'Look at the deep file'));
	});

	it('an observation the rolled-back part delivered is delivered again, once', async (t) => {
		const { session, turn, users, restorer } = restoreChat(t);
		const delivered = registerTestObservation(session);
		await turn('One', [{ text: 'ok' }]);
		await turn('Two', [{ text: 'ok' }]);
		assert.equal(delivered(), 1, 'unchanged, it stays in history');
		const preview = await restorer.preview(users()[0]?.id ?? '', 'chat');
		assert.ok(preview.ok);
		assert.ok((await restorer.apply(preview.value, false)).ok);
		await turn('Three', [{ text: 'ok' }]);
		assert.equal(delivered(), 2, 'rolled back with its turn: delivered again');
		await turn('Four', [{ text: 'ok' }]);
		assert.equal(delivered(), 2, 'once');
	});

	it('session.rewind is queued again when the chat is reopened before a request carried it, and not after', async (t) => {
		const { provider, sessions, session, agent, turn, users, restorer } = restoreChat(t);
		await turn('Hi', [{ text: 'Hello.' }]);
		await turn('More', [{ text: 'More.' }]);
		const preview = await restorer.preview(users()[1]?.id ?? '', 'chat');
		assert.ok(preview.ok);
		assert.ok((await restorer.apply(preview.value, false)).ok);
		const id = session.id;
		sessions.newSession();
		const reopened = sessions.open(id);
		assert.deepEqual(reopened.reminders.pending.snapshot().map((entry) => entry.key).filter((key) => key === 'session.rewind'), ['session.rewind']);
		provider.script({ text: 'ok' });
		assert.equal((await agent.startTurn('After reopen')).outcome, 'done');
		assert.ok(keysIn(lastText(provider.requests.at(-1)?.messages ?? [])).includes('session.rewind'));
		sessions.newSession();
		const third = sessions.open(id);
		assert.ok(!third.reminders.pending.snapshot().some((entry) => entry.key === 'session.rewind'), 'delivered: not queued again');
	});
});

describe('Restore… both', () => {
	it('a file Aside created is deleted and the chat goes back; Run-free, a files-only restore with nothing to restore has an empty plan', async (t) => {
		const { root, provider, agent, turn, call, users, restorer } = restoreChat(t);
		await turn('Make b', [call('Write', { path: 'b.ts', content: 'export const b = 1;\n' }), { text: 'Made.' }]);
		const to = users()[0]?.id ?? '';
		const preview = await restorer.preview(to, 'both');
		assert.ok(preview.ok);
		assert.deepEqual(preview.value.plan.files.map((file) => [file.shown, file.action]), [['b.ts', 'delete']]);
		assert.ok((await restorer.apply(preview.value, false)).ok);
		assert.throws(() => readFileSync(join(root, 'b.ts')));
		const empty = await restorer.preview(to, 'files');
		assert.ok(empty.ok);
		assert.deepEqual(empty.value.plan.files, [], 'nothing left to restore');
		writeFileSync(join(root, 'b.ts'), 'the person made it again\n');
		provider.script({ text: 'ok' });
		await agent.startTurn('Go on');
		assert.match(lastText(provider.requests.at(-1)?.messages ?? []), /- b\.ts: deleted/);
	});
});
