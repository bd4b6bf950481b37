// The header rows of child agent invocations (the Agent tool): one per agent-start record, kept
// current as the child's own records arrive (its steps, then its outcome) and replaced by the
// parent's tool result for the Agent call (what the parent got back). Pure and incremental: each
// record costs a map lookup, however long the chat.
import { conversationOf } from '../agent/session';
import type { AgentItem, AgentRunStatus } from '../protocol/messages';
import type { AgentRecord, AgentStartRecord, TurnEndRecord } from '../transcript/records';

/** The id of the header row of the child `path`. */
export function agentRowId(path: string): string {
	return `agent-${path}`;
}

const OUTCOME_STATUS: Record<TurnEndRecord['outcome'], AgentRunStatus> = { done: 'done', failed: 'failed', interrupted: 'interrupted', 'step-limit': 'step-limit' };

/** The parent's conversation and one of its call ids: call ids are the model's, unique only within one conversation. */
const callKey = (conversation: string | undefined, callId: string): string => `${conversation ?? ''}\u0000${callId}`;

export class AgentHeaders {
	private readonly headers = new Map<string, AgentItem>();
	/** The Agent calls whose result is still to come, to the child each started. */
	private readonly calls = new Map<string, string>();
	/** The running children of each root turn: a root turn that ends leaves none running. */
	private readonly running = new Map<string, Set<string>>();
	private readonly turnOf = new Map<string, string>();

	/** The header row of a child that starts now. */
	start(record: AgentStartRecord): AgentItem {
		const header: AgentItem = {
			kind: 'agent',
			id: agentRowId(record.id),
			at: record.at,
			path: record.id,
			profile: record.profile,
			description: record.description,
			steps: 0,
			status: 'running',
			...(record.agent === undefined ? {} : { agent: record.agent }),
		};
		this.headers.set(record.id, header);
		this.calls.set(callKey(record.agent, record.callId), record.id);
		this.turnOf.set(record.id, record.turnId);
		let running = this.running.get(record.turnId);
		if (!running) {
			running = new Set();
			this.running.set(record.turnId, running);
		}
		running.add(record.id);
		return header;
	}

	/** The headers this record changes, as they are now (none for most records). */
	take(record: AgentRecord, cutResult: (text: string) => string): AgentItem[] {
		switch (record.kind) {
			case 'assistant': {
				const path = record.agent;
				const header = path === undefined ? undefined : this.headers.get(path);
				return header && path !== undefined ? [this.set(path, { ...header, steps: header.steps + 1 })] : [];
			}
			case 'turn-end':
				return record.agent === undefined ? this.rootTurnEnded(record.turnId) : this.settled(record.agent, OUTCOME_STATUS[record.outcome]);
			case 'tool-result': {
				const key = callKey(conversationOf(record), record.callId);
				const path = this.calls.get(key);
				const header = path === undefined ? undefined : this.headers.get(path);
				if (!header || path === undefined) {
					return [];
				}
				this.calls.delete(key);
				this.stopped(path);
				// A child whose end was never recorded (it broke before its turn-end) ends with its answer.
				const status = header.status === 'running' ? (record.isError ? 'failed' : 'done') : header.status;
				return [this.set(path, { ...header, status, result: cutResult(record.content ?? ''), isError: record.isError })];
			}
			default:
				return [];
		}
	}

	private settled(path: string, status: AgentRunStatus): AgentItem[] {
		const header = this.headers.get(path);
		if (!header) {
			return [];
		}
		this.stopped(path);
		return header.status === status ? [] : [this.set(path, { ...header, status })];
	}

	/** The root turn ended: a child still running in it was cut off (a window that closed, a crash). */
	private rootTurnEnded(turnId: string): AgentItem[] {
		const running = this.running.get(turnId);
		this.running.delete(turnId);
		const changed: AgentItem[] = [];
		for (const path of running ?? []) {
			const header = this.headers.get(path);
			if (header?.status === 'running') {
				changed.push(this.set(path, { ...header, status: 'interrupted' }));
			}
		}
		return changed;
	}

	private stopped(path: string): void {
		const turn = this.turnOf.get(path);
		if (turn !== undefined) {
			this.running.get(turn)?.delete(path);
		}
	}

	private set(path: string, header: AgentItem): AgentItem {
		this.headers.set(path, header);
		return header;
	}
}
