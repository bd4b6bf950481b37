// The window's last chat: which one is current is remembered (VS Code's workspaceState), so a new
// window on the workspace — a reload, a restart — reopens it. Checking that it still exists is one
// stat: activation reads no transcript but the one it reopens.
import { whileCurrent } from '../base/current';
import { errorMessage } from '../base/errors';
import { DisposableStore, type IDisposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { ChatSessions } from './sessions';

/** Where the id is kept (VS Code's `ExtensionContext.workspaceState`). */
export interface SessionMemory {
	get(key: string): unknown;
	update(key: string, value: unknown): PromiseLike<void>;
}

export const CURRENT_SESSION_KEY = 'aside.currentSession';

/** Reopens the chat that was current last time, when it still exists; one that cannot be opened is logged and left. */
export function reopenLastSession(memory: SessionMemory, library: { exists(id: string): boolean }, sessions: ChatSessions, log: Logger): void {
	const last = memory.get(CURRENT_SESSION_KEY);
	if (typeof last !== 'string' || last === '' || !library.exists(last)) {
		return;
	}
	try {
		sessions.open(last, 'restart');
		log.info(`Reopened session ${last}.`);
	} catch (error) {
		log.error(`Aside could not reopen session ${last}: ${errorMessage(error)}`);
	}
}

/** Keeps the current chat's id remembered (none for an empty chat): when another becomes current, and as it is written. */
export function rememberCurrentSession(memory: SessionMemory, sessions: ChatSessions): IDisposable {
	const remember = (): void => {
		void memory.update(CURRENT_SESSION_KEY, sessions.current.isEmpty ? undefined : sessions.current.id);
	};
	const store = new DisposableStore();
	store.add(whileCurrent(sessions, (session) => session.onDidAppend(remember)));
	store.add(sessions.onDidChangeCurrent(remember));
	return store;
}
