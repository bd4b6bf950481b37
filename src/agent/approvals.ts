// The permission gate: a tool call that waits for the person (the approval card in the chat), and
// their verdict. Several calls may wait (sub-agents ask side by side): the card shows the first,
// in the order they asked; Stop denies them all; a verdict for a call not waiting is ignored.
import type { Logger } from '../base/log';
import type { Confirmation, Tool } from '../tools/tool';

export interface PermissionRequest {
	readonly callId: string;
	readonly tool: string;
	readonly kind: Tool['kind'];
	readonly confirmation: Confirmation;
	/** The child invocation that asks (its owner path), absent when the root turn asks: the card says which agent. */
	readonly agent?: string;
	/** The allow rules "Always allow" would save (the policy's proposal); absent when no rule can express the call. */
	readonly allowRules?: readonly string[];
}

export interface PermissionDecision {
	readonly granted: boolean;
	/** What the person wrote with the verdict, if anything. */
	readonly note?: string;
}

/**
 * Asks the person (the approval card in the chat view). Denies when `signal` aborts. `decided`
 * runs the moment the person answers, before the card goes: what the agent does next shows at
 * once, whatever else (the diff editor) the caller still waits for.
 */
export interface PermissionGate {
	ask(request: PermissionRequest, signal: AbortSignal, decided?: (decision: PermissionDecision) => void): Promise<PermissionDecision>;
}

interface Waiting {
	readonly request: PermissionRequest;
	readonly resolve: (decision: PermissionDecision) => void;
	readonly decided: ((decision: PermissionDecision) => void) | undefined;
}

export class Approvals implements PermissionGate {
	/** The calls waiting, in the order they asked: sub-agents running side by side may each ask. */
	private readonly waiting: Waiting[] = [];

	constructor(
		/** The call waiting changed (the agent's state says so). */
		private readonly changed: () => void,
		private readonly log: Logger,
	) {}

	/** The call whose card is shown: the first that asked of those still waiting. */
	get request(): PermissionRequest | null {
		return this.waiting[0]?.request ?? null;
	}

	/** How many calls wait for the person (the card shows one at a time). */
	get waitingCount(): number {
		return this.waiting.length;
	}

	/** Shows the approval card (after the ones already waiting) and waits for the person; a stopped turn is a denial. */
	ask(request: PermissionRequest, signal: AbortSignal, decided?: (decision: PermissionDecision) => void): Promise<PermissionDecision> {
		return new Promise((resolve) => {
			const onAbort = (): void => {
				if (this.remove(request)) {
					this.changed();
				}
				resolve({ granted: false });
			};
			if (signal.aborted) {
				onAbort();
				return;
			}
			signal.addEventListener('abort', onAbort, { once: true });
			this.waiting.push({
				request,
				resolve: (decision) => {
					signal.removeEventListener('abort', onAbort);
					resolve(decision);
				},
				decided,
			});
			this.changed();
		});
	}

	/** The person's verdict on `callId`; one for a call that is not waiting is logged and dropped. */
	answer(callId: string, granted: boolean, note: string | undefined): void {
		const waiting = this.waiting.find((candidate) => candidate.request.callId === callId);
		if (!waiting) {
			this.log.warn(`Aside: an approval for ${callId} arrived, but no call is waiting for it.`);
			return;
		}
		this.remove(waiting.request);
		const decision = { granted, ...(note?.trim() ? { note: note.trim() } : {}) };
		waiting.decided?.(decision);
		waiting.resolve(decision);
		this.changed();
	}

	/** Stop: every waiting call is denied. The caller says that the state changed. */
	deny(): void {
		for (const waiting of this.waiting.splice(0)) {
			waiting.resolve({ granted: false });
		}
	}

	/** The turn ended: nothing waits any more. */
	clear(): void {
		this.waiting.length = 0;
	}

	private remove(request: PermissionRequest): boolean {
		const index = this.waiting.findIndex((candidate) => candidate.request === request);
		if (index < 0) {
			return false;
		}
		this.waiting.splice(index, 1);
		return true;
	}
}
