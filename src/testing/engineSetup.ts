// The reminder engine's specs' shared set-up: an engine over test keys, requests for an owner,
// and small builders for roster reminders and turn events.
import type { ChatMessage } from '../providers/messages';
import type { ReminderConfig } from '../reminders/config';
import type { Owner, Phase, ReminderDefinition } from '../reminders/definition';
import { ReminderEngine } from '../reminders/engine';
import type { Injection, PreparedRequest } from '../reminders/injector';
import { BUILTIN_KEYS } from '../reminders/keys';
import { oneShot } from '../reminders/policy';
import type { TurnEvent } from '../reminders/turnEvents';
import { FakeClock } from './fakeClock';
import { assistantCalls, toolResult, userText } from './history';
import { MemoryRecorder } from './memoryRecorder';
import { RecordingLogger } from './recordingLogger';

export const TEST_KEYS = ['test.mention', 'test.skill', 'test.roster', 'test.fifo', 'test.observed', 'test.compaction', 'test.steering', 'test.other'];
export const KEYS = BUILTIN_KEYS.with(TEST_KEYS.map((key) => ({ key, label: key.slice(5), purpose: 'test', introducedIn: '0.1.0' })));

export function setup({ defaults = [] as ReminderDefinition[], config = undefined as ReminderConfig | undefined } = {}) {
	const recorder = new MemoryRecorder();
	const log = new RecordingLogger();
	const engine = new ReminderEngine({ recorder, clock: new FakeClock(), log, keys: KEYS, defaults, config });
	let n = 0;
	const request = (owner: Owner, phase: Phase, messages: ChatMessage[] = phase === 'turn-start' ? [userText('hi')] : [userText('hi'), assistantCalls('c1'), toolResult('c1')]): PreparedRequest => ({
		requestId: `req-${++n}`,
		owner,
		phase,
		messages,
	});
	return { engine, recorder, log, request };
}

export const rosterReminder = (type: string, policy = oneShot, key = 'test.roster'): ReminderDefinition => ({
	type,
	key,
	label: type,
	scope: 'all',
	policy,
	trigger: () => true,
	content: () => `${type} says hello`,
});

export const observed = (body: string, key = 'test.observed'): TurnEvent => ({ type: 'observed', key, body });
export const keysOf = (injection: Injection<PreparedRequest>): string[] => injection.record?.entries.map((entry) => entry.key) ?? [];
export const bodiesOf = (injection: Injection<PreparedRequest>): string[] => injection.record?.entries.map((entry) => entry.body) ?? [];
