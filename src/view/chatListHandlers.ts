// The chat list's messages: a new chat, the list, opening and deleting a chat. Opening or deleting
// the current chat makes another current; its snapshot follows from the connection.
import { errorMessage } from '../base/errors';
import type { ChatSessions } from '../agent/sessions';
import type { HandlerPort, ViewHandlers } from './viewHandlers';

export interface ChatListSource {
	readonly sessions: ChatSessions;
	/** Deletes a chat (src/agent/chatDeletion.ts); resolves with why it was not deleted. None: the list's Delete is refused. */
	readonly deleteChat?: (id: string) => Promise<string | undefined>;
}

export function chatListHandlers({ sessions, deleteChat }: ChatListSource, view: HandlerPort): ViewHandlers {
	const sendList = (): void => {
		try {
			view.send({ type: 'sessions.listed', sessions: sessions.list() });
		} catch (error) {
			view.log.error(`Aside: could not list the saved chats: ${errorMessage(error)}`);
			view.notice('error', `Could not list the saved chats: ${errorMessage(error)}`);
		}
	};
	return {
		'session.new': () => {
			sessions.newSession();
		},
		'sessions.list': sendList,
		'session.open': ({ id }) => {
			try {
				sessions.open(id);
			} catch (error) {
				view.log.error(`Aside: could not open chat ${id}: ${errorMessage(error)}`);
				view.notice('error', `Could not open that chat: ${errorMessage(error)}`);
			}
		},
		// Deletes a chat, then sends the list again (the current chat's replacement comes as its own snapshot).
		'session.delete': ({ id }) => {
			if (!deleteChat) {
				view.notice('warning', 'Chats cannot be deleted here.');
				return;
			}
			deleteChat(id).then(
				(refused) => {
					if (refused !== undefined) {
						view.notice('warning', `The chat was not deleted. ${refused}`);
					}
					sendList();
				},
				(error: unknown) => {
					view.log.error(`Aside: could not delete chat ${id}: ${errorMessage(error)}`);
					view.notice('error', `Could not delete the chat: ${errorMessage(error)}`);
				},
			);
		},
	};
}
