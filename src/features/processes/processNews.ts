// What the model is told of its background processes (processReminders.ts), from the chat's
// registry (src/terminal/backgroundProcesses.ts). Each piece of news is kept until a request that
// carried it went out: its commit removes exactly what it carried, so a failed request loses
// nothing and a delivered one is never said again. Process output is outside text: neutralised.
import { clockTime, duration } from '../../base/time';
import { observation } from '../../reminders/builtin/observations';
import { rosterDefinition } from '../../reminders/declaration';
import type { ReminderDefinition } from '../../reminders/definition';
import { sanitizeUntrusted } from '../../reminders/envelope';
import { type BackgroundProcess, type BackgroundProcesses, exitCodeWords, type ProcessEnd } from '../../terminal/backgroundProcesses';
import { waitingPrompt } from '../../terminal/prompts';
import { RUN_BACKGROUND_EXIT, RUN_BACKGROUND_OUTPUT, RUN_BACKGROUND_RUNNING, RUN_BACKGROUND_STUCK } from './processReminders';

/** How many of the last lines an exit or new output shows; the rest is in the file. */
const SHOWN_LINES = 20;
/** The most of one shown line. */
const SHOWN_LINE_CHARS = 500;
/** How long a process must be quiet at a prompt before it counts as waiting. */
export const STUCK_QUIET_MS = 10_000;

/** A command as the reminders quote it: neutralised, in backticks, at most 200 characters. */
export const quoted = (command: string): string => `\`${sanitizeUntrusted(command.length > 200 ? `${command.slice(0, 199)}…` : command)}\``;

function shown(lines: readonly string[]): string {
	return lines.map((line) => sanitizeUntrusted(line.length > SHOWN_LINE_CHARS ? `${line.slice(0, SHOWN_LINE_CHARS)}…` : line)).join('\n');
}

function endWords(end: ProcessEnd): string {
	const code = exitCodeWords(end.code);
	switch (end.cause) {
		case 'exited':
			return `exited: ${code}`;
		case 'stopped':
			return `was stopped (RunStop, or the person): ${code}${end.signal === undefined ? '' : `, ${end.signal}`}`;
		case 'bound':
			return `was stopped because its output passed the bound Aside keeps: ${code}`;
	}
}

function exitParagraph(process: BackgroundProcess, end: ProcessEnd): string {
	const last = process.output.last(SHOWN_LINES);
	return [
		`${process.id} ${quoted(process.command)} ${endWords(end)}, at ${clockTime(end.at)} after ${duration(end.at - process.startedAt)}.`,
		last.length === 0 ? 'It printed nothing.' : `Its last ${last.length === 1 ? 'line' : `${last.length} lines`}:\n${shown(last)}`,
		`Its whole output: ${process.outputPath} (Read it, or RunOutput ${process.id}).`,
	].join('\n');
}

export class ProcessNews {
	/** Ended processes not yet told, oldest first. */
	private ended: BackgroundProcess[] = [];
	/** Per process, the line count the model was last told of (output) and the prompts it was told of (stuck). */
	private readonly toldLines = new Map<string, number>();
	private readonly toldPrompts = new Set<string>();
	/** Whether any background process ran in this chat: from then on the running set is a section. */
	private started = false;

	constructor(
		private readonly processes: BackgroundProcesses,
		private readonly now: () => number,
	) {
		processes.onDidChange((event) => {
			if (event.kind === 'started') {
				this.started = true;
			} else if (event.kind === 'ended') {
				this.ended.push(event.process);
			}
		});
	}

	/** The ended processes run.background.exit has not told the model of yet, oldest first. */
	untold(): readonly BackgroundProcess[] {
		return this.ended;
	}

	/** `run.background.exit`: each ended process, once. */
	exitDefinition(): ReminderDefinition {
		return rosterDefinition(RUN_BACKGROUND_EXIT, {
			scope: 'session',
			trigger: () => this.ended.length > 0,
			content: () => {
				const carried = this.ended.slice();
				const body = carried.flatMap((process) => (process.end ? [exitParagraph(process, process.end)] : [])).join('\n\n');
				return {
					body,
					commit: () => {
						this.ended = this.ended.filter((process) => !carried.includes(process));
					},
				};
			},
		});
	}

	/** The running processes that asked to hear of output with something new and unread. */
	private withNews(): { readonly process: BackgroundProcess; readonly lines: readonly string[]; readonly to: number }[] {
		return this.processes.running().flatMap((process) => {
			const { output, notify } = process;
			const told = this.toldLines.get(process.id) ?? 0;
			if (notify.kind === 'exit' || output.unread === 0 || output.lineCount <= told) {
				return [];
			}
			const fresh = Math.min(output.unread, output.lineCount - told);
			const lines = notify.kind === 'match' ? process.matches.slice(-SHOWN_LINES) : output.peekUnread(Math.min(fresh, SHOWN_LINES));
			return lines.length === 0 ? [] : [{ process, lines, to: output.lineCount }];
		});
	}

	/** `run.background.output`: per process, what it printed (or matched) that the model has not read. */
	outputDefinition(): ReminderDefinition {
		return rosterDefinition(RUN_BACKGROUND_OUTPUT, {
			scope: 'session',
			trigger: () => this.withNews().length > 0,
			content: () => {
				const news = this.withNews();
				const body = news
					.map(({ process, lines }) => {
						const what = process.notify.kind === 'match' ? `lines matching its pattern (${process.matches.length} unread)` : `new output (${process.output.unread} unread lines)`;
						return `${process.id} ${quoted(process.command)} printed ${what}:\n${shown(lines)}\nRead it all with RunOutput ${process.id}.`;
					})
					.join('\n\n');
				return {
					body,
					commit: () => {
						for (const { process, to } of news) {
							this.toldLines.set(process.id, Math.max(to, this.toldLines.get(process.id) ?? 0));
						}
					},
				};
			},
		});
	}

	private stuck(): { readonly process: BackgroundProcess; readonly prompt: string }[] {
		const now = this.now();
		return this.processes.running().flatMap((process) => {
			if (now - process.lastOutputAt < STUCK_QUIET_MS) {
				return [];
			}
			const prompt = waitingPrompt(process.output.current, process.output.last(1)[0]);
			return prompt === undefined || this.toldPrompts.has(`${process.id}\u0000${prompt}`) ? [] : [{ process, prompt }];
		});
	}

	/** `run.background.stuck`: a quiet process at a prompt, once per process and prompt line. */
	stuckDefinition(): ReminderDefinition {
		return rosterDefinition(RUN_BACKGROUND_STUCK, {
			scope: 'session',
			trigger: () => this.stuck().length > 0,
			content: () => {
				const stuck = this.stuck();
				const body = stuck
					.map(({ process, prompt }) =>
						`${process.id} ${quoted(process.command)} has printed nothing for ${duration(this.now() - process.lastOutputAt)} and seems to wait at a prompt: ` +
						`"${shown([prompt])}". A background process has no input, so it will wait for ever: stop it (RunStop ${process.id}) and run it again non-interactively ` +
						'(a --yes or --no-input flag, or input piped in).',
					)
					.join('\n\n');
				return {
					body,
					commit: () => {
						for (const { process, prompt } of stuck) {
							this.toldPrompts.add(`${process.id}\u0000${prompt}`);
						}
					},
				};
			},
		});
	}

	/** `run.background.running`: the running set, once any process was started; an observation, so a compaction re-arms it. */
	runningDefinition(): ReminderDefinition {
		const body = (): string | undefined => {
			if (!this.started) {
				return undefined;
			}
			const running = this.processes.running();
			if (running.length === 0) {
				return 'No background process of this chat runs now.';
			}
			return [
				'Background processes of this chat running now (RunOutput reads one, RunStop ends one; do not start a second copy of one of these):',
				...running.map((process) => `- ${process.id} ${quoted(process.command)} since ${clockTime(process.startedAt)}; output: ${process.outputPath}`),
			].join('\n');
		};
		return observation(
			rosterDefinition(RUN_BACKGROUND_RUNNING, {
				scope: 'session',
				trigger: () => body() !== undefined,
				content: () => ({ body: body() ?? null }),
			}),
			'any-request',
		);
	}
}
