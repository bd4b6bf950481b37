// The permission gate: a tool call that waits for the person (the approval card in the chat), and
// their verdict. One call waits at a time; Stop denies it; a verdict for another call is ignored.
import type { Logger } from '../base/log';
import type { Confirmation, Tool } from '../tools/tool';

export interface PermissionRequest {
	readonly callId: string;
	readonly tool: string;
	readonly kind: Tool['kind'];
	readonly confirmation: Confirmation;
	/** The child invocation that asks (its owner path), absent when the root turn asks: the card says which agent. */
	readonly agent?: string;
}

export interface PermissionDecision {
	readonly granted: boolean;
	/** What the person wrote with the verdict, if anything. */
	readonly note?: string;
}

/** Asks the person (the approval card in the chat view). Denies when `signal` aborts. */
export interface PermissionGate {
	ask(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision>;
}

interface Waiting {
	readonly request: PermissionRequest;
	readonly resolve: (decision: PermissionDecision) => void;
}

export class Approvals implements PermissionGate {
	private waiting: Waiting | undefined;

	constructor(
		/** The call waiting changed (the agent's state says so). */
		private readonly changed: () => void,
		private readonly log: Logger,
	) {}

	/** The call waiting for the person's verdict, if any. */
	get request(): PermissionRequest | null {
		return this.waiting?.request ?? null;
	}

	/** Shows the approval card and waits for the person; a stopped turn is a denial. */
	ask(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
		return new Promise((resolve) => {
			const onAbort = (): void => {
				if (this.waiting?.request === request) {
					this.waiting = undefined;
					this.changed();
				}
				resolve({ granted: false });
			};
			if (signal.aborted) {
				onAbort();
				return;
			}
			signal.addEventListener('abort', onAbort, { once: true });
			this.waiting = {
				request,
				resolve: (decision) => {
					signal.removeEventListener('abort', onAbort);
					resolve(decision);
				},
			};
			this.changed();
		});
	}

	/** The person's verdict on `callId`; one for a call that is not waiting is logged and dropped. */
	answer(callId: string, granted: boolean, note: string | undefined): void {
		if (this.waiting?.request.callId !== callId) {
			this.log.warn(`Aside: an approval for ${callId} arrived, but no call is waiting for it.`);
			return;
		}
		const { resolve } = this.waiting;
		this.waiting = undefined;
		resolve({ granted, ...(note?.trim() ? { note: note.trim() } : {}) });
		this.changed();
	}

	/** Stop: the waiting call is denied. The caller says that the state changed. */
	deny(): void {
		this.waiting?.resolve({ granted: false });
		this.waiting = undefined;
	}

	/** The turn ended: nothing waits any more. */
	clear(): void {
		this.waiting = undefined;
	}
}
