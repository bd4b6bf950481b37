import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_REMINDER_CONFIG, type ReminderConfig } from './config';
import type { CollectedEntry, FiringContext, Owner, ReminderDefinition } from './definition';
import { BUILTIN_KEYS } from './keys';
import { everyTurn, type FiringPolicy, interval, onChange, oneShot } from './policy';
import { ReminderRoster } from './roster';

const KEYS = BUILTIN_KEYS.with(['test.a', 'test.b', 'test.c'].map((key) => ({ key, label: key, purpose: 'test', introducedIn: '0.1.0' })));
const ROOT: Owner = { kind: 'root', id: 'turn-1' };

function definition(type: string, policy: FiringPolicy, body: (context: FiringContext) => string | null = () => `${type} body`, scope: ReminderDefinition['scope'] = 'session'): ReminderDefinition {
	return { type, key: 'test.a', label: type, scope, policy, trigger: () => true, content: (context) => ({ body: body(context) }) };
}

/** Collects, and commits everything collected when `deliver` (what a dispatched request does). */
function wait(roster: ReminderRoster, { deliver = true, config = DEFAULT_REMINDER_CONFIG, facts = {} } = {}): CollectedEntry[] {
	const out: CollectedEntry[] = [];
	roster.collect(ROOT, 'turn-start', facts, config, out, (type, error) => {
		throw new Error(`${type}: ${String(error)}`);
	});
	if (deliver) {
		for (const entry of out) {
			entry.commit?.();
		}
	}
	return out;
}

const types = (entries: readonly CollectedEntry[]): string[] => entries.map((entry) => entry.type);

describe('reminder roster', () => {
	it('installs defaults idempotently and keeps the firing state of those already there', () => {
		const roster = new ReminderRoster('session', KEYS);
		const once = definition('once', oneShot);
		roster.installDefaults([once, definition('agentOnly', everyTurn, undefined, 'agent')]);
		assert.deepEqual(roster.types(), ['once'], 'agent-scope definitions stay out of the session roster');
		roster.advanceTurn();
		assert.deepEqual(types(wait(roster)), ['once']);
		roster.installDefaults([once, definition('once', everyTurn)]);
		assert.deepEqual(roster.types(), ['once']);
		roster.advanceTurn();
		assert.deepEqual(types(wait(roster)), [], 'installing again did not re-arm it');
	});

	it('refuses a duplicate type, an unregistered key and a scope mismatch', () => {
		const roster = new ReminderRoster('session', KEYS);
		roster.register(definition('a', everyTurn));
		assert.throws(() => { roster.register(definition('a', everyTurn)); }, /already registered/);
		assert.throws(() => { roster.register({ ...definition('b', everyTurn), key: 'nobody.registered' }); }, /not registered/);
		assert.throws(() => { roster.register(definition('c', everyTurn, undefined, 'agent')); }, /cannot join the session roster/);
	});

	it('counts intervals across turns: delivered at turn 1, 4, 7 with interval 3', () => {
		const roster = new ReminderRoster('session', KEYS);
		roster.register(definition('sparse', interval(3)));
		const firedAt: number[] = [];
		for (let turn = 1; turn <= 8; turn++) {
			roster.advanceTurn();
			if (wait(roster).length) {
				firedAt.push(turn);
			}
			assert.equal(wait(roster).length, 0, `never twice in turn ${turn}`);
		}
		assert.deepEqual(firedAt, [1, 4, 7]);
	});

	it('an interval counts from the last delivery, not the last evaluation', () => {
		const roster = new ReminderRoster('session', KEYS);
		roster.register(definition('sparse', interval(3)));
		roster.advanceTurn();
		assert.equal(wait(roster, { deliver: false }).length, 1, 'turn 1: the request failed');
		roster.advanceTurn();
		assert.equal(wait(roster).length, 1, 'turn 2: still due, delivered now');
		roster.advanceTurn();
		roster.advanceTurn();
		assert.equal(wait(roster).length, 0, 'turn 4: two turns after the delivery');
		roster.advanceTurn();
		assert.equal(wait(roster).length, 1, 'turn 5: three turns after it');
	});

	it('the configured interval overrides the definition and is read at each WAIT', () => {
		const roster = new ReminderRoster('session', KEYS);
		roster.register(definition('sparse', interval(10)));
		let override: number | undefined = 2;
		const config: ReminderConfig = { isEnabled: () => true, intervalOf: (type) => (type === 'sparse' ? override : undefined) };
		const firedAt: number[] = [];
		for (let turn = 1; turn <= 16; turn++) {
			if (turn === 6) {
				override = undefined;
			}
			roster.advanceTurn();
			if (wait(roster, { config }).length) {
				firedAt.push(turn);
			}
		}
		assert.deepEqual(firedAt, [1, 3, 5, 15], "back to 10 turns after the last delivery once the override is gone");
	});

	it('a delivery\'s label is its content\'s when it gives one (the server it is about), the definition\'s otherwise', () => {
		const roster = new ReminderRoster('session', KEYS);
		let label: string | undefined = 'MCP tools changed: everything';
		roster.installDefaults([{ ...definition('labelled', everyTurn), content: () => ({ body: 'changed', ...(label === undefined ? {} : { label }) }) }]);
		roster.advanceTurn();
		assert.equal(wait(roster)[0]?.label, 'MCP tools changed: everything');
		label = undefined;
		roster.advanceTurn();
		assert.equal(wait(roster)[0]?.label, 'labelled');
	});

	it('a one-shot fires once, and again only after an explicit re-arm, with the reason', () => {
		const roster = new ReminderRoster('session', KEYS);
		roster.register(definition('plan', oneShot));
		roster.advanceTurn();
		assert.equal(wait(roster)[0]?.reason, 'one-shot, first delivery');
		for (let i = 0; i < 3; i++) {
			roster.advanceTurn();
			assert.equal(wait(roster).length, 0);
		}
		roster.rearm('plan', 'context was compacted');
		assert.equal(wait(roster, { deliver: false })[0]?.reason, 're-armed: context was compacted', 'fires in the same turn once re-armed');
		roster.advanceTurn();
		assert.equal(wait(roster)[0]?.reason, 're-armed: context was compacted', 'an undelivered re-arm stays armed');
		roster.advanceTurn();
		assert.equal(wait(roster).length, 0);
		assert.throws(() => { roster.rearm('nothing', 'x'); }, /No reminder of type "nothing"/);
	});

	it('on-change fires once per change of its content', () => {
		const roster = new ReminderRoster('session', KEYS);
		let date = '2026-11-30';
		roster.register(definition('date', onChange, () => `Today is ${date}.`));
		const delivered: string[] = [];
		for (const next of ['2026-11-30', '2026-11-30', '2026-12-01', '2026-12-01', '2026-12-01', '2026-11-30']) {
			date = next;
			roster.advanceTurn();
			for (const entry of wait(roster)) {
				delivered.push(entry.body ?? '');
			}
		}
		assert.deepEqual(delivered, ['Today is 2026-11-30.', 'Today is 2026-12-01.', 'Today is 2026-11-30.']);
	});

	it('on-change redelivers a change whose first request failed', () => {
		const roster = new ReminderRoster('session', KEYS);
		let value = 'a';
		roster.register(definition('state', onChange, () => value));
		roster.advanceTurn();
		wait(roster);
		value = 'b';
		assert.equal(wait(roster, { deliver: false })[0]?.body, 'b');
		assert.equal(wait(roster)[0]?.body, 'b');
		assert.equal(wait(roster).length, 0);
	});

	it('a silent commit marks the reminder fired without delivering a body', () => {
		const roster = new ReminderRoster('session', KEYS);
		let extraCommits = 0;
		roster.register({
			...definition('ack', oneShot),
			content: () => ({ body: null, commit: () => extraCommits++ }),
		});
		roster.advanceTurn();
		const [entry] = wait(roster);
		assert.equal(entry?.body, null);
		assert.equal(extraCommits, 1, 'the content\'s own commit ran with the firing mark');
		roster.advanceTurn();
		assert.equal(wait(roster).length, 0, 'the one-shot counts as fired');
	});

	it('a content commit does not run before delivery', () => {
		const roster = new ReminderRoster('session', KEYS);
		let committed = 0;
		roster.register({ ...definition('x', everyTurn), content: () => ({ body: 'x', commit: () => committed++ }) });
		roster.advanceTurn();
		wait(roster, { deliver: false });
		assert.equal(committed, 0);
		wait(roster);
		assert.equal(committed, 1);
	});

	it('a disabled type is not evaluated at all', () => {
		const roster = new ReminderRoster('session', KEYS);
		let evaluated = 0;
		roster.register({ ...definition('off', everyTurn), trigger: () => ++evaluated > 0 });
		roster.advanceTurn();
		const config: ReminderConfig = { isEnabled: (type) => type !== 'off', intervalOf: () => undefined };
		assert.equal(wait(roster, { config }).length, 0);
		assert.equal(evaluated, 0);
	});

	it('triggers read the current facts, and a trigger that throws is skipped and reported', () => {
		const roster = new ReminderRoster('session', KEYS);
		roster.register({ ...definition('last', everyTurn), trigger: ({ facts }) => facts.step === facts.stepLimit });
		roster.register({ ...definition('broken', everyTurn), trigger: () => { throw new Error('boom'); } });
		roster.advanceTurn();
		const errors: string[] = [];
		const out: CollectedEntry[] = [];
		roster.collect(ROOT, 'mid-turn', { step: 2, stepLimit: 3 }, DEFAULT_REMINDER_CONFIG, out, (type, error) => errors.push(`${type}: ${(error as Error).message}`));
		assert.deepEqual(types(out), []);
		roster.collect(ROOT, 'mid-turn', { step: 3, stepLimit: 3 }, DEFAULT_REMINDER_CONFIG, out, () => undefined);
		assert.deepEqual(types(out), ['last']);
		assert.deepEqual(errors, ['broken: boom']);
	});

	it('an agent roster is cloned at spawn and isolated from the root\'s', () => {
		const root = new ReminderRoster('session', KEYS);
		root.register(definition('both', oneShot, undefined, 'all'));
		root.register(definition('rootOnly', oneShot));
		root.advanceTurn();
		assert.deepEqual(types(wait(root)), ['both', 'rootOnly']);

		const agent = root.spawnAgentRoster();
		assert.deepEqual(agent.types(), ['both'], 'only agent-scope definitions, with fresh state');
		assert.equal(agent.turn, 0, 'its own turn counting');
		agent.advanceTurn();
		assert.deepEqual(types(wait(agent)), ['both'], 'the root\'s delivery does not count for the agent');
		agent.register(definition('agentExtra', everyTurn, undefined, 'agent'));
		root.register(definition('later', everyTurn, undefined, 'all'));
		assert.deepEqual(agent.types(), ['both', 'agentExtra']);
		assert.deepEqual(root.types(), ['both', 'rootOnly', 'later']);
		root.rearm('both', 'test');
		assert.equal(wait(agent).length, 1, 'agentExtra only: re-arming the root left the agent\'s one-shot fired');
		assert.equal(root.turn, 1);
		assert.equal(agent.turn, 1);
	});
});
