import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SessionObservers } from '../agent/observers';
import type { Owner } from '../reminders/definition';
import { ReminderEngine } from '../reminders/engine';
import type { RecordLike } from '../reminders/history';
import type { TurnEvent } from '../reminders/turnEvents';
import { FakeClock } from '../testing/fakeClock';
import { FakeFileEvents } from '../testing/fakeFileEvents';
import { MemoryRecorder } from '../testing/memoryRecorder';
import { MemoryWorkspaceFs } from '../testing/memoryWorkspace';
import { RecordingLogger } from '../testing/recordingLogger';
import { skill } from '../testing/skills';
import type { Skill } from './skill';
import { SkillActivations } from './skillActivations';

const ROOT_OWNER: Owner = { kind: 'root', id: 'turn-1' };
const AGENT: Owner = { kind: 'agent', id: 'a1' };

function activations(initial: readonly Skill[]) {
	let skills = initial;
	const made = new SkillActivations({ current: () => skills }, () => ['/ws']);
	return { made, set: (next: readonly Skill[]) => { skills = next; } };
}

const delivered = (event: TurnEvent | undefined): TurnEvent => {
	assert.ok(event, 'an event');
	event.commit?.();
	return event;
};

describe('skills.activated', () => {
	it('a Read of a file matching a skill\'s paths gives its body; once per owner and content, acknowledged only by the commit', () => {
		const { made, set } = activations([skill('ts', { paths: ['src/**/*.ts'], body: 'Use strict types.' }), skill('docs', { paths: ['docs/*.md'] }), skill('plain')]);
		const first = made.afterRead(ROOT_OWNER, '/ws/src/a/b.ts');
		assert.equal(first?.key, 'skills.activated');
		assert.match(first.body ?? '', /^Skill `ts` \(\.aside\/skills\/ts\/SKILL\.md\), activated because you read src\/a\/b\.ts, which its paths cover\. [^\n]*\n\nUse strict types\.$/);
		assert.deepEqual(first.subjects, [{ ref: 'ts', hashes: ['h-ts'] }]);
		assert.ok(made.afterRead(ROOT_OWNER, '/ws/src/c.ts'), 'not committed (the request failed): given again');
		delivered(made.afterRead(ROOT_OWNER, '/ws/src/c.ts'));
		assert.equal(made.afterRead(ROOT_OWNER, '/ws/src/d.ts'), undefined, 'once per content');
		assert.ok(made.afterRead(AGENT, '/ws/src/d.ts'), 'an agent invocation has its own context');
		assert.equal(made.afterRead(ROOT_OWNER, '/ws/README.md'), undefined, 'no skill covers it');
		assert.equal(made.afterRead(ROOT_OWNER, '/elsewhere/src/a.ts'), undefined, 'outside the workspace');
		set([skill('ts', { paths: ['src/**/*.ts'], body: 'Changed.', hash: 'h-ts-2' })]);
		assert.match(made.afterRead(ROOT_OWNER, '/ws/src/d.ts')?.body ?? '', /Changed\./, 'a changed skill comes again');
	});

	it('an agent\'s acknowledgements go with it; the chat\'s are restored from records (attached or activated), and a compaction that dropped them gives them again', () => {
		const { made } = activations([skill('ts', { paths: ['**/*.ts'] })]);
		delivered(made.afterRead(AGENT, '/ws/a.ts'));
		assert.equal(made.afterRead(AGENT, '/ws/a.ts'), undefined);
		made.forget(AGENT);
		assert.ok(made.afterRead(AGENT, '/ws/a.ts'), 'a new invocation');
		const records = (type: string): RecordLike[] => [{ kind: 'injected-reminders', owner: { kind: 'root', id: 't0' }, entries: [{ type, subjects: [{ ref: 'ts', hashes: ['h-ts'] }] }] } as never];
		made.restore(records('skillsActivated'));
		assert.equal(made.afterRead(ROOT_OWNER, '/ws/a.ts'), undefined, 'the reopened chat holds it');
		made.restore(records('skillAttachment'));
		assert.equal(made.afterRead(ROOT_OWNER, '/ws/a.ts'), undefined, 'attached by $name counts');
		made.restore([]);
		assert.ok(made.afterRead(ROOT_OWNER, '/ws/a.ts'), 'after a compaction dropped it');
		made.given(ROOT_OWNER, skill('ts', { paths: ['**/*.ts'] }));
		assert.equal(made.afterRead(ROOT_OWNER, '/ws/a.ts'), undefined, 'attached by $name in this chat, on dispatch');
	});

	it('the session\'s observers queue it after a successful Read, and compaction resets it', async () => {
		const queued: TurnEvent[] = [];
		class Engine extends ReminderEngine {
			override queueTurnEvent(owner: Owner, event: TurnEvent): boolean {
				queued.push(event);
				return super.queueTurnEvent(owner, event);
			}
		}
		const log = new RecordingLogger();
		const engine = new Engine({ recorder: new MemoryRecorder(), clock: new FakeClock(), log });
		const owner = engine.beginUserTurn('turn-1');
		const fs = new MemoryWorkspaceFs(new Map([['/ws/src/a.ts', 'x']]));
		const observers = new SessionObservers(engine, fs, new FakeFileEvents(), () => ['/ws'], {}, log, undefined, { current: () => [skill('ts', { paths: ['src/*.ts'] })] });
		const signal = new AbortController().signal;
		const read = { content: 'x', touched: [{ path: '/ws/src/a.ts', access: 'read' as const, text: 'x' }] };
		await observers.afterTool({ name: 'Read' }, { ...read, isError: true }, owner, signal);
		assert.equal(queued.length, 0, 'a failed Read activates nothing');
		await observers.afterTool({ name: 'Read' }, read, owner, signal);
		assert.deepEqual(queued.map((event) => event.key), ['skills.activated']);
		delivered(queued[0]);
		await observers.afterTool({ name: 'Read' }, read, owner, signal);
		assert.equal(queued.length, 1, 'once');
		await observers.compacted(owner, [], []);
		await observers.afterTool({ name: 'Read' }, read, owner, signal);
		assert.equal(queued.length, 2, 'the compacted history no longer holds it');
		observers.dispose();
	});
});
