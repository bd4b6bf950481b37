// The session itself: reopened, today's date, recovered after a stop, and its environment.
// Each is added to BUILTIN_REMINDER_TYPES in ../catalog.ts, in the order of docs/reminder-keys.md.
import { declareReminder } from '../../declaration';
import { onChange } from '../../policy';

export const SESSION_RESUME = declareReminder({
	type: 'sessionResume',
	key: 'session.resume',
	label: 'session resumed',
	purpose: 'The session was reopened: after a reload or restart, from the chat list, or as a copy of a chat open in another window.',
	introducedIn: '0.1.0',
	configurable: true,
	description: 'Tells the model that the session was reopened, and how (after a reload or restart, from the chat list, or as a copy of a chat open in another window).',
});

export const SESSION_DATE = declareReminder({
	type: 'sessionDate',
	key: 'session.date',
	label: 'date',
	purpose: 'Today\'s date, at the start of a session and whenever it changes.',
	introducedIn: '0.1.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model today\'s date at the start of a session and when the date changes.',
});

export const SESSION_RECOVERY = declareReminder({
	type: 'sessionRecovery',
	key: 'session.recovery',
	label: 'recovery',
	purpose: 'Work was cut off — Stop during a tool call or an answer, or a chat reopened after its last turn broke off — naming the tool calls that may have partial effects and that processes may still run; the background processes that go on running after a Stop; and, in a reopened chat, the background processes that ended with the window.',
	introducedIn: '0.3.0',
	configurable: true,
	description: 'After you stop the agent while a tool or an answer is running, or reopen a chat whose last turn was cut off, tells the model which calls may have left partial effects, to check before continuing.',
});

export const SESSION_ENVIRONMENT = declareReminder({
	type: 'sessionEnvironment',
	key: 'session.environment',
	label: 'environment',
	purpose: 'The environment the agent works in — OS, shell, workspace folders — kept out of the stable system prompt: in full at the first request of a chat, again when it changes, and again when compaction removed its delivery from the history.',
	introducedIn: '0.4.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model the operating system, shell and workspace folders, at the start of a chat and whenever they change.',
});
