import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SESSION_ENVIRONMENT } from '../../reminders/builtin/catalog/session';
import { DEFAULT_REMINDER_CONFIG } from '../../reminders/config';
import { rosterDefinition } from '../../reminders/declaration';
import type { CollectedEntry } from '../../reminders/definition';
import type { InjectionRecord } from '../../reminders/record';
import { ScriptedProvider } from '../../testing/scriptedProvider';
import { turnHarness } from '../../testing/turnHarness';
import type { AgentRecord } from '../../transcript/records';
import { selectedRecords } from '../../transcript/replay';
import { afterCompaction } from './afterCompaction';

const observation = (type: string, body: string) => ({
	...rosterDefinition(SESSION_ENVIRONMENT, { scope: 'session', trigger: () => true, content: () => ({ body }) }),
	type,
	observation: true as const,
});
const injection = (type: string, body: string): InjectionRecord => ({
	kind: 'injected-reminders',
	v: 1,
	phase: 'turn-start',
	owner: { kind: 'root', id: 't1' },
	requestId: `r-${type}`,
	at: 1,
	turn: 1,
	entries: [{ type, key: SESSION_ENVIRONMENT.key, label: 'environment', body, reason: 'first delivery' }],
});

describe('after a compaction', () => {
	it('an observation the summarized part delivered is delivered again; one the kept tail holds is not', async () => {
		const { session, ports } = turnHarness(new ScriptedProvider());
		const roster = session.reminders.roster;
		roster.register(observation('before', 'OS: A'));
		roster.register(observation('inTail', 'Shell: B'));
		const records: AgentRecord[] = [
			{ kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'Hi' },
			injection('before', 'OS: A'),
			{ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'r1', at: 2, text: '', toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'a.ts' } }], stop: 'tool-use' },
			{ kind: 'tool-result', id: 'res1', turnId: 't1', callId: 'c1', name: 'Read', at: 3, content: 'x', isError: false },
			injection('inTail', 'Shell: B'),
			{ kind: 'assistant', id: 'a2', turnId: 't1', requestId: 'r2', at: 4, text: 'Done.', toolCalls: [], stop: 'end' },
			{ kind: 'turn-end', turnId: 't1', at: 5, outcome: 'done' },
		];
		for (const record of records) {
			session.append(record);
		}
		// Both were delivered, unchanged: neither fires.
		const due = (): string[] => {
			roster.advanceTurn();
			const out: CollectedEntry[] = [];
			roster.collect({ kind: 'root', id: 't2' }, 'turn-start', {}, DEFAULT_REMINDER_CONFIG, out, (type, error) => {
				throw new Error(`${type}: ${String(error)}`);
			});
			return out.map((entry) => entry.type);
		};
		roster.reconcileObservations([injection('before', 'OS: A'), injection('inTail', 'Shell: B')]);
		assert.deepEqual(due(), []);
		session.append({ kind: 'compaction', id: 'k1', at: 6, cause: 'manual', keepFrom: 'a1', summary: 'S', tokensBefore: 10, tokensAfter: 5 });
		const tail = selectedRecords(session.records).records;
		await afterCompaction(
			ports,
			{ transcript: session, engine: session.reminders, roster },
			{ summarized: records.slice(0, 2), tail },
			new AbortController().signal,
		);
		assert.deepEqual(due(), ['before']);
	});
});
