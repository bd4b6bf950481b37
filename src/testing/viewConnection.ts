// A view connection for tests of the host side of the view, over sessions in memory and a
// stand-in agent, with what it posts and logs recorded.
import { Emitter } from '../base/event';
import type { HostMessage, ViewSettings } from '../protocol/messages';
import { ViewConnection, type ViewConnectionOptions } from '../view/connection';
import type { ForkControls } from '../view/controls';
import { ForkPart } from '../features/fork/forkView';
import { ModePart } from '../features/mode/modeView';
import { PlanPart } from '../features/plan/planView';
import type { HeldNotices } from '../view/heldNotices';
import { SessionProjections } from '../view/sessionView';
import { RecordingLogger } from './recordingLogger';
import { FakeAgent, testSessions } from './sessions';
import type { ChatSessions } from '../agent/sessions';

/** A view connection over sessions in memory and a stand-in agent, recording what it posts. */
export function testConnection(options: { deliver?: boolean; notices?: HeldNotices; mentionCandidates?: ViewConnectionOptions['mentionCandidates']; mentionOffers?: ViewConnectionOptions['mentionOffers']; skillCandidates?: ViewConnectionOptions['skillCandidates']; deleteChat?: ViewConnectionOptions['deleteChat']; forks?: (sessions: ChatSessions) => ForkControls; features?: (sessions: ReturnType<typeof testSessions>) => NonNullable<ViewConnectionOptions['features']>; userRules?: ViewConnectionOptions['userRules'] } = {}) {
	const sessions = testSessions();
	const agent = new FakeAgent(sessions);
	const settingsChanged = new Emitter<ViewSettings>();
	const settings = {
		current: { sendShortcut: 'enter', maxMessageLength: 20 } as ViewSettings,
		onDidChange: settingsChanged.event,
		/** What `autoCompactAt()` says: `aside.context.autoCompactAt`, undefined while automatic compaction is off. */
		compactAt: undefined as number | undefined,
		autoCompactAt(): number | undefined {
			return this.compactAt;
		},
	};
	const posted: HostMessage[] = [];
	const log = new RecordingLogger();
	const workbench = {
		copied: [] as string[],
		opened: [] as string[],
		copy(text: string) {
			this.copied.push(text);
			return Promise.resolve();
		},
		openLink(href: string) {
			this.opened.push(href);
			return Promise.resolve(true);
		},
		/** What `openMention` resolves with: why it did not open, or undefined. */
		mentionRefusal: undefined as string | undefined,
		openMention(path: string, range: { readonly start: number; readonly end: number } | undefined) {
			this.opened.push(`mention ${path}${range ? `#L${range.start}-${range.end}` : ''}`);
			return Promise.resolve(this.mentionRefusal);
		},
		openPlan(file: string) {
			this.opened.push(`plan ${file}`);
			return Promise.resolve();
		},
	};
	const projections = new SessionProjections(sessions);
	const connection = new ViewConnection({
		sessions,
		projections,
		workbench,
		settings,
		agent,
		...(options.notices ? { notices: options.notices } : {}),
		...(options.mentionCandidates ? { mentionCandidates: options.mentionCandidates } : {}),
		...(options.mentionOffers ? { mentionOffers: options.mentionOffers } : {}),
		...(options.skillCandidates ? { skillCandidates: options.skillCandidates } : {}),
		...(options.deleteChat ? { deleteChat: options.deleteChat } : {}),
		// The mode picker, the plan card and Fork over the stand-in agent (and the forks given), as the window wires them.
		features: [
			new ModePart(sessions, () => ({ current: () => agent.state.mode, select: (mode) => { agent.selectMode(mode); } })),
			new PlanPart({ sessions, decision: () => ({ decide: (proposalId, choice) => agent.decidePlan(proposalId, choice) }), workbench }),
			new ForkPart(options.forks?.(sessions), log),
			...(options.features?.(sessions) ?? []),
		],
		...(options.userRules ? { userRules: options.userRules } : {}),
		post: (message) => {
			posted.push(message);
			return Promise.resolve(options.deliver ?? true);
		},
		log,
	});
	return { sessions, projections, agent, settings, settingsChanged, posted, log, connection, workbench };
}
