// The host side of the MCP request cards (docs/mcp.md, "When a server asks"): the chat in view's
// waiting sampling and elicitation requests (serverRequestRouter.ts), sent whole on every change
// (`mcp.requests`), and the person's answers (`mcp.answer`) taken back to the router.
import { Disposable, DisposableStore, type IDisposable } from '../../base/lifecycle';
import type { Event } from '../../base/event';
import type { ViewMessage } from '../../protocol/messages';
import type { FeatureViewPort } from '../../view/featureView';
import type { McpRequestRouter } from '../../mcp/serverRequestRouter';
import { requestView } from './samplingCard';

declare module '../../agent/chatFeature' {
	interface FeatureServices {
		/** Who answers the window's MCP servers' sampling and elicitation requests; absent where the window has no MCP. */
		readonly mcpRequests?: McpRequestRouter;
	}
}

export class McpRequestCards extends Disposable {
	constructor(
		private readonly router: McpRequestRouter | undefined,
		private readonly current: () => string,
		private readonly onDidChangeChat: Event<unknown>,
	) {
		super();
	}

	connect(view: FeatureViewPort): IDisposable {
		const store = new DisposableStore();
		const { router } = this;
		if (!router) {
			return store;
		}
		store.add(router.attachView());
		let sent = '';
		const send = (): void => {
			const requests = router.requests(this.current()).map(requestView);
			const json = JSON.stringify(requests);
			if (json !== sent) {
				sent = json;
				view.send({ type: 'mcp.requests', requests });
			}
		};
		store.add(router.onDidChange(send));
		store.add(this.onDidChangeChat(send));
		return store;
	}

	shown(view: FeatureViewPort): void {
		view.send({ type: 'mcp.requests', requests: this.router ? this.router.requests(this.current()).map(requestView) : [] });
	}

	receive(message: ViewMessage, view: FeatureViewPort): void {
		if (message.type !== 'mcp.answer' || !this.router) {
			return;
		}
		// The test hooks answer through the same router.answer.
		const problem = this.router.answer(message.id, message.action, message.entries);
		if (problem !== undefined) {
			view.notice('warning', problem);
		}
	}
}
