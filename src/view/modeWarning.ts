// Full access is the one mode in which the agent asks nothing, so the first time a chat enters it
// (chosen in the toolbar as the chat's mode, or as the override for one message) the chat says
// once what that means. "Once per chat" is kept per window, beside the window's sessions: every
// view of the window, and a view made again or reloaded, shares it. A chat already in full access
// when a mode is chosen counts as told: its mode came from its own records (the `meta` record of
// an earlier choice), so it was chosen, and said, before. Only what this window saw of a chat is
// known here: one reopened in another mode, after full access in an earlier window, is told again.
import type { PermissionMode } from '../protocol/messages';

export const FULL_ACCESS_NOTICE =
	'Full access: the agent changes files and runs commands without asking, except what a rule or a protected path still refuses or asks for. Choose Ask or Auto-edit in the toolbar to be asked again.';

/** The window's chats, as far as this needs them: which one is current. */
export interface CurrentChat {
	readonly current: { readonly id: string };
}

/** The chats told, per window (its sessions object): gone with it. */
const told = new WeakMap<CurrentChat, Set<string>>();

/**
 * Calls `say` with the notice when `chosen` takes the current chat, now in `mode`, into full
 * access for the first time; otherwise says nothing. `chosen` undefined: no mode was chosen.
 */
export function sayWhatFullAccessMeans(chats: CurrentChat, mode: PermissionMode, chosen: PermissionMode | undefined, say: (text: string) => void): void {
	let chatsTold = told.get(chats);
	if (!chatsTold) {
		chatsTold = new Set();
		told.set(chats, chatsTold);
	}
	const { id } = chats.current;
	if (mode === 'full-access') {
		chatsTold.add(id);
		return;
	}
	if (chosen === 'full-access' && !chatsTold.has(id)) {
		chatsTold.add(id);
		say(FULL_ACCESS_NOTICE);
	}
}
