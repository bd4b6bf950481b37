// What the composer sends: refused when empty or over the length limit, run when it is a slash
// command, else given to the agent as the person's message. A command may send a message of its
// own as the person's (an MCP prompt's text): it goes the same way, labelled with the command as
// typed — but never as steering of a running turn (it would become a reminder), and never over
// the length limit.
import type { ImageUpload } from '../protocol/images';
import type { PermissionMode } from '../protocol/messages';
import type { ImagePart } from '../providers/messages';
import { checkImage } from './imageUploads';
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

/** The person sent `text` from the composer (`mode`: the mode for this message only; `images`: what they attached). */
export function submitFromComposer(submission: Submission, text: string, mode: PermissionMode | undefined, images?: readonly ImageUpload[]): void {
	const { port, settings } = submission;
	const limit = settings.current.maxMessageLength;
	if (images?.length && text.length <= limit) {
		submitImages(submission, text, mode, images);
		return;
	}
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

/**
 * A message with images: checked again here (the webview is not trusted: by their bytes, within the
 * largest bound; the provider's own bound was said when each was attached), then sent as a turn of its
 * own, never as a slash command or steering. Refused, the text goes back to the composer, which kept the images.
 */
function submitImages(submission: Submission, text: string, mode: PermissionMode | undefined, uploads: readonly ImageUpload[]): void {
	const { agent, port } = submission;
	const images: ImagePart[] = [];
	for (const upload of uploads) {
		const checked = checkImage(upload.name, Buffer.from(upload.data, 'base64'));
		if ('refused' in checked) {
			port.send({ type: 'composer.restore', text, reason: `${checked.refused} Nothing was sent.` });
			return;
		}
		images.push(checked.image);
	}
	sayWhatFullAccessMeans(submission.sessions, agent.view().mode, mode, (notice) => {
		port.notice('warning', notice);
	});
	const refused = agent.submitImages(text, images, mode);
	if (refused !== undefined) {
		port.send({ type: 'composer.restore', text, reason: `${refused} Nothing was sent; the images are still attached.` });
		return;
	}
	submission.sent.sent(text);
	port.send({ type: 'images.sent' });
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
