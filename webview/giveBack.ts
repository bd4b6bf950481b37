// A message that did not reach the model comes back to the composer of its chat, never dropped:
// one a hook blocked, a chat restore gave back or a slash command could not send goes into an empty
// box at once, and over a draft waits on the notice's Restore button; messages a Stop caught always
// go back, above any draft.
import type { HostMessage } from '../src/protocol/messages';
import type { ChatScope } from './chatScope';
import type { Composer } from './composer';
import { el } from './dom';
import type { Notices } from './notices';

type Returned = Extract<HostMessage, { type: 'composer.restore' }>;

export function giveBack(message: Returned, composer: Composer, chat: ChatScope, notices: Notices): void {
	const { text, reason, sessionId } = message;
	const cause = message.cause ?? 'hook';
	if (sessionId !== undefined && !chat.isShown(sessionId)) {
		// Its chat is not on screen (the person switched chats, which stopped the agent): its own draft takes it.
		chat.giveBackTo(sessionId, text);
		notices.show('info', `${reason} It is back in this chat's message box.`, undefined, sessionId);
		return;
	}
	if (cause === 'stopped') {
		const draft = composer.hasDraft;
		composer.restore(text, true);
		notices.show('info', `${reason} It is back in the message box${draft ? ', above your draft' : ''}.`);
		return;
	}
	const why = cause === 'hook' ? `Your message was not sent: a UserPromptSubmit hook blocked it: ${reason}` : reason;
	if (cause === 'hook') {
		// The host's hooks say the same on their own (a held notice): this one, with the way back, replaces it.
		notices.remove(why);
	}
	const level = cause === 'hook' || cause === 'command' ? 'warning' : 'info';
	if (!composer.hasDraft) {
		composer.restore(text);
		notices.show(level, cause === 'restore' ? why : `${why} It is back in the message box.`);
		return;
	}
	const restore = el('button', { type: 'button', class: 'button-secondary notice-action' }, 'Restore message');
	const kept = cause === 'hook' || cause === 'command'
		? `${why} Your draft is kept; Restore message puts the ${cause === 'hook' ? 'blocked message' : 'command'} back above it.`
		: 'The chat was restored to before a message. Your draft is kept; Restore message puts that message back above it.';
	const notice = notices.show(level, kept, restore);
	restore.addEventListener('click', () => {
		composer.restore(text, true);
		notice.remove();
	});
}
