// What the composer sends: refused when empty or over the length limit, run when it is a slash
// command, else given to the agent as the person's message. A command may send a message of its
// own as the person's (an MCP prompt's text): it goes the same way, labelled with the command as
// typed — but never as steering of a running turn (it would become a reminder), and never over
// the length limit.
import type { PermissionMode } from '../protocol/messages';
import type { AgentControls, ViewSettingsSource } from './controls';
import { type CurrentChat, sayWhatFullAccessMeans } from './modeWarning';
import type { SentMessages } from './sentMessages';
import type { CommandMessage, SlashCommands } from './slashCommands';
import type { HandlerPort } from './viewHandlers';

export interface Submission {
	readonly settings: ViewSettingsSource;
	readonly agent: AgentControls;
	readonly sessions: CurrentChat;
	readonly commands: SlashCommands;
	readonly sent: SentMessages;
	readonly port: HandlerPort;
}

function tooLong(length: number, limit: number): string {
	return `The message has ${length.toLocaleString('en-US')} characters; the limit is ${limit.toLocaleString('en-US')} (setting aside.chat.maxMessageLength). Nothing was sent.`;
}

/** The person sent `text` from the composer (`mode`: the mode for this message only). */
export function submitFromComposer(submission: Submission, text: string, mode: PermissionMode | undefined): void {
	const { port, settings } = submission;
	const limit = settings.current.maxMessageLength;
	if (text.trim() === '') {
		port.send({ type: 'notice', level: 'warning', text: 'The message is empty: nothing was sent.' });
		return;
	}
	if (text.length > limit) {
		port.send({ type: 'notice', level: 'error', text: tooLong(text.length, limit) });
		return;
	}
	const ran = submission.commands.run(text, {
		...port,
		submit: (message) => {
			commandMessage(submission, message, mode);
		},
	});
	if (!ran) {
		deliver(submission, text, mode);
	}
}

function deliver(submission: Submission, text: string, mode: PermissionMode | undefined, command?: string): void {
	const { agent, port } = submission;
	submission.sent.sent(text);
	sayWhatFullAccessMeans(submission.sessions, agent.view().mode, mode, (notice) => {
		port.notice('warning', notice);
	});
	agent.submit(text, mode, command);
}

function commandMessage(submission: Submission, { text, command }: CommandMessage, mode: PermissionMode | undefined): void {
	const limit = submission.settings.current.maxMessageLength;
	const name = /^\S+/u.exec(command)?.[0] ?? command;
	const refused = submission.agent.view().status.state === 'running'
		? `${name} sends a message of its own: wait for the agent to finish, or stop it, and send it again. Nothing was sent.`
		: text.length > limit
			? `${name} makes a message of ${text.length.toLocaleString('en-US')} characters; the limit is ${limit.toLocaleString('en-US')} (setting aside.chat.maxMessageLength). Nothing was sent.`
			: undefined;
	if (refused !== undefined) {
		submission.port.send({ type: 'composer.restore', text: command, reason: refused, cause: 'command' });
		return;
	}
	deliver(submission, text, mode, command);
}
