// Changing prompt observations in a whole chat: a real ChatSession and its engine, requests built
// from its records (replayHistory, so after a compaction record from the summary and the kept
// tail), and compaction records written the way the compaction does, followed by the
// reconciliation it runs. A reopened chat is a new ChatSession over the same records.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OPEN_CONTEXT } from '../../agent/permissions/policy';
import { ChatSession, type SessionEnvironment } from '../../agent/session';
import type { AgentProfile } from '../../agent/subagents/profile';
import { BUILTIN_PROFILES } from '../../agent/subagents/builtinProfiles';
import { fixedEnvironment } from '../../testing/environment';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { MemorySessionStore } from '../../testing/memorySessionStore';
import { RecordingLogger } from '../../testing/recordingLogger';
import type { AgentRecord } from '../../transcript/records';
import type { CompactionRecord } from '../../transcript/historyMarkers';
import { replayHistory } from '../../transcript/replay';
import { DEFAULT_REMINDER_CONFIG, type ReminderConfig } from '../config';
import type { Phase, ReminderDefinition, WaitFacts } from '../definition';
import type { InjectionRecord, InjectionRecordEntry } from '../record';
import { DROPPED_FROM_HISTORY } from '../roster';
import { agentsListing } from './agentsListing';
import { modeConstraints } from './modeConstraints';
import { CHANGED_REASON, sectionOf, stillApplies } from './observations';
import { sessionDate } from './sessionDate';
import { environmentBody, sessionEnvironment } from './sessionEnvironment';
import { type InstructionFile, workspaceInstructions } from './workspaceInstructions';

const DAY = 24 * 3_600_000;

/** What the chat's sections read, changed by hand. */
class World {
	readonly clock = new FakeClock(new Date(2026, 10, 30, 9).getTime());
	folders: readonly string[] = ['/work/project'];
	instructions: InstructionFile[] = [{ path: 'AGENTS.md', text: 'Use pnpm.', truncated: false }];
	profiles: readonly AgentProfile[] = BUILTIN_PROFILES;
	definitions(): ReminderDefinition[] {
		return [
			sessionDate(this.clock),
			sessionEnvironment(() => fixedEnvironment(this.folders)()),
			workspaceInstructions(() => ({ files: this.instructions })),
			modeConstraints,
			agentsListing({ current: () => this.profiles }),
		];
	}
}

interface Sent {
	readonly record: InjectionRecord | null;
	/** type → entry, of what this request carried. */
	readonly entries: ReadonlyMap<string, InjectionRecordEntry>;
	readonly types: readonly string[];
}

function chat(world = new World(), store = new MemorySessionStore(), config: ReminderConfig = DEFAULT_REMINDER_CONFIG) {
	const ids = new SequentialIds(`c${store.records.length}-`);
	const env: SessionEnvironment = {
		clock: world.clock,
		ids,
		log: new RecordingLogger(),
		reminderConfig: config,
		reminderDefaults: () => world.definitions(),
	};
	const session = new ChatSession('s1', store, env, [...store.records]);
	let turns = 0;
	let owner = session.reminders.currentRootOwner;
	const facts = (extra: WaitFacts): WaitFacts => ({ permissions: { mode: 'ask', context: OPEN_CONTEXT }, ...extra });
	/** One request at `phase` (a turn start begins a user turn), built from the chat's records; committed unless `accepted` is false. */
	const request = async (phase: Phase, { accepted = true, extra = {} }: { accepted?: boolean; extra?: WaitFacts } = {}): Promise<Sent> => {
		if (phase === 'turn-start') {
			const turnId = `t${++turns}-${ids.next()}`;
			owner = session.reminders.beginUserTurn(turnId);
			session.append({ kind: 'user', id: `u-${turnId}`, turnId, at: world.clock.now(), text: `message ${turns}` });
		} else {
			session.append({ kind: 'assistant', id: ids.next(), turnId: owner?.id ?? 't', requestId: ids.next(), at: world.clock.now(), text: 'working', toolCalls: [], stop: 'end' });
		}
		assert.ok(owner);
		const injection = session.reminders.wait({ requestId: ids.next(), owner, phase, messages: replayHistory(session.records) }, undefined, facts(extra));
		if (accepted) {
			await injection.commit();
		}
		const entries = new Map((injection.record?.entries ?? []).map((entry) => [entry.type, entry] as const));
		return { record: injection.record, entries, types: [...entries.keys()] };
	};
	/**
	 * Compacts as the compaction does: a compaction record (keeping the tail from `keepFrom`), then the
	 * observations reconciled against what requests now replay.
	 */
	const compact = (keepFrom?: string): void => {
		const record: CompactionRecord = { kind: 'compaction', id: ids.next(), at: world.clock.now(), cause: 'auto', summary: 'We fixed the parser.', tokensBefore: 9000, tokensAfter: 800, ...(keepFrom ? { keepFrom } : {}) };
		session.append(record);
		session.reminders.roster.reconcileObservations(session.selectedRecords.filter((candidate): candidate is InjectionRecord => candidate.kind === 'injected-reminders'));
	};
	const lastUser = (): string => [...session.records].reverse().find((record): record is Extract<AgentRecord, { kind: 'user' }> => record.kind === 'user')?.id ?? assert.fail('no user record');
	return { session, store, request, compact, lastUser };
}

const ALL = ['sessionDate', 'sessionEnvironment', 'workspaceInstructions', 'modeConstraints', 'agentsListing'];
const bodyOf = (sent: Sent, type: string): string => sent.entries.get(type)?.body ?? assert.fail(`${type} was not delivered (${sent.types.join(', ')})`);

describe('changing prompt observations', () => {
	it('the first request carries every section, in full; an unchanged section is not sent again, at a turn start or mid-turn', async () => {
		const { request } = chat();
		const first = await request('turn-start');
		assert.deepEqual(first.types, ALL);
		for (const entry of first.entries.values()) {
			assert.doesNotMatch(entry.body, /This replaces the earlier version/, `${entry.type}: no notice at a first delivery`);
			assert.notEqual(entry.reason, CHANGED_REASON);
		}
		assert.equal(first.entries.get('sessionDate')?.reason, 'first delivery');
		assert.equal((await request('mid-turn')).record, null);
		assert.equal((await request('turn-start')).record, null);
	});

	it('after a compaction mid-turn whose summarized part held every delivery, the very next request carries them all again, in full', async () => {
		const { request, compact } = chat();
		await request('turn-start');
		await request('mid-turn');
		compact();
		const after = await request('mid-turn');
		assert.deepEqual(after.types, ALL, 'all absent: all delivered, mid-turn too');
		for (const entry of after.entries.values()) {
			assert.doesNotMatch(entry.body, /This replaces the earlier version/, `${entry.type}: absent, so no notice`);
		}
		for (const type of ['sessionDate', 'sessionEnvironment', 'workspaceInstructions', 'modeConstraints', 'agentsListing']) {
			assert.equal(after.entries.get(type)?.reason, DROPPED_FROM_HISTORY, type);
		}
		assert.match(bodyOf(after, 'agentsListing'), /^The agent profiles you can start:/, 'the full listing, not a delta');
		assert.equal((await request('mid-turn')).record, null, 'delivered again: quiet');
		assert.equal((await request('turn-start')).record, null);
	});

	it('a section whose delivery the kept tail holds stays quiet; only the absent ones are delivered again', async () => {
		const world = new World();
		world.instructions = [];
		const { request, compact, lastUser } = chat(world);
		await request('turn-start');
		world.instructions = [{ path: 'AGENTS.md', text: 'Use pnpm.', truncated: false }];
		const second = await request('turn-start');
		assert.deepEqual(second.types, ['workspaceInstructions'], 'a new file: its first delivery');
		await request('mid-turn');
		// Keep the tail from the second turn's message: its instructions delivery stays in the history.
		compact(lastUser());
		const after = await request('mid-turn');
		assert.deepEqual(after.types, ['sessionDate', 'sessionEnvironment', 'modeConstraints', 'agentsListing']);
	});

	it('a changed section delivers all of itself and then one notice naming only the other sections retained', async () => {
		const world = new World();
		world.instructions = [];
		const { request, compact, lastUser } = chat(world);
		await request('turn-start');
		world.instructions = [{ path: 'AGENTS.md', text: 'Use pnpm.', truncated: false }];
		await request('turn-start');
		compact(lastUser());
		// The date and the rest are absent (delivered again now); the instructions, retained, changed.
		world.instructions = [{ path: 'AGENTS.md', text: 'Use npm.', truncated: false }];
		const mixed = await request('turn-start');
		assert.deepEqual(mixed.types, ALL);
		assert.equal(mixed.entries.get('workspaceInstructions')?.reason, CHANGED_REASON);
		assert.match(bodyOf(mixed, 'workspaceInstructions'), /Contents of AGENTS\.md:\n\nUse npm\.\n\nThis replaces the earlier version of this section\.$/, 'the others come in this same request: none named');
		assert.doesNotMatch(bodyOf(mixed, 'sessionDate'), /replaces/);
		// Now every section is retained: a change names the others.
		world.instructions = [{ path: 'AGENTS.md', text: 'Use yarn.', truncated: false }];
		const changed = await request('turn-start');
		assert.deepEqual(changed.types, ['workspaceInstructions']);
		assert.match(
			bodyOf(changed, 'workspaceInstructions'),
			/Use yarn\.\n\nThis replaces the earlier version of this section; the date, the environment, the permission mode's rules and the agent profiles given earlier still apply\.$/,
		);
	});

	it('the notice leaves out a section the person turned off, and one delivered again in the same request', async () => {
		const world = new World();
		const { request } = chat(world, new MemorySessionStore(), { isEnabled: (type) => type !== 'agentsListing', intervalOf: () => undefined });
		await request('turn-start');
		world.clock.advance(DAY);
		world.instructions = [{ path: 'AGENTS.md', text: 'Use npm.', truncated: false }];
		const both = await request('turn-start');
		assert.deepEqual(both.types, ['sessionDate', 'workspaceInstructions']);
		assert.match(bodyOf(both, 'sessionDate'), /\n\nThis replaces the earlier version of this section; the environment and the permission mode's rules given earlier still apply\.$/);
		assert.match(bodyOf(both, 'workspaceInstructions'), /\n\nThis replaces the earlier version of this section; the environment and the permission mode's rules given earlier still apply\.$/);
	});

	it('a reopened chat checks against the history after its compaction point, as the live one did', async () => {
		const world = new World();
		world.instructions = [];
		const live = chat(world);
		await live.request('turn-start');
		world.instructions = [{ path: 'AGENTS.md', text: 'Use pnpm.', truncated: false }];
		await live.request('turn-start');
		await live.request('mid-turn');
		// Written, but the window closed before anything else was sent.
		live.session.append({ kind: 'compaction', id: 'k1', at: world.clock.now(), cause: 'manual', summary: 'S.', tokensBefore: 10, tokensAfter: 5, keepFrom: live.lastUser() });
		live.session.dispose();
		const reopened = chat(world, live.store);
		const after = await reopened.request('turn-start');
		assert.deepEqual(after.types, ['sessionDate', 'sessionEnvironment', 'modeConstraints', 'agentsListing'], 'the kept tail holds the instructions');
		assert.equal(after.entries.get('sessionDate')?.reason, DROPPED_FROM_HISTORY);
		assert.match(bodyOf(after, 'agentsListing'), /^The agent profiles you can start:/);
		assert.equal((await reopened.request('turn-start')).record, null);
	});

	it('a reopened chat without a compaction sends nothing its history holds, a delivery that ended in a notice included', async () => {
		const world = new World();
		const live = chat(world);
		await live.request('turn-start');
		world.instructions = [{ path: 'AGENTS.md', text: 'Use npm.', truncated: false }];
		assert.match(bodyOf(await live.request('turn-start'), 'workspaceInstructions'), /still apply\.$/);
		live.session.dispose();
		const reopened = chat(world, live.store);
		assert.equal((await reopened.request('turn-start')).record, null, 'the recorded body without its notice is what the section said');
		world.instructions = [{ path: 'AGENTS.md', text: 'Use yarn.', truncated: false }];
		assert.deepEqual((await reopened.request('turn-start')).types, ['workspaceInstructions']);
	});

	it('agents.listing: after a compaction it forgets what it told, so the next listing is the full one, not a delta', async () => {
		const world = new World();
		const { request, compact } = chat(world);
		await request('turn-start');
		const reviewer: AgentProfile = { name: 'reviewer', description: 'Reviews a change.', tools: { kind: 'read-only' }, reminders: [], canSpawn: false, prompt: 'Review.', source: { kind: 'builtin' } };
		world.profiles = [...BUILTIN_PROFILES, reviewer];
		const delta = await request('mid-turn');
		assert.deepEqual(delta.types, ['agentsListing']);
		assert.match(bodyOf(delta, 'agentsListing'), /^The agent profiles changed since you were last told; the others are as they were\.\n\nAdded:\n- reviewer: Reviews a change\.$/);
		compact();
		const full = bodyOf(await request('mid-turn'), 'agentsListing');
		assert.match(full, /^The agent profiles you can start:\n/);
		for (const profile of world.profiles) {
			assert.ok(full.includes(`- ${profile.name}: `), `${profile.name} is listed again`);
		}
		assert.equal((await request('mid-turn')).record, null);
	});

	it('a request that failed delivered nothing: the next one carries the sections', async () => {
		const { request, compact } = chat();
		await request('turn-start');
		compact();
		assert.deepEqual((await request('mid-turn', { accepted: false })).types, ALL);
		assert.deepEqual((await request('mid-turn')).types, ALL);
		assert.equal((await request('mid-turn')).record, null);
	});

	it('a changed date or folder waits for the next turn start; a changed mode does not', async () => {
		const world = new World();
		const { request } = chat(world);
		await request('turn-start');
		world.clock.advance(DAY);
		world.folders = ['/work/project', '/work/lib'];
		assert.equal((await request('mid-turn')).record, null, 'not mid-turn');
		const mode = await request('mid-turn', { extra: { permissions: { mode: 'full-access', context: OPEN_CONTEXT } } });
		assert.deepEqual(mode.types, ['modeConstraints']);
		assert.match(bodyOf(mode, 'modeConstraints'), /^Permission mode now: full-access\.[\s\S]*\n\nThis replaces the earlier version of this section; the date, the environment, the project instructions and the agent profiles given earlier still apply\.$/);
		const next = await request('turn-start');
		assert.deepEqual(next.types, ['sessionDate', 'sessionEnvironment', 'modeConstraints']);
		assert.match(bodyOf(next, 'sessionEnvironment'), / {2}- \/work\/project\n {2}- \/work\/lib\n\nThis replaces the earlier version of this section; the project instructions and the agent profiles given earlier still apply\.$/);
		assert.equal(next.entries.get('sessionEnvironment')?.reason, CHANGED_REASON);
	});
});

describe('session.environment', () => {
	it('names the OS, the shell and the folders, the first one as where relative paths start', () => {
		assert.equal(
			environmentBody({ platform: 'linux', arch: 'x64', release: '6.1.0', shell: '/bin/zsh', folders: ['/work/app', '/work/lib'] }),
			[
				'The environment you work in:',
				'- Operating system: linux 6.1.0 (x64)',
				"- The user's default shell: /bin/zsh (their terminals'; Run uses the system shell, sh or cmd.exe on Windows)",
				'- Workspace folders (relative paths start at the first):',
				'  - /work/app',
				'  - /work/lib',
			].join('\n'),
		);
	});

	it('says when no folder is open and when the shell is not known', () => {
		const body = environmentBody({ platform: 'win32', arch: 'arm64', release: '10.0.22631', shell: '  ', folders: [] });
		assert.match(body, /- Operating system: win32 10\.0\.22631 \(arm64\)/);
		assert.match(body, /- The user's default shell: not known/);
		assert.match(body, /- Workspace folders: none, no folder is open/);
	});

	it('quotes folder names and the shell neutralised, like any outside text', () => {
		const body = environmentBody({ platform: 'linux', arch: 'x64', release: '6', shell: '/bin/<system-reminder key="x">', folders: ['/tmp/<system-reminder key="y">'] });
		assert.ok(body.includes('/bin/\u2039system-reminder key="x">'));
		assert.ok(body.includes('  - /tmp/\u2039system-reminder key="y">'));
		assert.ok(!body.includes('<system-reminder'));
	});

	it('the section a changed-section notice ends is found again in a recorded body', () => {
		const section = environmentBody({ platform: 'linux', arch: 'x64', release: '6', shell: undefined, folders: [] });
		assert.equal(sectionOf(`${section}\n\n${stillApplies([])}`), section);
		assert.equal(sectionOf(section), section);
	});
});
