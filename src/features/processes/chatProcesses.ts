// One chat's processes (docs/tools.md, "Where commands run"): its background processes (p1, p2 …,
// started by Run with background: true) and what the model is told of them (processNews.ts), and
// its shell for foreground Run — one terminal named "Aside", reused so `cd` and `export` carry over.
// Only the root loop reaches them: a sub-agent's Run starts a child process of its own, and it has
// no RunOutput or RunStop. A command that ran outside the terminal says why once per chat and reason
// (`run.shell-integration`).
import type { BetweenTurns } from '../../agent/betweenTurns';
import type { FeatureChat, FeatureState } from '../../agent/chatFeature';
import { systemTimers } from '../../base/clock';
import { DisposableStore, type IDisposable } from '../../base/lifecycle';
import { isRunning, processStartOf } from '../../base/processIdentity';
import { clockTime } from '../../base/time';
import { SESSION_RECOVERY } from '../../reminders/builtin/catalog/session';
import { entryOf } from '../../reminders/declaration';
import type { StagedEntry } from '../../reminders/definition';
import { type BackgroundProcess, BackgroundProcesses } from '../../terminal/backgroundProcesses';
import type { ProcessHost } from '../../terminal/processHost';
import { endSession } from '../../terminal/sessionEnd';
import { FALLBACK_WORDS, type FallbackReason } from '../../terminal/shellExecution';
import { anyOf, type FeatureAccess, grant } from '../../tools/featureAccess';
import { CHAT_SHELL, type ChatShell, PROCESS_ACCESS } from '../../tools/processAccess';
import type { CommandRunner, ToolNotice } from '../../tools/tool';
import type { TurnOutcomeKind } from '../../vocabulary/outcomes';
import { ROOT_OWNER_PATH } from '../../vocabulary/tasks';
import { ProcessNews, quoted } from './processNews';
import { foldProcessRecords, type ProcessRecord } from './processRecord';
import { RUN_BACKGROUND_EXIT, RUN_SHELL_INTEGRATION } from './processReminders';
import { ProcessWake } from './processWake';

/** A `process` record of `process` as it is now: started (and the session it runs in), or ended and how. */
function processRecord(process: BackgroundProcess, id: string, at: number): ProcessRecord {
	const { end, leader } = process;
	if (end === undefined) {
		const start = leader === undefined ? undefined : processStartOf(leader);
		const session = leader === undefined ? {} : { leader, ...(start === undefined ? {} : { leaderStart: start }) };
		return { kind: 'process', id, at, process: process.id, change: 'started', command: process.command, ...session };
	}
	return { kind: 'process', id, at, process: process.id, change: 'ended', cause: end.cause, ...(end.code === undefined ? {} : { code: end.code }) };
}

/**
 * session.recovery for processes that went with the window; `told` records that the model was told.
 * One that outlived it (its terminal's shell still runs: the window's close never reached it) is
 * ended now, and said so.
 */
function goneWithWindow(unended: readonly ProcessRecord[], told: () => void): StagedEntry | undefined {
	if (unended.length === 0) {
		return undefined;
	}
	const line = (record: ProcessRecord) => {
		const outlived = record.leader !== undefined && isRunning(record.leader, record.leaderStart) && endSession(record.leader);
		return `- ${record.process} ${quoted(record.command ?? '')} (started ${clockTime(record.at)})${outlived ? ': it was still running, outside any window; Aside ended it now' : ''}`;
	};
	const lines = [
		'Background processes this chat started were still running when VS Code closed or reloaded, and ended with it:',
		...unended.map(line),
		'Start again what you still need (Run with background: true); do not assume they still run.',
	];
	return { ...entryOf(SESSION_RECOVERY), body: lines.join('\n'), reason: 'the chat was reopened after its background processes ended with the window', commit: told };
}

/**
 * What a chat's processes carry beyond their registry — what the model was told of them, the chat's
 * shell — kept with the registry: a chat opened again in the same window takes them all over.
 */
interface KeptWithProcesses {
	readonly news: ProcessNews;
	readonly runner: CommandRunner & IDisposable;
}
const keptWith = new WeakMap<BackgroundProcesses, KeptWithProcesses>();

export class ChatProcesses implements FeatureState {
	/** This state's own listeners and its listing: let go of when the chat is opened again in this window. */
	private readonly store = new DisposableStore();
	/** Whether another state of the chat took the processes over (adopt): then they are not this one's to end. */
	private released = false;
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
		// Opened before in this window and left: its processes ran on here; this state takes them over.
		const adopted = session.access === undefined ? host.chats.adopt(session.id) : undefined;
		this.processes =
			adopted ??
			new BackgroundProcesses(host.launcher, {
				outputPath: (id) => host.outputPath(`process-${id}`),
				now: () => clock.now(),
				file: (path) => host.file(path),
				numberedFrom: last,
			});
		const kept = (adopted && keptWith.get(adopted)) ?? { news: new ProcessNews(this.processes, () => clock.now()), runner: host.foreground() };
		keptWith.set(this.processes, kept);
		const record = (process: BackgroundProcess) => {
			session.append(processRecord(process, chat.newId(), clock.now()));
		};
		// Each start and end is recorded, so a reopened chat knows what was running when the window went
		// (while the chat is left, not: the state that takes its processes over records what came meanwhile).
		this.store.add(this.processes.onDidChange((event) => {
			if (event.kind !== 'output' && !session.closed) {
				record(event.process);
			}
		}));
		// Ended while the chat was left (its state then could not write to it): recorded now.
		const here = new Map(this.processes.list().map((process) => [process.id, process]));
		for (const started of unended) {
			const process = here.get(started.process);
			if (process?.end !== undefined) {
				record(process);
			}
		}
		// Processes recorded as started and never ended, that do not run here, ran in a window that is gone
		// and went with it — unless another window has the chat open (this one shows it read-only, or continues a copy): theirs.
		const elsewhere = unended.filter((started) => !here.has(started.process));
		const gone = session.access !== undefined ? undefined : goneWithWindow(elsewhere, () => {
			for (const started of elsewhere) {
				session.append({ kind: 'process', id: chat.newId(), at: clock.now(), process: started.process, change: 'ended', cause: 'window' });
			}
		});
		if (gone) {
			session.reminders.enqueuePending(gone);
		}
		const { news, runner } = kept;
		this.store.add(host.chats.add({ chatId: session.id, processes: this.processes, shell: runner, release: () => {
			this.release();
		} }));
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
		this.shell = { runner, fallbackNotice: (reason) => this.fallbackNotice(reason) };
	}

	/** The chat was opened again in this window: its new state has the processes, the news and the shell now. */
	private release(): void {
		this.released = true;
		this.store.dispose();
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

	/** The chat goes (it is not open again elsewhere in this window): its processes end, and its shell. */
	dispose(): void {
		this.store.dispose();
		if (!this.released) {
			this.processes.dispose();
			keptWith.get(this.processes)?.runner.dispose();
		}
	}
}
