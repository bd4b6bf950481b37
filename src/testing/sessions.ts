// Sessions over memory stores, and a stand-in for the agent, for tests of the host side.
import type { ImagePart } from '../providers/messages';
import { imageRecords } from '../transcript/replayImages';
import type { AgentControls, ReturnedMessage } from '../view/controls';
import type { ChatSession, SessionEnvironment } from '../agent/session';
import type { OpenedSession, SessionLibrary } from '../agent/sessionStorage';
import { ChatSessions } from '../agent/sessions';
import { Emitter } from '../base/event';
import type { AgentState } from '../agent/agentState';
import type { PlanChoice } from '../agent/plans';
import type { AgentView, PermissionMode, StreamView, UserTurnItem } from '../protocol/messages';
import { DEFAULT_REMINDERS } from '../reminders/builtin/defaults';
import { DEFAULT_REMINDER_CONFIG } from '../reminders/config';
import { agentView } from './agentView';
import { FakeClock, SequentialIds } from './fakeClock';
import { MemorySessionStore } from './memorySessionStore';
import { RecordingLogger } from './recordingLogger';

export function testEnvironment(clock = new FakeClock(), ids = new SequentialIds()): SessionEnvironment {
	return { clock, ids, log: new RecordingLogger(), reminderConfig: DEFAULT_REMINDER_CONFIG, reminderDefaults: () => DEFAULT_REMINDERS };
}

/**
 * Sessions in memory; `stores` holds each session's store by id, so tests can reopen them.
 * A session whose id is in `heldElsewhere` behaves as one another window writes: it opens
 * read-only, with a store that refuses records.
 */
export class MemoryLibrary implements SessionLibrary {
	readonly stores = new Map<string, MemorySessionStore>();
	readonly heldElsewhere = new Set<string>();

	create(id: string): MemorySessionStore {
		const store = new MemorySessionStore();
		this.stores.set(id, store);
		return store;
	}

	open(id: string): OpenedSession {
		const store = this.stores.get(id);
		if (!store) {
			throw new Error(`No session ${id}.`);
		}
		if (this.heldElsewhere.has(id)) {
			const readOnly = new MemorySessionStore();
			readOnly.failAlways = new Error(`Session ${id} is open in another window.`);
			return { store: readOnly, records: [...store.records], heldElsewhere: 'another test window' };
		}
		return { store, records: [...store.records] };
	}

	openForWriting(id: string): OpenedSession | undefined {
		return this.heldElsewhere.has(id) ? undefined : this.open(id);
	}

	remove(id: string): string | undefined {
		if (this.heldElsewhere.has(id)) {
			return 'It is open in another window (another test window); close it there first.';
		}
		this.stores.delete(id);
		return undefined;
	}

	list(): { id: string; title?: string; updatedAt: number; forkOf?: { id: string; title: string } }[] {
		// Newest first; a tie (a fake clock that did not move) goes to the later-created session.
		return [...this.stores].reverse().flatMap(([id, store]) => {
			if (store.records.length === 0) {
				return [];
			}
			const title = store.records.findLast((record) => record.kind === 'meta' && record.title !== undefined);
			const updatedAt = Math.max(...store.records.map((record) => record.at));
			const first = store.records[0];
			return [{ id, ...(title?.kind === 'meta' && title.title !== undefined ? { title: title.title } : {}), updatedAt, ...(first?.kind === 'fork' ? { forkOf: first.source } : {}) }];
		}).sort((a, b) => b.updatedAt - a.updatedAt);
		// (Array.prototype.sort is stable, so ties keep the reversed creation order.)
	}
}

export function testSessions(clock = new FakeClock(), ids = new SequentialIds()): ChatSessions {
	return new ChatSessions(new MemoryLibrary(), testEnvironment(clock, ids));
}

let userIds = 0;

/** Appends a user message the way a turn starts (`command`: the slash command it came from), and returns its row. */
export function appendUser(session: ChatSession, text: string, at = 0, command?: string): UserTurnItem {
	const id = `u${++userIds}`;
	const from = command === undefined ? {} : { command };
	session.append({ kind: 'user', id, turnId: `t-${id}`, at, text, ...from });
	return { kind: 'user', id, text, at, ...from };
}

/** The agent as the view connection sees it: submit appends a user message; the rest is recorded. */
export class FakeAgent implements AgentControls {
	readonly calls: string[] = [];
	private readonly _onDidChange = new Emitter<AgentView>();
	readonly onDidChange = this._onDidChange.event;
	private readonly _onDidStream = new Emitter<{ readonly requestId: string; readonly text: string }>();
	readonly onDidStream = this._onDidStream.event;
	private readonly _onDidReturnMessage = new Emitter<ReturnedMessage>();
	readonly onDidReturnMessage = this._onDidReturnMessage.event;

	/** A UserPromptSubmit hook blocked this message (what Agent.onDidEndTurn says with `blocked`). */
	block(text: string, reason: string): void {
		this._onDidReturnMessage.fire({ texts: [text], reason, cause: 'hook' });
	}

	/** A Stop came before these messages, typed while the agent worked, reached the model (Agent.onDidEndTurn's `returned`). */
	returnStopped(texts: readonly string[], sessionId?: string): void {
		this._onDidReturnMessage.fire({ texts, reason: 'The agent was stopped before your message reached it.', cause: 'stopped', ...(sessionId === undefined ? {} : { sessionId }) });
	}
	state: AgentView = agentView({ status: { state: 'unavailable', detail: 'Nothing answers yet.' }, provider: 'vscode-lm' });
	/** What `streamed()` says: the text so far of the response `state.streaming` announces. */
	streamedText: StreamView | undefined;

	constructor(private readonly sessions: ChatSessions) {}

	view(): AgentView {
		return this.state;
	}

	change(state: Partial<AgentView>): void {
		this.state = { ...this.state, ...state };
		this._onDidChange.fire(this.state);
	}

	stream(requestId: string, text: string): void {
		this._onDidStream.fire({ requestId, text });
	}

	streamed(): StreamView | undefined {
		return this.streamedText;
	}

	/** What `childStreams()` says: the text so far of the responses `state.children` announce. */
	childStreamTexts: StreamView[] = [];

	childStreams(): readonly StreamView[] {
		return this.childStreamTexts;
	}

	submit(text: string, mode?: PermissionMode, command?: string): void {
		this.calls.push(`submit ${text}${mode === undefined ? '' : ` (${mode} for this message)`}${command === undefined ? '' : ` [from ${command}]`}`);
		appendUser(this.sessions.current, text, 0, command);
	}

	/** What `submitImages` answers (why not); undefined: it is sent. */
	imagesRefusal: string | undefined;

	submitImages(text: string, images: readonly ImagePart[], mode?: PermissionMode): string | undefined {
		this.calls.push(`submit ${text} with ${images.map((image) => image.mimeType).join(', ')}${mode === undefined ? '' : ` (${mode} for this message)`}`);
		if (this.imagesRefusal === undefined) {
			const id = `u${this.sessions.current.records.length + 1}`;
			this.sessions.current.append({ kind: 'user', id, turnId: `t-${id}`, at: 0, text, images: imageRecords(images) });
		}
		return this.imagesRefusal;
	}

	stop(): void {
		this.calls.push('stop');
	}

	/** What `retry` answers (why it cannot), undefined: it retries. */
	retryRefusal: string | undefined;

	retry(turnId: string): string | undefined {
		this.calls.push(`retry ${turnId}`);
		return this.retryRefusal;
	}

	approve(callId: string, granted: boolean, note: string | undefined): void {
		this.calls.push(`approve ${callId} ${granted} ${note ?? ''}`.trim());
	}

	showReview(callId: string, path: string | undefined): void {
		this.calls.push(`review ${callId} ${path ?? ''}`.trim());
	}

	selectModel(model: string): void {
		this.calls.push(`model ${model}`);
	}

	selectMode(mode: PermissionMode): void {
		this.calls.push(`mode ${mode}`);
	}

	/** What `decidePlan` answers: undefined (taken), or the message of a refusal. */
	planProblem: string | undefined;

	decidePlan(proposalId: string, choice: PlanChoice): string | undefined {
		const mode = choice.decision === 'approve' ? ` ${choice.mode}` : '';
		this.calls.push(`plan ${proposalId} ${choice.decision}${mode} ${choice.note ?? ''}`.trim());
		return this.planProblem;
	}
}

/** The agent's availability as the first-run setup watches it; `change` fires its event. */
export class FakeAgentState {
	private readonly _onDidChange = new Emitter<void>();
	readonly onDidChange = this._onDidChange.event;
	state: Pick<AgentState, 'activity' | 'problem'> = { activity: undefined, problem: 'Nothing answers yet.' };

	change(state: Partial<Pick<AgentState, 'activity' | 'problem'>>): void {
		this.state = { ...this.state, ...state };
		this._onDidChange.fire();
	}
}
