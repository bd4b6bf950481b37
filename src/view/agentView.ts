// The agent as the chat shows it: its state (src/agent/agent.ts) in the person's words, and the
// controls the view connection drives. The status sentences live here and nowhere else.
import type { AgentState, ChildState, TurnActivity } from '../agent/agentState';
import type { ImagePart } from '../providers/messages';
import { PERMISSION_MODES, type PermissionMode } from '../vocabulary/permissionModes';
import type { PermissionRequest } from '../agent/approvals';
import type { Event } from '../base/event';
import { DisposableStore } from '../base/lifecycle';
import type { AgentStatus, AgentView, ApprovalView, ChildAgentView, StreamView } from '../protocol/messages';
import { changeKind } from '../tools/changes';
import type { TurnOutcome } from '../agent/turnScope';
import type { AgentControls, ReturnedMessage } from './controls';
import type { ReturnedMessages } from '../agent/steering';
import type { CallProgress } from '../agent/toolProgress';
import type { ToolProgressView } from '../protocol/toolProgress';

export const READY_DETAIL = 'Ask Aside to read, search or change files in this workspace. Every reminder it adds is shown in the chat.';

/** One sentence for what a running turn is doing. */
export function activityDetail(activity: TurnActivity): string {
	switch (activity.kind) {
		case 'choosing-model':
			return 'Choosing the model…';
		case 'preparing':
			return 'Preparing the request…';
		case 'waiting':
			return 'Waiting for the model…';
		case 'streaming':
			return 'Answering…';
		case 'running-tool':
			return `Running ${activity.tool ?? 'a tool'}…`;
		case 'asking':
			return `Waiting for you to allow or deny ${activity.tool ?? 'a tool call'}.`;
		case 'retrying':
			return `The provider did not take the request (${activity.reason}); trying again in ${Math.ceil(activity.delayMs / 1000)} s (attempt ${activity.attempt + 1}).`;
		case 'stopping':
			return 'Stopping…';
		case 'compacting':
			return activity.cause === 'manual'
				? 'Compacting the chat: the model is writing a summary…'
				: activity.cause === 'overflow'
					? 'The provider refused the request as too long: compacting the chat, then trying again…'
					: 'The context is nearly full: compacting the chat before the next request…';
	}
}

/** Whether anything will answer, said plainly. */
export function agentStatus(state: AgentState): AgentStatus {
	if (state.activity) {
		return { state: 'running', detail: activityDetail(state.activity) };
	}
	if (state.problem !== undefined) {
		return { state: 'unavailable', detail: state.problem };
	}
	return { state: 'ready', detail: READY_DETAIL };
}

/** The approval card's content for a call waiting for the person. */
export function approvalView(request: PermissionRequest): ApprovalView {
	const { confirmation } = request;
	return {
		callId: request.callId,
		tool: request.tool,
		kind: request.kind,
		title: confirmation.title,
		target: confirmation.target,
		...(confirmation.diff === undefined ? {} : { diff: confirmation.diff }),
		...(confirmation.diffTitle === undefined ? {} : { diffTitle: confirmation.diffTitle }),
		...(confirmation.changes === undefined ? {} : {
			review: { files: confirmation.changes.map((change) => ({ path: change.shown, change: changeKind(change) })) },
		}),
		...(request.agent === undefined ? {} : { agent: request.agent }),
		...(request.allowRules?.length ? { alwaysAllow: [...request.allowRules] } : {}),
	};
}

/** A running child as its header row's live part shows it: what it does, and whether it streams. */
export function childAgentView(child: ChildState): ChildAgentView {
	return { path: child.path, detail: activityDetail(child.activity), streaming: child.streaming && { requestId: child.streaming.requestId } };
}

/** A running call's progress as its live row shows it. */
export function toolProgressView({ callId, tool, fraction, message }: CallProgress): ToolProgressView {
	return { callId, tool, ...(fraction === undefined ? {} : { fraction }), ...(message === undefined ? {} : { message }) };
}

/** The agent's controls as the view shows them. A stream is only announced: its text travels in `text.streamed`. */
export function agentView(state: AgentState): AgentView {
	return {
		status: agentStatus(state),
		provider: state.provider,
		model: state.model,
		models: state.models.map(({ id, name }) => ({ id, name })),
		mode: state.mode,
		approval: state.approval && approvalView(state.approval),
		streaming: state.streaming && { requestId: state.streaming.requestId },
		steering: [...state.steering],
		...(state.contextWindow ? { contextWindow: state.contextWindow } : {}),
		...(state.plan ? { plan: { proposalId: state.plan.proposalId, plan: state.plan.plan, modes: [...IMPLEMENTATION_MODES], mode: state.plan.mode } } : {}),
		children: (state.children ?? []).map(childAgentView),
		...(state.toolProgress?.length ? { toolProgress: state.toolProgress.map(toolProgressView) } : {}),
	};
}

/** The modes a plan may be implemented in: any but plan mode itself. */
const IMPLEMENTATION_MODES = PERMISSION_MODES.filter((mode) => mode !== 'plan');

/** What the view shows of the agent and asks of it: `Agent` (src/agent/agent.ts). */
export interface ViewedAgent {
	readonly state: AgentState;
	readonly onDidChange: Event<AgentState>;
	readonly onDidStream: Event<{ readonly requestId: string; readonly text: string }>;
	readonly onDidEndTurn: Event<Pick<TurnOutcome, 'blocked'> & { readonly returned?: ReturnedMessages }>;
	readonly onDidReturnMessages?: Event<ReturnedMessages>;
	submit(text: string, mode?: PermissionMode, command?: string): void;
	submitImages?(text: string, images: readonly ImagePart[], mode?: PermissionMode): string | undefined;
	stop(): void;
	retry?(turnId: string): string | undefined;
	approve(callId: string, granted: boolean, note: string | undefined): void;
	showReview(callId: string, path: string | undefined): void;
	selectModel(model: string): void;
}

/** The agent behind the view connection's controls: its state projected, its commands passed on. */
const STOPPED = 'The agent was stopped before your message reached it.';

export class AgentPresenter implements AgentControls {
	readonly onDidChange: Event<AgentView>;
	readonly onDidStream: Event<{ readonly requestId: string; readonly text: string }>;
	readonly onDidReturnMessage: Event<ReturnedMessage>;

	constructor(private readonly agent: ViewedAgent) {
		this.onDidChange = (listener) => agent.onDidChange((state) => {
			listener(agentView(state));
		});
		this.onDidStream = agent.onDidStream;
		const stopped = (returned: ReturnedMessages): ReturnedMessage => ({ texts: returned.texts, reason: STOPPED, cause: 'stopped', sessionId: returned.sessionId });
		this.onDidReturnMessage = (listener) => {
			const store = new DisposableStore();
			store.add(agent.onDidEndTurn(({ blocked, returned }) => {
				if (blocked) {
					listener({ texts: [blocked.text], reason: blocked.reason, cause: 'hook' });
				}
				if (returned) {
					listener(stopped(returned));
				}
			}));
			// What waited for a compaction or a restore that was stopped, or whose chat was left.
			if (agent.onDidReturnMessages) {
				store.add(agent.onDidReturnMessages((returned) => {
					listener(stopped(returned));
				}));
			}
			return store;
		};
	}

	view(): AgentView {
		return agentView(this.agent.state);
	}

	streamed(): StreamView | undefined {
		const { streaming } = this.agent.state;
		return streaming ? { requestId: streaming.requestId, text: streaming.text } : undefined;
	}

	childStreams(): StreamView[] {
		return (this.agent.state.children ?? []).flatMap(({ streaming }) => (streaming ? [{ requestId: streaming.requestId, text: streaming.text }] : []));
	}

	submit(text: string, mode?: PermissionMode, command?: string): void {
		this.agent.submit(text, mode, command);
	}

	submitImages(text: string, images: readonly ImagePart[], mode?: PermissionMode): string | undefined {
		return this.agent.submitImages ? this.agent.submitImages(text, images, mode) : 'Images cannot be sent here.';
	}

	stop(): void {
		this.agent.stop();
	}

	retry(turnId: string): string | undefined {
		return this.agent.retry?.(turnId) ?? undefined;
	}

	approve(callId: string, granted: boolean, note: string | undefined): void {
		this.agent.approve(callId, granted, note);
	}

	showReview(callId: string, path: string | undefined): void {
		this.agent.showReview(callId, path);
	}

	selectModel(model: string): void {
		this.agent.selectModel(model);
	}

}
