// The background processes' reminder types (docs/tools.md, "Run in the background"): a process that
// ended, new or matching output, a process waiting at a prompt it will never get an answer to, and
// the set that runs now. Registered with the key registry and the settings by the feature list.
import { declareReminder } from '../../reminders/declaration';
import { onChange } from '../../reminders/policy';

export const RUN_BACKGROUND_EXIT = declareReminder({
	type: 'runBackgroundExit',
	key: 'run.background.exit',
	label: 'background process ended',
	purpose: 'A background process (Run with background: true) exited, was stopped, or was stopped because its output passed the bound: its exit code as reported ("unknown" when the shell reported none), the cause, how long it ran, its last lines and its output file. Once per process, kept until a request that carried it went out.',
	introducedIn: '0.6.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model when a background process it started ends: the exit code, why, how long it ran, its last lines and where its whole output is.',
});

export const RUN_BACKGROUND_OUTPUT = declareReminder({
	type: 'runBackgroundOutput',
	key: 'run.background.output',
	label: 'background output',
	purpose: 'New output of a background process started with notify "output", or the lines matching its notify.match: what the model has not read yet, at most once per process per request, and nothing once RunOutput read it.',
	introducedIn: '0.6.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model about new output (or lines matching its pattern) of a background process it asked to hear from, until it reads them with RunOutput.',
});

export const RUN_BACKGROUND_STUCK = declareReminder({
	type: 'runBackgroundStuck',
	key: 'run.background.stuck',
	label: 'background process waiting',
	purpose: 'A background process went quiet at a line that reads as a prompt ("?", [y/N], (yes/no), a password): it has no input and will wait for ever; stop it and run it again non-interactively. Once per process and prompt line.',
	introducedIn: '0.6.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model when a background process seems to wait for input it will never get, so it stops it and runs it non-interactively.',
});

export const RUN_BACKGROUND_RUNNING = declareReminder({
	type: 'runBackgroundRunning',
	key: 'run.background.running',
	label: 'background processes',
	purpose: 'The background processes running now (id, command, since when, output file), once any was started: again when the set changes, and after a compaction dropped it, so the model does not start a second dev server the summary forgot.',
	introducedIn: '0.6.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model which background processes it started still run, again when that changes and after a compaction.',
});

// Not a roster reminder: Aside's message in place of a person's, in a turn it started by itself (processWake.ts).
export const RUN_BACKGROUND_WAKE = declareReminder({
	type: 'runBackgroundWake',
	key: 'run.background.wake',
	label: 'Aside started this turn',
	purpose: 'Sent in place of a person\'s message when a background process that ended by itself starts a turn in the idle chat (aside.run.wakeOnExit, off by default): it says that no person wrote it, which processes ended, and that the model should look at them within the person\'s last task and start nothing new. The chat shows it as Aside\'s row.',
	introducedIn: '0.6.0',
	configurable: false,
	description: 'Aside\'s message in a turn it started by itself when a background process ended (aside.run.wakeOnExit): it says no person wrote it.',
});

// A notice: it rides the result of the Run call that ran outside the terminal (chatProcesses.ts).
export const RUN_SHELL_INTEGRATION = declareReminder({
	type: 'runShellIntegration',
	key: 'run.shell-integration',
	label: 'ran outside the terminal',
	purpose: 'Rides the result of a Run that ran as a child process instead of in a VS Code terminal, and says why (aside.run.terminal "off", shell integration that did not start in time, a command of several lines, a nested shell): then `cd` and variables do not carry over. Once per chat and reason.',
	introducedIn: '0.6.0',
	configurable: true,
	description: 'Tells the model, once per chat and reason, that a command ran outside VS Code\'s terminals and why, so it does not count on `cd` or variables carrying over.',
});

export const PROCESS_REMINDERS = [
	RUN_BACKGROUND_EXIT,
	RUN_BACKGROUND_OUTPUT,
	RUN_BACKGROUND_STUCK,
	RUN_BACKGROUND_RUNNING,
	RUN_BACKGROUND_WAKE,
	RUN_SHELL_INTEGRATION,
] as const;
