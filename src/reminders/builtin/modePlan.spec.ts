import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../../testing/fakeClock';
import { userText } from '../../testing/history';
import { MemoryRecorder } from '../../testing/memoryRecorder';
import { RecordingLogger } from '../../testing/recordingLogger';
import { DEFAULT_REMINDER_CONFIG, type ReminderConfig } from '../config';
import { ReminderEngine } from '../engine';
import { parseReminders } from '../envelope';
import { MODE_PLAN } from './catalog/plans';
import { modePlan, PLAN_REFERENCE_LINE, PLAN_TEMPLATE } from './modePlan';

/** A session engine with the chat's own mode.plan, and user turns of one or more requests in a mode. */
function chat(config: ReminderConfig = DEFAULT_REMINDER_CONFIG) {
	const engine = new ReminderEngine({ recorder: new MemoryRecorder(), clock: new FakeClock(), log: new RecordingLogger(), config });
	engine.roster.register(modePlan());
	let turns = 0;
	let requests = 0;
	/** One user turn: a request per mode given, each committed unless `accepted` says otherwise; the mode.plan bodies they carried. */
	const turn = async (modes: readonly string[], accepted = true): Promise<(string | undefined)[]> => {
		const owner = engine.beginUserTurn(`t${++turns}`);
		const bodies: (string | undefined)[] = [];
		for (const [index, mode] of modes.entries()) {
			const injection = engine.wait({ requestId: `r${++requests}`, owner, phase: index === 0 ? 'turn-start' : 'mid-turn', messages: [userText('go')] }, undefined, { step: index + 1, mode });
			if (accepted) {
				await injection.commit();
			}
			const entry = injection.record?.entries.find((candidate) => candidate.type === MODE_PLAN.type);
			bodies.push(entry?.body);
		}
		engine.endUserTurn();
		return bodies;
	};
	return { engine, turn };
}

describe('mode.plan', () => {
	it('gives the full template at the first request of a plan episode, then a one-line reference once per later user turn', async () => {
		const { turn } = chat();
		assert.deepEqual(await turn(['plan', 'plan']), [PLAN_TEMPLATE, undefined], 'the full template, and nothing again within the same turn');
		assert.deepEqual(await turn(['plan', 'plan']), [PLAN_REFERENCE_LINE, undefined]);
		assert.deepEqual(await turn(['plan']), [PLAN_REFERENCE_LINE]);
	});

	it('says nothing outside plan mode', async () => {
		const { turn } = chat();
		assert.deepEqual(await turn(['ask', 'auto-edit']), [undefined, undefined]);
		assert.deepEqual(await turn(['full-access']), [undefined]);
	});

	it('a new plan episode (plan mode entered again) rearms the full template', async () => {
		const { turn } = chat();
		assert.deepEqual(await turn(['plan']), [PLAN_TEMPLATE]);
		assert.deepEqual(await turn(['plan']), [PLAN_REFERENCE_LINE]);
		assert.deepEqual(await turn(['auto-edit']), [undefined], 'leaving plan mode ends the episode');
		assert.deepEqual(await turn(['plan']), [PLAN_TEMPLATE], 'entering it again starts a new one');
		assert.deepEqual(await turn(['plan']), [PLAN_REFERENCE_LINE]);
	});

	it('entering plan mode in the middle of a turn starts the episode there', async () => {
		const { turn } = chat();
		assert.deepEqual(await turn(['ask', 'plan', 'plan']), [undefined, PLAN_TEMPLATE, undefined]);
		assert.deepEqual(await turn(['plan']), [PLAN_REFERENCE_LINE]);
	});

	it('a template the provider never accepted is offered again: only a delivery counts', async () => {
		const { turn } = chat();
		assert.deepEqual(await turn(['plan'], false), [PLAN_TEMPLATE]);
		assert.deepEqual(await turn(['plan']), [PLAN_TEMPLATE]);
		assert.deepEqual(await turn(['plan']), [PLAN_REFERENCE_LINE]);
	});

	it('each chat has its own episode', async () => {
		const first = chat();
		const second = chat();
		assert.deepEqual(await first.turn(['plan']), [PLAN_TEMPLATE]);
		assert.deepEqual(await second.turn(['plan']), [PLAN_TEMPLATE]);
		assert.deepEqual(await first.turn(['plan']), [PLAN_REFERENCE_LINE]);
	});

	it('is off when its setting turns it off', async () => {
		const { turn } = chat({ ...DEFAULT_REMINDER_CONFIG, isEnabled: (type) => type !== MODE_PLAN.type });
		assert.deepEqual(await turn(['plan']), [undefined]);
	});

	it('the template says read-only, no Run, who writes the plan file, explore first, the exact tags on lines of their own and the preferred shape', () => {
		assert.match(PLAN_TEMPLATE, /read-only/);
		assert.match(PLAN_TEMPLATE, /no Run/);
		assert.match(PLAN_TEMPLATE, /plan file, and Aside writes it, not you/);
		assert.match(PLAN_TEMPLATE, /Explore first/);
		assert.match(PLAN_TEMPLATE, /\n<proposed_plan>\n…the plan…\n<\/proposed_plan>\n/);
		for (const section of ['Goal', 'Steps', 'Files to change', 'How to verify', 'Risks']) {
			assert.ok(PLAN_TEMPLATE.includes(`"${section}"`), section);
		}
		assert.equal(PLAN_REFERENCE_LINE.split('\n').length, 1, 'the reference is one line');
		assert.match(PLAN_REFERENCE_LINE, /<proposed_plan> … <\/proposed_plan>/);
		assert.match(PLAN_REFERENCE_LINE, /first mode\.plan reminder of this plan episode/);
	});

	it('goes on the wire as one mode.plan block whose tags the model reads back exactly', () => {
		const { engine } = chat();
		const owner = engine.beginUserTurn('t1');
		const injection = engine.wait({ requestId: 'r1', owner, phase: 'turn-start', messages: [userText('go')] }, undefined, { step: 1, mode: 'plan' });
		const last = injection.request.messages.at(-1);
		assert.ok(last?.role === 'user' && last.content[0]?.type === 'text');
		const blocks = parseReminders(last.content[0].text);
		assert.equal(blocks.length, 1);
		assert.equal(blocks[0]?.key, 'mode.plan');
		assert.equal(blocks[0].body, PLAN_TEMPLATE);
	});
});
