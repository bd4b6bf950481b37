import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecordingLogger } from '../testing/recordingLogger';
import { hooksFor } from './config';
import { type Consent, HookSources, type HookSourcePorts } from './sources';

const FILE = '/ws/.aside/hooks.json';
const WORKSPACE_HOOKS = JSON.stringify({ PreToolUse: [{ matcher: 'Run', hooks: [{ type: 'command', command: './scripts/guard.sh' }] }] });

function sources(options: { trusted?: boolean; files?: Record<string, string>; user?: unknown; answer?: boolean } = {}) {
	const files = { ...options.files };
	let memory: Record<string, { hash: string; consent: Consent }> = {};
	const asked: { file: string; commands: readonly string[] }[] = [];
	const scriptsShown: (readonly string[])[] = [];
	const notices: string[] = [];
	/** Each script's content fingerprint (absent: no such file); `clone`: the folder's identity. */
	const fingerprints: Record<string, string> = {};
	const state = { trusted: options.trusted ?? true, answer: options.answer ?? true, user: options.user, clone: 'clone-1' };
	const ports: HookSourcePorts = {
		userValue: () => state.user,
		folders: () => ['/ws'],
		trusted: () => state.trusted,
		readFile: (path) => Promise.resolve(files[path]),
		memory: {
			get: () => memory,
			set: (value) => {
				memory = value;
				return Promise.resolve();
			},
		},
		fingerprint: (path) => Promise.resolve(fingerprints[path]),
		identity: () => Promise.resolve(state.clone),
		ask: (file, commands, scripts) => {
			asked.push({ file, commands });
			scriptsShown.push(scripts);
			return Promise.resolve(state.answer);
		},
		notify: (text) => notices.push(text),
		log: new RecordingLogger(),
	};
	return { hooks: new HookSources(ports), files, asked, notices, state, fingerprints, scriptsShown };
}

const commands = async (hooks: HookSources) => hooksFor(await hooks.groups(), 'PreToolUse', 'Run').map((hook) => hook.command);

describe('which hooks may run (trust and consent)', () => {
	it('an untrusted workspace runs no hook at all, not even the user\'s own, and asks nothing', async () => {
		const user = { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'mine' }] }] };
		const { hooks, asked, notices, state } = sources({ trusted: false, user, files: { [FILE]: WORKSPACE_HOOKS } });
		assert.deepEqual(await commands(hooks), []);
		assert.deepEqual(asked, []);
		assert.deepEqual(await hooks.skippedByTrust(), ['the setting aside.hooks', FILE], 'what the Restricted Mode notice can name');
		await commands(hooks);
		assert.deepEqual(notices, ['No hook runs in an untrusted workspace (Restricted Mode), not even your own (the setting aside.hooks). Trust the workspace to run them.'], 'said once; the workspace file is named by the Restricted Mode notice');
		state.trusted = true;
		assert.deepEqual(await commands(hooks), ['mine', './scripts/guard.sh']);
		assert.deepEqual(await hooks.skippedByTrust(), []);
	});

	it('in an untrusted workspace with no hooks configured, nothing is skipped or said', async () => {
		const { hooks, notices } = sources({ trusted: false, files: { [FILE]: '{ nope' } });
		assert.deepEqual(await commands(hooks), []);
		assert.deepEqual(await hooks.skippedByTrust(), [FILE], 'a workspace file is named even when malformed: it was not read as hooks');
		const none = sources({ trusted: false });
		assert.deepEqual(await none.hooks.skippedByTrust(), []);
		await commands(none.hooks);
		assert.deepEqual(none.notices, []);
		assert.deepEqual(notices, [], 'a workspace hooks file is named by the Restricted Mode notice, not by the hooks');
	});

	it('asks the first time, naming the file and its commands; the answer holds while the file is unchanged', async () => {
		const { hooks, asked } = sources({ files: { [FILE]: WORKSPACE_HOOKS } });
		assert.deepEqual(await commands(hooks), ['./scripts/guard.sh']);
		assert.deepEqual(asked, [{ file: FILE, commands: ['PreToolUse (Run): ./scripts/guard.sh'] }]);
		assert.deepEqual(await commands(hooks), ['./scripts/guard.sh']);
		assert.equal(asked.length, 1, 'asked once');
		// Calls at once share one question.
		const fresh = sources({ files: { [FILE]: WORKSPACE_HOOKS } });
		await Promise.all([commands(fresh.hooks), commands(fresh.hooks), commands(fresh.hooks)]);
		assert.equal(fresh.asked.length, 1);
	});

	it('a refusal holds too; a changed file asks again', async () => {
		const { hooks, asked, files, state } = sources({ files: { [FILE]: WORKSPACE_HOOKS }, answer: false });
		assert.deepEqual(await commands(hooks), []);
		assert.deepEqual(await commands(hooks), []);
		assert.equal(asked.length, 1);
		files[FILE] = WORKSPACE_HOOKS.replace('guard.sh', 'guard2.sh');
		state.answer = true;
		assert.deepEqual(await commands(hooks), ['./scripts/guard2.sh']);
		assert.equal(asked.length, 2, 'the changed file was asked about');
		assert.deepEqual(asked[1]?.commands, ['PreToolUse (Run): ./scripts/guard2.sh']);
	});

	it("the user's own hooks run without asking, before the workspace's; a malformed setting is said once and loses the file's", async () => {
		const user = { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'mine' }] }] };
		const { hooks, asked } = sources({ user, files: { [FILE]: WORKSPACE_HOOKS } });
		assert.deepEqual(await commands(hooks), ['mine', './scripts/guard.sh']);
		assert.equal(asked.length, 1);
		const broken = sources({ user: 'rm -rf /', files: { [FILE]: WORKSPACE_HOOKS } });
		assert.deepEqual(await commands(broken.hooks), ['./scripts/guard.sh']);
		await commands(broken.hooks);
		assert.equal(broken.notices.length, 1, 'said once while unchanged');
		assert.match(broken.notices[0] ?? '', /the setting aside\.hooks: must be an object of events/);
	});

	it('the approval covers the workspace scripts the commands name: a changed, added or removed script asks again', async () => {
		const text = JSON.stringify({ PreToolUse: [{ matcher: 'Run', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh' }, { type: 'command', command: 'bash ./scripts/guard.sh --strict' }] }] });
		const { hooks, asked, fingerprints, scriptsShown } = sources({ files: { [FILE]: text } });
		fingerprints['/ws/.claude/hooks/check.sh'] = 'v1';
		fingerprints['/ws/scripts/guard.sh'] = 'g1';
		assert.equal((await commands(hooks)).length, 2);
		assert.deepEqual(scriptsShown, [['/ws/.claude/hooks/check.sh', '/ws/scripts/guard.sh']], 'the question names the scripts');
		await commands(hooks);
		assert.equal(asked.length, 1, 'unchanged: not asked again');
		fingerprints['/ws/.claude/hooks/check.sh'] = 'v2';
		await commands(hooks);
		assert.equal(asked.length, 2, 'a changed script asks again');
		delete fingerprints['/ws/scripts/guard.sh'];
		await commands(hooks);
		assert.equal(asked.length, 3, 'a removed one too');
		assert.deepEqual(scriptsShown[2], ['/ws/.claude/hooks/check.sh']);
	});

	it('a different clone at the same path asks again', async () => {
		const { hooks, asked, state } = sources({ files: { [FILE]: WORKSPACE_HOOKS } });
		await commands(hooks);
		await commands(hooks);
		assert.equal(asked.length, 1);
		state.clone = 'clone-2';
		assert.deepEqual(await commands(hooks), ['./scripts/guard.sh']);
		assert.equal(asked.length, 2, 'the same file in another clone is asked about');
	});

	it('a workspace file that is not JSON is named and runs nothing, without asking', async () => {
		const { hooks, asked, notices } = sources({ files: { [FILE]: '{ nope' } });
		assert.deepEqual(await commands(hooks), []);
		assert.deepEqual(asked, []);
		assert.match(notices[0] ?? '', /\/ws\/\.aside\/hooks\.json: not valid JSON/);
	});
});
