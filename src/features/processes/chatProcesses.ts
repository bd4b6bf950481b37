// One chat's processes (docs/tools.md, "Where commands run"): its background processes (p1, p2 …,
// started by Run with background: true) and what the model is told of them (processNews.ts), and
// its shell for foreground Run — one terminal named "Aside", reused so `cd` and `export` carry over.
// Only the root loop reaches them: a sub-agent's Run starts a child process of its own, and it has
// no RunOutput or RunStop. A command that ran outside the terminal says why once per chat and reason
// (`run.shell-integration`).
import type { BetweenTurns } from '../../agent/betweenTurns';
import type { FeatureChat, FeatureState } from '../../agent/chatFeature';
import { systemTimers } from '../../base/clock';
import { DisposableStore } from '../../base/lifecycle';
import { clockTime } from '../../base/time';
import { SESSION_RECOVERY } from '../../reminders/builtin/catalog/session';
import { entryOf } from '../../reminders/declaration';
import type { StagedEntry } from '../../reminders/definition';
import { type BackgroundProcess, BackgroundProcesses } from '../../terminal/backgroundProcesses';
import type { ProcessHost } from '../../terminal/processHost';
import { FALLBACK_WORDS, type FallbackReason } from '../../terminal/shellExecution';
import { anyOf, type FeatureAccess, grant } from '../../tools/featureAccess';
import { CHAT_SHELL, type ChatShell, PROCESS_ACCESS } from '../../tools/processAccess';
import type { ToolNotice } from '../../tools/tool';
import type { TurnOutcomeKind } from '../../vocabulary/outcomes';
import { ROOT_OWNER_PATH } from '../../vocabulary/tasks';
import { ProcessNews, quoted } from './processNews';
import { foldProcessRecords, type ProcessRecord } from './processRecord';
import { RUN_BACKGROUND_EXIT, RUN_SHELL_INTEGRATION } from './processReminders';
import { ProcessWake } from './processWake';

/** A `process` record of `process` as it is now: started, or ended and how. */
function processRecord(process: BackgroundProcess, id: string, at: number): ProcessRecord {
	const { end } = process;
	if (end === undefined) {
		return { kind: 'process', id, at, process: process.id, change: 'started', command: process.command };
	}
	return { kind: 'process', id, at, process: process.id, change: 'ended', cause: end.cause, ...(end.code === undefined ? {} : { code: end.code }) };
}

/** session.recovery for processes that went with the window; `told` records that the model was told. */
function goneWithWindow(unended: readonly ProcessRecord[], told: () => void): StagedEntry | undefined {
	if (unended.length === 0) {
		return undefined;
	}
	const lines = [
		'Background processes this chat started were still running when VS Code closed or reloaded, and ended with it:',
		...unended.map((record) => `- ${record.process} ${quoted(record.command ?? '')} (started ${clockTime(record.at)})`),
		'Start again what you still need (Run with background: true); do not assume they still run.',
	];
	return { ...entryOf(SESSION_RECOVERY), body: lines.join('\n'), reason: 'the chat was reopened after its background processes ended with the window', commit: told };
}

export class ChatProcesses implements FeatureState {
	private readonly store = new DisposableStore();
	readonly processes: BackgroundProcesses;
	private readonly shell: ChatShell;
	private readonly toldFallbacks = new Set<FallbackReason>();
	private readonly isEnabled: (type: string) => boolean;
	private readonly wake: ProcessWake | undefined;

	/** `chat.between`: how an exit starts a turn (aside.run.wakeOnExit); without it none does. */
	constructor(chat: Pick<FeatureChat, 'session' | 'clock' | 'newId'> & { readonly between?: Pick<BetweenTurns, 'startUnasked'> }, host: ProcessHost) {
		this.isEnabled = (type) => chat.session.reminders.config.isEnabled(type);
		const { session, clock } = chat;
		const { last, unended } = foldProcessRecords(session.allRecords);
		this.processes = this.store.add(
			new BackgroundProcesses(host.launcher, {
				outputPath: (id) => host.outputPath(`process-${id}`),
				now: () => clock.now(),
				file: (path) => host.file(path),
				numberedFrom: last,
			}),
		);
		// Each start and end is recorded, so a reopened chat knows what was running when the window went.
		this.store.add(this.processes.onDidChange((event) => {
			if (event.kind !== 'output') {
				session.append(processRecord(event.process, chat.newId(), clock.now()));
			}
		}));
		// Processes recorded as started and never ended ran in a window that is gone, and went with it —
		// unless another window has the chat open (this one shows it read-only, or continues a copy): theirs.
		const gone = session.access !== undefined ? undefined : goneWithWindow(unended, () => {
			for (const record of unended) {
				session.append({ kind: 'process', id: chat.newId(), at: clock.now(), process: record.process, change: 'ended', cause: 'window' });
			}
		});
		if (gone) {
			session.reminders.enqueuePending(gone);
		}
		this.store.add(host.chats.add({ chatId: session.id, processes: this.processes }));
		const news = new ProcessNews(this.processes, () => clock.now());
		const { roster } = session.reminders;
		if (!roster.has(RUN_BACKGROUND_EXIT.type)) {
			roster.register(news.exitDefinition());
			roster.register(news.outputDefinition());
			roster.register(news.stuckDefinition());
			roster.register(news.runningDefinition());
		}
		const { between } = chat;
		this.wake = between && this.store.add(new ProcessWake(this.processes, {
			enabled: () => host.wakeOnExit?.() === true && this.isEnabled(RUN_BACKGROUND_EXIT.type),
			untold: () => news.untold(),
			records: () => session.allRecords,
			between,
			timers: host.timers ?? systemTimers,
		}));
		const runner = this.store.add(host.foreground());
		this.shell = { runner, fallbackNotice: (reason) => this.fallbackNotice(reason) };
	}

	private fallbackNotice(reason: FallbackReason): ToolNotice | undefined {
		if (this.toldFallbacks.has(reason) || !this.isEnabled(RUN_SHELL_INTEGRATION.type)) {
			return undefined;
		}
		this.toldFallbacks.add(reason);
		return { key: RUN_SHELL_INTEGRATION.key, body: `This ran outside VS Code's terminals: ${FALLBACK_WORDS[reason]}. (Said once in this chat.)` };
	}

	afterTurn(outcome: TurnOutcomeKind): void {
		this.wake?.afterTurn(outcome);
	}

	/** After a Stop, session.recovery says that the background processes still run. */
	recoveryNotes(): readonly string[] {
		const running = this.processes.running();
		if (running.length === 0) {
			return [];
		}
		return [
			'Background processes of this chat keep running after a Stop (RunOutput reads one, RunStop ends one):',
			...running.map((process) => `- ${process.id} ${quoted(process.command)} since ${clockTime(process.startedAt)}`),
		];
	}

	toolAccess(owner: string): FeatureAccess {
		return owner === ROOT_OWNER_PATH ? anyOf([grant(PROCESS_ACCESS, this.processes), grant(CHAT_SHELL, this.shell)]) : anyOf([]);
	}

	dispose(): void {
		this.store.dispose();
	}
}
