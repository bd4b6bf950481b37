// The MCP feature's part of the webview (`mcp.*`, src/features/mcp/mcpViewPart.ts on the host):
// the server list under the header (mcpServers.ts) and the cards of the servers' requests above the
// composer (mcpRequests.ts), composed.
import type { HostMessage, ViewMessage } from '../src/protocol/messages';
import type { ViewFeaturePart } from './featurePart';
import { McpRequestCards } from './mcpRequests';
import { McpServerList } from './mcpServers';

export class McpPart implements ViewFeaturePart {
	readonly id = 'mcp';
	private readonly list: McpServerList;
	private readonly cards: McpRequestCards;

	constructor(post: (message: ViewMessage) => void) {
		this.list = new McpServerList(post);
		this.cards = new McpRequestCards(post);
	}

	get headerActions(): readonly HTMLElement[] {
		return this.list.headerActions;
	}

	get top(): HTMLElement {
		return this.list.top;
	}

	get bottom(): HTMLElement {
		return this.cards.element;
	}

	receive(message: HostMessage): void {
		if (message.type === 'mcp.requests') {
			this.cards.update(message.requests);
		} else {
			this.list.receive(message);
		}
	}
}
