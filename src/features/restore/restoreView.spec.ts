import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RestoreOutcome, RestorePreview } from './restore';
import { PROTOCOL_VERSION, parseHostMessage, type RestorePreviewView } from '../../protocol/messages';
import { testConnection } from '../../testing/viewConnection';
import type { RestoreRecord } from '../../transcript/restoreRecord';
import type { RestoreRequest, RestoreScope } from '../../vocabulary/restore';
import { RestorePart, RestorePreviews } from './restoreView';

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function preview(scope: RestoreScope, files: RestorePreview['plan']['files'] = []): RestorePreview {
	return { sessionId: 's', to: 'u1', scope, message: 'Fix <b>the</b> parser', turns: ['t1', 't2'], plan: { files }, tracked: true };
}

const changed: RestorePreview['plan']['files'][number] = { path: '/ws/a.ts', shown: 'a.ts', action: 'person-changed', overwrite: 'change', now: 'mine\n', target: 'old\n', diff: '-mine\n+old\n' };

function previews(answer: RestoreOutcome<RestorePreview>, applied: RestoreOutcome<unknown> = { ok: true, value: undefined }) {
	const shown: RestorePreviewView[] = [];
	const given: [string, string][] = [];
	const notices: [string, string][] = [];
	const calls: string[] = [];
	const restore = {
		preview: (to: string, scope: RestoreRequest) => {
			calls.push(`preview ${to} ${scope}`);
			return Promise.resolve(answer);
		},
		apply: (chosen: RestorePreview, overwrite: boolean) => {
			calls.push(`restore ${chosen.scope} ${String(overwrite)}`);
			return Promise.resolve(applied as RestoreOutcome<RestoreRecord>);
		},
	};
	const controller = new RestorePreviews({
		restore: () => restore,
		showPreview: (view) => shown.push(view),
		giveBack: (text, reason) => given.push([text, reason]),
		notice: (level, text) => notices.push([level, text]),
	});
	return { controller, shown, given, notices, calls };
}

describe('Restore… on the host', () => {
	it('answers with the preview, applies only that preview, and gives the message back after a chat restore', async () => {
		const t = previews({ ok: true, value: preview('both', [changed]) });
		t.controller.preview('u1', 'both');
		await flush();
		const [view] = t.shown;
		assert.ok(view);
		assert.deepEqual({ scope: view.scope, turns: view.turns, message: view.message, files: view.files }, { scope: 'both', turns: 2, message: 'Fix <b>the</b> parser', files: [{ shown: 'a.ts', action: 'person-changed', overwrite: 'change', diff: '-mine\n+old\n' }] });
		assert.ok(parseHostMessage({ type: 'restore.preview', seq: 1, preview: view }).ok, 'the view is a valid host message');
		t.controller.apply('stale-id', false);
		assert.match(t.notices[0]?.[1] ?? '', /no longer current/);
		t.controller.apply(view.id, true);
		await flush();
		assert.deepEqual(t.calls, ['preview u1 both', 'restore both true']);
		assert.deepEqual(t.given, [['Fix <b>the</b> parser', 'The chat was restored to before this message: its text is back in the message box.']]);
		t.controller.apply(view.id, true);
		assert.equal(t.calls.length, 2, 'a preview is applied once');
	});

	it('a cancelled preview cannot be applied; files only with nothing to restore says so instead of a preview', async () => {
		const t = previews({ ok: true, value: preview('files') });
		t.controller.preview('u1', 'files');
		await flush();
		assert.equal(t.shown.length, 0);
		assert.match(t.notices[0]?.[1] ?? '', /No file Aside's tools changed since that message needs restoring/);
		const u = previews({ ok: true, value: preview('chat') });
		u.controller.preview('u1', 'chat');
		await flush();
		const id = u.shown[0]?.id ?? '';
		u.controller.cancel(id);
		u.controller.apply(id, false);
		assert.deepEqual(u.calls, ['preview u1 chat']);
	});

	it('says why when the agent refuses, and after a failed apply gives nothing back', async () => {
		const t = previews({ ok: false, message: 'The agent is working: stop it or wait for it to finish before restoring.' });
		t.controller.preview('u1', 'chat');
		await flush();
		assert.deepEqual(t.notices, [['warning', 'The agent is working: stop it or wait for it to finish before restoring.']]);
		const u = previews({ ok: true, value: preview('chat') }, { ok: false, message: 'Could not restore a.ts: disk full.' });
		u.controller.preview('u1', 'chat');
		await flush();
		u.controller.apply(u.shown[0]?.id ?? '', false);
		await flush();
		assert.deepEqual(u.notices, [['error', 'Could not restore a.ts: disk full.']]);
		assert.deepEqual(u.given, []);
	});

	it('the view connection routes the messages to the part by their prefix, and drops malformed ones', async () => {
		const asked: string[] = [];
		const restore = {
			preview: (to: string, scope: RestoreRequest) => {
				asked.push(`preview ${to} ${scope}`);
				return Promise.resolve({ ok: false as const, message: 'Nothing to restore.' });
			},
			apply: () => Promise.reject(new Error('not expected')),
		};
		const t = testConnection({ features: () => [new RestorePart(() => restore)] });
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'restore.preview', to: 'u1', scope: 'files' });
		await flush();
		assert.deepEqual(asked, ['preview u1 files']);
		assert.ok(t.posted.some((message) => message.type === 'notice' && message.text === 'Nothing to restore.'));
		t.connection.receive({ type: 'restore.preview', to: 'u1', scope: 'sideways' });
		assert.match(t.log.lines.map((line) => line.message).join('\n'), /Dropped a message from the chat view/);
	});
});
