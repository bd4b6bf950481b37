// An observation of the test's own (the environment's shape, a fixed body, at each turn start),
// registered on a chat's roster, and how many recorded injections carried it: what the specs of
// the compaction and restore resets count.
import type { ChatSession } from '../agent/session';
import { SESSION_ENVIRONMENT } from '../reminders/builtin/catalog/session';
import { rosterDefinition } from '../reminders/declaration';
import type { InjectionRecord } from '../reminders/record';

export function registerTestObservation(session: ChatSession): () => number {
	session.reminders.roster.register({
		...rosterDefinition(SESSION_ENVIRONMENT, { scope: 'session', trigger: ({ phase }) => phase === 'turn-start', content: () => ({ body: 'OS: test' }) }),
		type: 'testEnvironment',
		observation: true,
	});
	return () => session.records.filter((record): record is InjectionRecord => record.kind === 'injected-reminders' && record.entries.some((entry) => entry.type === 'testEnvironment')).length;
}
