// Deleting a chat from the chat list: its transcript, content and plans (the library), its index
// entry, and its checkpoints (the store: blobs no other chat names go too). The chat a turn is
// running in is refused, and so is one another window holds; deleting the current chat starts a
// new one.
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import type { CheckpointStore } from '../checkpoints/types';
import type { ChatSessions } from './sessions';

export interface ChatDeletionPorts {
	readonly sessions: ChatSessions;
	/** Whether a turn runs now (always in the current chat: changing chats stops it). */
	readonly running: () => boolean;
	readonly checkpoints?: CheckpointStore;
	readonly log: Logger;
}

/** Deletes chat `id`; resolves with why it was not deleted (a sentence for the person), or undefined. */
export async function deleteChat(id: string, ports: ChatDeletionPorts): Promise<string | undefined> {
	const { sessions, checkpoints, log } = ports;
	if (id === sessions.current.id && ports.running()) {
		return 'This chat is working: stop it first, then delete it.';
	}
	let refused: string | undefined;
	try {
		refused = sessions.delete(id);
	} catch (error) {
		log.error(`Aside: could not delete chat ${id}: ${errorMessage(error)}`);
		return `It could not be deleted: ${errorMessage(error)}`;
	}
	if (refused !== undefined) {
		return refused;
	}
	try {
		await checkpoints?.deleteChat(id);
	} catch (error) {
		// The chat is gone; its checkpoints stay until the storage bound drops them (they are the oldest then).
		log.warn(`Aside: the checkpoints of deleted chat ${id} could not be removed: ${errorMessage(error)}`);
	}
	return undefined;
}
