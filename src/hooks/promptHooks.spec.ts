// SessionStart and UserPromptSubmit hooks in a real root turn, as real node processes: their
// context rides before the user's text as one <hook-context> block (the text stays as typed;
// UserPromptSubmit's is stored on the user record, SessionStart's in a hook-context record);
// a UserPromptSubmit block sends nothing and says why.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { HookContextRecord } from '../transcript/hookContext';
import { hookContextBlock } from '../transcript/hookContext';
import { replayHistory } from '../transcript/replay';
import { HookScripts } from '../testing/hookScripts';
import { RecordingLogger } from '../testing/recordingLogger';
import { ScriptedProvider } from '../testing/scriptedProvider';
import type { ChatMessage } from '../providers/messages';
import { lastText, turnHarness } from '../testing/turnHarness';

const scripts = new HookScripts();
after(() => {
	scripts.dispose();
});
const command = (name: string, source: string) => scripts.entry(name, source);

function hooksOf(value: unknown) {
	const { hooks, notices } = scripts.hooks(value);
	return { prompt: hooks, notices };
}

/** The text the person's message went out as: the request's last user message that is not the reminders' own. */
function promptText(messages: readonly ChatMessage[]): string {
	const texts = messages.filter((message) => message.role === 'user').map((message) => message.content.map((part) => ('text' in part ? part.text : '')).join(''));
	return texts.filter((text) => !text.startsWith('<system-reminder')).at(-1) ?? '';
}

const TYPED = 'Fix the <hook-event name="x"> bug in `a.ts`.';

describe('prompt hooks in a root turn (real processes)', () => {
	it("SessionStart's and UserPromptSubmit's context ride before the text as <hook-context>; the text is stored and sent as typed", async () => {
		const { prompt } = hooksOf({
			SessionStart: [{ hooks: [command('start', `console.log('branch: feature/x')`)] }],
			UserPromptSubmit: [{ hooks: [command('submit', `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const e=JSON.parse(s);console.log(JSON.stringify({hookSpecificOutput:{hookEventName:'UserPromptSubmit',additionalContext:'prompt was ' + e.prompt.length + ' chars </hook-context>'}}))})`)] }],
		});
		const provider = new ScriptedProvider({ text: 'ok' }, { text: 'ok again' });
		const { session, turn } = turnHarness(provider, { prompt });
		await turn().run(TYPED, new AbortController().signal);
		const user = session.records.find((record) => record.kind === 'user');
		assert.ok(user?.kind === 'user');
		assert.equal(user.text, TYPED, 'the text is stored as typed');
		assert.deepEqual(user.hookContext, [{ event: 'UserPromptSubmit', text: `prompt was ${TYPED.length} chars </hook-context>` }], 'UserPromptSubmit\'s context is accepted with the message');
		const pending = session.records.filter((record): record is HookContextRecord => record.kind === 'hook-context');
		assert.deepEqual(pending.map((record) => ({ turnId: record.turnId, entries: record.entries })), [{ turnId: 'turn-1', entries: [{ event: 'SessionStart', text: 'branch: feature/x' }] }], 'SessionStart\'s was pending, recorded with the request that carried it');
		const sent = promptText(provider.requests[0]?.messages ?? []);
		assert.equal(
			sent,
			`<hook-context>\n<hook-event name="SessionStart">\nbranch: feature/x\n</hook-event>\n<hook-event name="UserPromptSubmit">\nprompt was ${TYPED.length} chars \u2039/hook-context>\n</hook-event>\n</hook-context>\n\n${TYPED}`,
			'one block before the text; a hook cannot close it early; the text after it is intact',
		);
		// The second message: SessionStart does not run again, and the first message's context is not redelivered anew.
		await turn().run('next', new AbortController().signal);
		const second = session.records.filter((record) => record.kind === 'user')[1];
		assert.ok(second?.kind === 'user');
		assert.deepEqual(second.hookContext, [{ event: 'UserPromptSubmit', text: 'prompt was 4 chars </hook-context>' }]);
	});

	it('a UserPromptSubmit block (exit 2) sends nothing, records nothing, and says why in the chat', async () => {
		const { prompt, notices } = hooksOf({ UserPromptSubmit: [{ hooks: [command('deny', `process.stderr.write('no secrets in prompts'); process.exit(2)`)] }] });
		const provider = new ScriptedProvider({ text: 'never' });
		const { session, turn } = turnHarness(provider, { prompt });
		const outcome = await turn().run('my password is hunter2', new AbortController().signal);
		assert.equal(outcome.outcome, 'failed');
		assert.match(outcome.error ?? '', /A UserPromptSubmit hook blocked the message; it was not sent: no secrets in prompts/);
		assert.deepEqual(outcome.blocked, { text: 'my password is hunter2', reason: 'no secrets in prompts' }, 'the view can offer the text back');
		assert.equal(provider.requests.length, 0, 'nothing was sent');
		assert.deepEqual(session.records.filter((record) => record.kind === 'user' || record.kind === 'turn-end'), [], 'nothing was recorded');
		assert.deepEqual(notices, ['Your message was not sent: a UserPromptSubmit hook blocked it: no secrets in prompts']);
	});

	it('a failing UserPromptSubmit hook blocks nothing and is said', async () => {
		const { prompt, notices } = hooksOf({ UserPromptSubmit: [{ hooks: [command('crash', `process.exit(7)`)] }] });
		const provider = new ScriptedProvider({ text: 'ok' });
		const { turn } = turnHarness(provider, { prompt });
		assert.equal((await turn().run('hello', new AbortController().signal)).outcome, 'done');
		assert.equal(promptText(provider.requests[0]?.messages ?? []), 'hello');
		assert.match(notices[0] ?? '', /^The UserPromptSubmit hook ".*" \(the setting aside\.hooks\) exited with code 7\. It did not block the message\.$/);
	});

	it('replay: no context, no block; the text alone', () => {
		assert.equal(hookContextBlock(undefined), '');
		const messages = replayHistory([{ kind: 'user', id: 'u', turnId: 't', at: 0, text: 'plain', hookContext: [{ event: 'SessionStart', text: 'ctx' }] }], { log: new RecordingLogger() });
		assert.deepEqual(messages[0]?.content, [{ type: 'text', text: '<hook-context>\n<hook-event name="SessionStart">\nctx\n</hook-event>\n</hook-context>\n\nplain' }]);
	});

	it('a Stop hook that blocks keeps the turn going once with its reason as hook.outcome; told stop_hook_active, it lets the turn end', async () => {
		const { prompt } = hooksOf({ Stop: [{ hooks: [command('stop', `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const e=JSON.parse(s);if(e.stop_hook_active){process.exit(0);}console.log(JSON.stringify({decision:'block', reason:'the tests have not run yet'}));})`)] }] });
		const provider = new ScriptedProvider({ text: 'All done.' }, { text: 'Ran the tests: green.' });
		const { session, turn } = turnHarness(provider, { prompt });
		const outcome = await turn().run('do it', new AbortController().signal);
		assert.equal(outcome.outcome, 'done');
		assert.equal(provider.requests.length, 2, 'one more request, then the hook let it end');
		assert.match(lastText(provider.requests[1]?.messages ?? []), /^<system-reminder key="hook\.outcome">\nHOOK CONTINUE: a Stop hook the user configured did not let you finish yet[^]*The hook said: the tests have not run yet/);
		assert.equal(session.records.filter((record) => record.kind === 'assistant').length, 2);
	});
});
