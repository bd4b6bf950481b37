import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentItem, HostMessage, TranscriptItem } from '../protocol/messages';
import { PROTOCOL_VERSION } from '../protocol/messages';
import type { AgentRecord } from '../transcript/records';
import { expectMessage } from '../testing/expectMessage';
import { testSessions } from '../testing/sessions';
import { testConnection } from '../testing/viewConnection';
import { itemsOf } from './rows';
import { displayRows } from './rowOrder';
import { SessionProjection } from './sessionView';

const entry = { type: 'sessionDate', key: 'session.date', label: 'date', body: 'Today.', reason: 'a new day' };
const T = 't1';

/** A chat's records, written as the runtime writes them (the runtime slice's contract). */
const r = {
	user: (id: string, text: string, agent?: string): AgentRecord => ({ kind: 'user', id, turnId: T, at: 1, text, ...(agent ? { agent } : {}) }),
	callAgent: (id: string, callIds: string[], agent?: string): AgentRecord => ({
		kind: 'assistant',
		id,
		turnId: T,
		requestId: `q-${id}`,
		at: 2,
		text: '',
		toolCalls: callIds.map((callId) => ({ id: callId, name: 'Agent', input: { agent: 'explore', prompt: 'look', description: 'Look around' } })),
		stop: 'tool-use',
		...(agent ? { agent } : {}),
	}),
	start: (path: string, callId: string, description: string, parent?: string): AgentRecord => ({
		kind: 'agent-start',
		id: path,
		at: 3,
		turnId: T,
		callId,
		profile: path.split('/').at(-1)?.split('#')[0] ?? 'explore',
		description,
		...(parent ? { agent: parent } : {}),
	}),
	reminders: (requestId: string, owner: string | undefined, phase: 'turn-start' | 'mid-turn' = 'turn-start'): AgentRecord => ({
		kind: 'injected-reminders',
		v: 1,
		phase,
		owner: owner === undefined ? { kind: 'root', id: T } : { kind: 'agent', id: owner },
		requestId,
		at: 4,
		turn: 1,
		entries: [entry],
	}),
	read: (id: string, agent?: string): AgentRecord => ({ kind: 'assistant', id, turnId: T, requestId: `q-${id}`, at: 5, text: '', toolCalls: [{ id: `c-${id}`, name: 'Read', input: { path: 'a.ts' } }], stop: 'tool-use', ...(agent ? { agent } : {}) }),
	readResult: (id: string, agent?: string): AgentRecord => ({ kind: 'tool-result', id: `r-${id}`, turnId: T, callId: `c-${id}`, name: 'Read', at: 6, content: '1\tx', isError: false, ...(agent ? { agent } : {}) }),
	answer: (id: string, text: string, agent?: string): AgentRecord => ({ kind: 'assistant', id, turnId: T, requestId: `q-${id}`, at: 7, text, toolCalls: [], stop: 'end', ...(agent ? { agent } : {}) }),
	end: (outcome: 'done' | 'failed' | 'interrupted' | 'step-limit', agent?: string): AgentRecord => ({ kind: 'turn-end', turnId: T, at: 8, outcome, ...(agent ? { agent } : {}) }),
	result: (id: string, callId: string, content: string, isError = false, agent?: string): AgentRecord => ({ kind: 'tool-result', id, turnId: T, callId, name: 'Agent', at: 9, content, isError, ...(agent ? { agent } : {}) }),
};

const A = 'root/explore#1';
const B = 'root/explore#2';
const N = 'root/general#1/explore#3';

/** Two children of one answer, running at once: their records interleave. */
const interleaved: AgentRecord[] = [
	r.user('u1', 'Survey the repo'),
	r.reminders('q0', undefined),
	r.callAgent('a0', ['cA', 'cB']),
	r.start(A, 'cA', 'Look at src'),
	r.start(B, 'cB', 'Look at test'),
	r.user('uA', 'look at src', A),
	r.user('uB', 'look at test', B),
	r.reminders('qA1', A),
	r.reminders('qB1', B),
	r.read('aA1', A),
	r.read('aB1', B),
	r.readResult('aA1', A),
	r.reminders('qA2', A, 'mid-turn'),
	r.readResult('aB1', B),
	r.answer('aB2', 'test/ has 3 files', B),
	r.end('done', B),
	r.answer('aA2', 'src/ has 9 files', A),
	r.end('done', A),
	r.result('rB', 'cB', 'test/ has 3 files'),
	r.result('rA', 'cA', 'src/ has 9 files'),
	r.answer('a1', 'Both looked.'),
	r.end('done'),
];

const ids = (rows: readonly TranscriptItem[]): string[] => rows.map((row) => row.id);
const header = (rows: readonly TranscriptItem[], path: string): AgentItem | undefined => rows.find((row): row is AgentItem => row.kind === 'agent' && row.path === path);

/** Appends records to a fresh session watched by a projection, returning what the projection announced. */
function project(records: readonly AgentRecord[]) {
	const session = testSessions().current;
	const projection = new SessionProjection(session);
	const placed: string[] = [];
	const updated: AgentItem[] = [];
	projection.onDidPlace(({ rows, before }) => placed.push(`${ids(rows).join()}${before === undefined ? '' : ` before ${before}`}`));
	projection.onDidUpdate((rows) => updated.push(...rows.filter((row): row is AgentItem => row.kind === 'agent')));
	for (const record of records) {
		session.append(record);
	}
	return { session, projection, placed, updated };
}

describe('child agents in the rows the view is sent', () => {
	it('puts each child\'s rows together after its header, where the parent called it, however their records interleave', () => {
		const { projection, placed } = project(interleaved);
		assert.deepEqual(ids(projection.rows), [
			'reminders-q0',
			'u1',
			`agent-${A}`,
			'reminders-qA1',
			'uA',
			'r-aA1',
			'reminders-qA2',
			'aA2',
			`agent-${B}`,
			'reminders-qB1',
			'uB',
			'r-aB1',
			'aB2',
			'a1',
		]);
		// The deltas: a row of the first child goes before the second child's header, not at the end.
		assert.deepEqual(placed.slice(0, 8), ['u1', 'reminders-q0 before u1', `agent-${A}`, `agent-${B}`, `uA before agent-${B}`, 'uB', `reminders-qA1 before uA`, 'reminders-qB1 before uB']);
		assert.ok(placed.includes(`r-aA1 before agent-${B}`));
		assert.ok(placed.includes('a1'), 'the parent\'s next answer goes at the end');
		for (const row of projection.rows.slice(3, 8)) {
			assert.equal(row.kind === 'plan-decision' || row.kind === 'fork' ? undefined : row.agent, A, `${row.id} is the first child's`);
		}
		assert.equal(projection.rows.some((row) => row.kind === 'tool' && row.name === 'Agent'), false, "the parent's Agent results are no tool rows");
	});

	it('keeps each header current: its steps, its status from its turn-end, and what the parent got back', () => {
		const { projection, updated } = project(interleaved);
		assert.deepEqual(header(projection.rows, A), { kind: 'agent', id: `agent-${A}`, at: 3, path: A, profile: 'explore', description: 'Look at src', steps: 2, status: 'done', result: 'src/ has 9 files', isError: false });
		assert.equal(header(projection.rows, B)?.steps, 2);
		assert.deepEqual(
			updated.filter((row) => row.path === A).map((row) => `${row.steps} ${row.status}${row.result === undefined ? '' : ' result'}`),
			['1 running', '2 running', '2 done', '2 done result'],
			'each change of a header is sent as it happens',
		);
		const failed = project([r.user('u1', 'go'), r.callAgent('a0', ['cA']), r.start(A, 'cA', 'x'), r.user('uA', 'p', A), r.end('step-limit', A), r.result('rA', 'cA', 'Stopped at the step limit.', true)]);
		assert.deepEqual([header(failed.projection.rows, A)?.status, header(failed.projection.rows, A)?.isError], ['step-limit', true]);
		// A child that never recorded its end takes its status from the answer; a root turn that ends cuts off one still running.
		const broke = project([r.user('u1', 'go'), r.callAgent('a0', ['cA', 'cB']), r.start(A, 'cA', 'x'), r.start(B, 'cB', 'y'), r.result('rA', 'cA', 'The child failed.', true), r.end('interrupted')]);
		assert.deepEqual([header(broke.projection.rows, A)?.status, header(broke.projection.rows, B)?.status], ['failed', 'interrupted']);
		assert.deepEqual(header(broke.projection.items, B)?.status, 'interrupted', 'the items hold the header as it is now');
	});

	it('nests a child\'s child inside its block, two deep, and ends each block where it ends', () => {
		const G = 'root/general#1';
		const records: AgentRecord[] = [
			r.user('u1', 'go'),
			r.callAgent('a0', ['cG']),
			r.start(G, 'cG', 'General work'),
			r.user('uG', 'work', G),
			r.reminders('qG1', G),
			r.callAgent('aG1', ['cN'], G),
			r.start(N, 'cN', 'Nested look', G),
			r.user('uN', 'look', N),
			r.reminders('qN1', N),
			r.answer('aN1', 'nested answer', N),
			r.end('done', N),
			r.result('rN', 'cN', 'nested answer', false, G),
			r.answer('aG2', 'general answer', G),
			r.end('done', G),
			r.result('rG', 'cG', 'general answer'),
			r.answer('a1', 'All done.'),
		];
		const { projection, placed } = project(records);
		assert.deepEqual(ids(projection.rows), ['u1', `agent-${G}`, 'reminders-qG1', 'uG', `agent-${N}`, 'reminders-qN1', 'uN', 'aN1', 'aG2', 'a1']);
		const nested = header(projection.rows, N);
		assert.deepEqual([nested?.agent, nested?.steps, nested?.status, nested?.result], [G, 1, 'done', 'nested answer']);
		assert.equal(header(projection.rows, G)?.steps, 2, "the parent's samples are its own steps, not its child's");
		assert.ok(placed.includes('aN1'), 'the last block in the chat appends at the end');
		assert.equal(projection.rows.some((row) => row.kind === 'tool'), false);
	});

	it('a child\'s turn-start reminders go above its prompt, its mid-turn ones where delivered', () => {
		const { projection } = project(interleaved);
		const rows = ids(projection.rows);
		assert.ok(rows.indexOf('reminders-qA1') === rows.indexOf('uA') - 1);
		assert.ok(rows.indexOf('reminders-qA2') === rows.indexOf('r-aA1') + 1);
		const reminders = projection.rows.find((row) => row.id === 'reminders-qA1');
		assert.equal(reminders?.kind === 'reminders' ? reminders.agent : undefined, A, 'its injection record names the child as owner');
	});

	it('a snapshot after the deltas lists the rows the deltas built, in the same order', () => {
		const { session, projection } = project(interleaved);
		// The rows as a webview applying the deltas has them.
		const applied: TranscriptItem[] = [];
		const fresh = new SessionProjection(testSessions().current);
		fresh.onDidPlace(({ rows, before }) => {
			const at = before === undefined ? applied.length : applied.findIndex((row) => row.id === before);
			assert.notEqual(at, -1, `a row before ${before ?? ''} that is shown`);
			applied.splice(at, 0, ...rows);
		});
		fresh.onDidUpdate((rows) => {
			for (const row of rows) {
				applied[applied.findIndex((shown) => shown.id === row.id)] = row;
			}
		});
		for (const record of session.allRecords) {
			fresh.session.append(record);
		}
		assert.deepEqual(applied, [...projection.rows]);
		assert.deepEqual(new SessionProjection(session).rows, projection.rows, 'a reopened chat shows the same');
		assert.deepEqual(displayRows(itemsOf(session.allRecords)), [...projection.rows], "displayRows over the items (the webview tests' view) agrees");
	});

	it('an Agent call that never started a child (refused, unknown profile) stays a tool row; a row without its header is kept at the root', () => {
		const { projection } = project([r.user('u1', 'go'), r.callAgent('a0', ['cX']), r.result('rX', 'cX', 'No agent profile "nope".', true), r.user('uZ', 'orphan', 'root/ghost#9')]);
		assert.deepEqual(ids(projection.rows), ['u1', 'rX', 'uZ']);
	});
});

describe('ViewConnection: child agents', () => {
	it('sends a header\'s changes as items.updated, and a snapshot carries the running children\'s streams', () => {
		const t = testConnection();
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		const session = t.sessions.current;
		for (const record of interleaved.slice(0, 10)) {
			session.append(record);
		}
		const updates = t.posted.filter((m): m is Extract<HostMessage, { type: 'items.updated' }> => m.type === 'items.updated');
		assert.deepEqual(updates.map((m) => m.items.map((item) => (item.kind === 'agent' ? `${item.path} ${item.steps}` : item.id))), [[`${A} 1`]]);
		assert.equal(updates[0]?.sessionId, session.id);
		t.agent.state = { ...t.agent.state, children: [{ path: A, detail: 'Answering…', streaming: { requestId: 'qA3' } }] };
		t.agent.childStreamTexts = [{ requestId: 'qA3', text: 'src/ has' }];
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'resync' });
		const { state } = expectMessage(t.posted.at(-1), 'snapshot');
		assert.deepEqual(state.childStreams, [{ requestId: 'qA3', text: 'src/ has' }]);
		assert.deepEqual(state.agent.children, [{ path: A, detail: 'Answering…', streaming: { requestId: 'qA3' } }]);
		t.agent.state = { ...t.agent.state, children: [] };
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'resync' });
		assert.equal('childStreams' in expectMessage(t.posted.at(-1), 'snapshot').state, false, 'no children, no streams');
	});
});

describe("a child's rows beside the root's", () => {
	it("a call id the child's model reused from the root's shows the child's own input; a child's answer proposes no plan", () => {
		const rootRead: AgentRecord = { kind: 'assistant', id: 'ra', turnId: T, requestId: 'q-ra', at: 1, text: '', toolCalls: [{ id: 'call_1', name: 'Read', input: { path: 'root.ts' } }], stop: 'tool-use' };
		const childRead: AgentRecord = { kind: 'assistant', id: 'ca', turnId: T, requestId: 'q-ca', at: 5, text: '', toolCalls: [{ id: 'call_1', name: 'Read', input: { path: 'child.ts' } }], stop: 'tool-use', agent: A };
		const records: AgentRecord[] = [
			r.user('u', 'go'),
			rootRead,
			{ kind: 'tool-result', id: 'rr', turnId: T, callId: 'call_1', name: 'Read', at: 2, content: 'root', isError: false },
			r.callAgent('a1', ['k1']),
			r.start(A, 'k1', 'Look'),
			r.user('cu', 'look', A),
			childRead,
			{ kind: 'tool-result', id: 'cr', turnId: T, callId: 'call_1', name: 'Read', at: 6, content: 'child', isError: false, agent: A },
			r.answer('cx', 'Done.\n<proposed_plan>\n1. Nothing.\n</proposed_plan>', A),
		];
		const items = itemsOf(records);
		const tools = items.filter((item): item is Extract<TranscriptItem, { kind: 'tool' }> => item.kind === 'tool');
		assert.deepEqual(tools.map((tool) => [tool.agent, JSON.parse(tool.input) as unknown]), [
			[undefined, { path: 'root.ts' }],
			[A, { path: 'child.ts' }],
		]);
		const answer = items.find((item) => item.kind === 'assistant' && item.id === 'cx');
		assert.equal(answer?.kind === 'assistant' ? answer.proposal : 'missing', undefined, 'the plan card is the root\'s alone');
	});
});
