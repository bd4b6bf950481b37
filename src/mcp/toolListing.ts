// A server's tool list as its connection keeps it (serverConnection.ts): listed when it connects and
// again on each `tools/list_changed`; of listings that overlap (a burst of list_changed), only the
// last counts, and each change is told once, with what changed.
import { errorMessage } from '../base/errors';
import type { McpSession, McpToolInfo } from './session';
import { listChange, type ToolListChange } from './serverState';

export class ToolListing {
	private _tools: readonly McpToolInfo[] = [];
	private _listedOnce = false;
	private listings = 0;
	private latest: Promise<void> = Promise.resolve();

	constructor(
		/** The session to list on now (none while disconnected). */
		private readonly session: () => McpSession | undefined,
		private readonly signal: AbortSignal,
		private readonly changed: (change: ToolListChange) => void,
		private readonly log: (text: string) => void,
	) {}

	get tools(): readonly McpToolInfo[] {
		return this._tools;
	}

	/** Whether the server was listed once (it connected before). */
	get listedOnce(): boolean {
		return this._listedOnce;
	}

	/** Lists the tools again and tells what changed. */
	list(): Promise<void> {
		this.latest = this.listOnce();
		return this.latest;
	}

	/** Resolves once the last listing (those started meanwhile too) is done. */
	async settled(): Promise<void> {
		for (let latest = this.latest; ; latest = this.latest) {
			await latest;
			if (latest === this.latest) {
				return;
			}
		}
	}

	private async listOnce(): Promise<void> {
		const session = this.session();
		if (!session) {
			return;
		}
		const generation = ++this.listings;
		let tools: McpToolInfo[];
		try {
			tools = await session.listTools(this.signal);
		} catch (error) {
			this.log(`Listing the tools failed: ${errorMessage(error)}`);
			return;
		}
		if (this.session() !== session || generation !== this.listings) {
			return;
		}
		const change = listChange(this._tools, tools, !this._listedOnce);
		this._listedOnce = true;
		this._tools = tools;
		if (change.initial || change.added.length + change.removed.length + change.changed.length > 0) {
			this.changed(change);
		}
	}
}
