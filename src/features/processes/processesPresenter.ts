// The background processes' part of the view: the panel of the current chat's running processes
// (webview/processes.ts), in the snapshot and as `processes.changed` when one starts or ends, when
// Stop is pressed, and on new output — that at most once per OUTPUT_UPDATE_MS, trailing, so the
// panel's last line is current without a message per line. Another chat becoming current is a new
// snapshot, so it sends nothing then. Stop and Show terminal reach only the current chat's processes.
import { systemTimers, type TimerHandle, type Timers } from '../../base/clock';
import { type HasCurrent, whileCurrent } from '../../base/current';
import { Emitter, type Event } from '../../base/event';
import { Disposable, type IDisposable, toDisposable } from '../../base/lifecycle';
import type { Logger } from '../../base/log';
import { clockTime } from '../../base/time';
import type { ChatSession } from '../../agent/session';
import type { ViewMessage, ViewState } from '../../protocol/messages';
import { MAX_PROCESS_COMMAND_CHARS, MAX_PROCESS_LINE_CHARS, MAX_PROCESS_ROWS, type ProcessesView, type ProcessView } from '../../protocol/processes';
import type { BackgroundProcess, BackgroundProcesses } from '../../terminal/backgroundProcesses';
import type { FeatureViewPart, FeatureViewPort } from '../../view/featureView';
import { ChatProcesses } from './chatProcesses';

/** New output updates the panel at most this often (per chat: only the current one is followed). */
export const OUTPUT_UPDATE_MS = 500;

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The line being written now, else the last completed one. */
function lastLine(process: BackgroundProcess): string {
	const current = process.output.current;
	return current.trim() !== '' ? current : (process.output.last(1)[0] ?? '');
}

/** The running processes of `processes` as the panel shows them. */
export function processesView(processes: BackgroundProcesses | undefined, stopping: (process: BackgroundProcess) => boolean): ProcessesView {
	const running = processes?.running().slice(0, MAX_PROCESS_ROWS) ?? [];
	return {
		rows: running.map((process): ProcessView => ({
			id: process.id,
			command: cut(process.command, MAX_PROCESS_COMMAND_CHARS),
			startedAt: clockTime(process.startedAt),
			lastLine: cut(lastLine(process), MAX_PROCESS_LINE_CHARS),
			hasTerminal: process.terminalName !== undefined,
			stopping: stopping(process),
		})),
	};
}

export class ProcessesPresenter extends Disposable implements FeatureViewPart {
	readonly id = 'processes';
	/** The processes the person pressed Stop on (they leave the panel once they ended). */
	private readonly stopping = new WeakSet<BackgroundProcess>();
	private readonly _onDidChange = this._register(new Emitter<ProcessesView>());
	/** The current chat's running processes changed. */
	readonly onDidChange: Event<ProcessesView> = this._onDidChange.event;

	/** `stateOf`: the chat's processes feature state (`{}` where the window hands no process host). */
	constructor(
		private readonly sessions: HasCurrent<ChatSession>,
		private readonly stateOf: (session: ChatSession) => ChatProcesses | object,
		private readonly log: Logger,
		private readonly timers: Timers = systemTimers,
	) {
		super();
		this._register(whileCurrent(sessions, (session) => this.follow(session)));
	}

	private processesOf(session: ChatSession): BackgroundProcesses | undefined {
		const state = this.stateOf(session);
		return state instanceof ChatProcesses ? state.processes : undefined;
	}

	private follow(session: ChatSession): IDisposable | undefined {
		const processes = this.processesOf(session);
		if (!processes) {
			return undefined;
		}
		let pending: TimerHandle = undefined;
		const cancel = (): void => {
			this.timers.clearTimeout(pending);
			pending = undefined;
		};
		const fire = (): void => {
			cancel();
			this._onDidChange.fire(this.viewOf(processes));
		};
		const listener = processes.onDidChange((event) => {
			if (event.kind !== 'output') {
				fire();
			} else if (pending === undefined) {
				pending = this.timers.setTimeout(fire, OUTPUT_UPDATE_MS);
			}
		});
		return toDisposable(() => {
			listener.dispose();
			cancel();
		});
	}

	private viewOf(processes: BackgroundProcesses | undefined): ProcessesView {
		return processesView(processes, (process) => this.stopping.has(process));
	}

	/** The current chat's running processes. */
	view(): ProcessesView {
		return this.viewOf(this.processesOf(this.sessions.current));
	}

	snapshot(): Partial<ViewState> {
		return { processes: this.view() };
	}

	connect(view: FeatureViewPort): IDisposable {
		return this.onDidChange((processes) => {
			view.send({ type: 'processes.changed', processes });
		});
	}

	receive(message: ViewMessage): void {
		if (message.type !== 'processes.stop' && message.type !== 'processes.show') {
			return;
		}
		const processes = this.processesOf(this.sessions.current);
		const process = processes?.get(message.id);
		if (!processes || !process || process.end !== undefined) {
			// A click on a row the panel had not yet dropped, or a message from an older view.
			this.log.info(`Aside: ${message.type} for ${cut(message.id, 40)}: the current chat has no such running process; ignored.`);
			return;
		}
		if (message.type === 'processes.show') {
			if (!processes.show(process.id)) {
				this.log.info(`Aside: ${process.id} runs without a terminal; there is none to show.`);
			}
			return;
		}
		if (!this.stopping.has(process)) {
			this.stopping.add(process);
			void processes.stop(process.id);
			// Stop may have ended it already; else the row says it is stopping until it ends.
			if (processes.running().includes(process)) {
				this._onDidChange.fire(this.viewOf(processes));
			}
		}
	}
}
