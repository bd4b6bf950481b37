// aside.run.wakeOnExit (docs/tools.md, "Run in the background"): a background process that ends by
// itself while its chat is idle starts a turn there, so a long build or test run is looked at when
// it finishes rather than when the person next writes. No person wrote that turn's message: Aside
// sends a `run.background.wake` reminder in its place that says so, and the chat shows it as
// Aside's row. Off by default. Exits that come together wake the chat once; a process the person or
// RunStop stopped never wakes it; a turn that failed is not tried again by itself; and after
// MAX_WAKES_IN_A_ROW such turns with no message of the person's between them, exits only wait for
// the next request, as they do with the setting off.
import type { BetweenTurns } from '../../agent/betweenTurns';
import type { TimerHandle, Timers } from '../../base/clock';
import type { IDisposable } from '../../base/lifecycle';
import { type BackgroundProcess, type BackgroundProcesses, exitCodeWords } from '../../terminal/backgroundProcesses';
import type { TranscriptRecord } from '../../transcript/records';
import type { StartedBy } from '../../transcript/startedBy';
import type { TurnOutcomeKind } from '../../vocabulary/outcomes';
import { quoted } from './processNews';
import { RUN_BACKGROUND_WAKE } from './processReminders';

/** How long after an exit the chat waits before it wakes: exits that come together wake it once. */
export const WAKE_SETTLE_MS = 1000;
/** Turns Aside may start in a row with no message of the person's between them. */
export const MAX_WAKES_IN_A_ROW = 3;
/** The most of the row's line. */
const WHY_CHARS = 300;

/** Whether `process` ended by itself (or at the output bound): the ends that may wake the chat. */
function endedByItself(process: BackgroundProcess): boolean {
	return process.end !== undefined && process.end.cause !== 'stopped';
}

function endLine(process: BackgroundProcess): string {
	const { end } = process;
	const how = end?.cause === 'bound' ? `was stopped because its output passed the bound (${exitCodeWords(end.code)})` : `exited: ${exitCodeWords(end?.code)}`;
	return `${process.id} ${quoted(process.command)} ${how}`;
}

/** The turns Aside started since the person's last message, counted back from the end. */
export function wakesInARow(records: readonly TranscriptRecord[]): number {
	let count = 0;
	for (let index = records.length - 1; index >= 0; index--) {
		const record = records[index];
		if (record?.kind === 'user' && record.agent === undefined) {
			if (record.startedBy === undefined) {
				break;
			}
			count++;
		}
	}
	return count;
}

/** What Aside sends in the person's place when `ended` wake the chat. */
export function wakeMessage(ended: readonly BackgroundProcess[]): StartedBy {
	const lines = ended.map(endLine);
	const why = lines.join('; ');
	const body = [
		'No person wrote this message. Aside started this turn by itself because background processes of this chat ended while the chat was idle (the person turned on aside.run.wakeOnExit):',
		...lines.map((line) => `- ${line}`),
		'The person may not be watching. Look at what ended (run.background.exit has its last lines and output file), do what it calls for within the task the person last gave you, and end with a short account of what happened. Do not start work the person did not ask for; if nothing needs doing, say so in a line.',
	].join('\n');
	return { why: why.length > WHY_CHARS ? `${why.slice(0, WHY_CHARS - 1)}…` : why, key: RUN_BACKGROUND_WAKE.key, label: RUN_BACKGROUND_WAKE.label, body };
}

export interface WakeOptions {
	/** Whether an exit may wake the chat now: the setting, and run.background.exit on. */
	readonly enabled: () => boolean;
	/** Ended processes the model has not been told of yet (run.background.exit's), oldest first. */
	readonly untold: () => readonly BackgroundProcess[];
	readonly records: () => readonly TranscriptRecord[];
	readonly between: Pick<BetweenTurns, 'startUnasked'>;
	readonly timers: Timers;
}

export class ProcessWake implements IDisposable {
	/** The processes a turn was started for: one wake each, whatever became of that turn. */
	private readonly woken = new Set<string>();
	private timer: TimerHandle;
	private readonly listener: IDisposable;

	constructor(processes: BackgroundProcesses, private readonly options: WakeOptions) {
		this.listener = processes.onDidChange((event) => {
			if (event.kind === 'ended' && endedByItself(event.process)) {
				this.soon();
			}
		});
	}

	/** A root turn ended: an exit that came during its last step was told to no one yet. */
	afterTurn(outcome: TurnOutcomeKind): void {
		// A Stop, a failure, the step limit: the person has something to look at; it is theirs to go on.
		if (outcome === 'done') {
			this.soon();
		}
	}

	private soon(): void {
		this.options.timers.clearTimeout(this.timer);
		this.timer = this.options.timers.setTimeout(() => {
			this.timer = undefined;
			this.wake();
		}, WAKE_SETTLE_MS);
	}

	private wake(): void {
		const { options } = this;
		if (!options.enabled() || wakesInARow(options.records()) >= MAX_WAKES_IN_A_ROW) {
			return;
		}
		const ended = options.untold().filter((process) => endedByItself(process) && !this.woken.has(process.id));
		if (ended.length > 0 && options.between.startUnasked(wakeMessage(ended))) {
			for (const process of ended) {
				this.woken.add(process.id);
			}
		}
	}

	dispose(): void {
		this.options.timers.clearTimeout(this.timer);
		this.listener.dispose();
	}
}
